/// `name` in `directory`: `name` alone when the directory is empty or `.`, else joined by one `/`.
func joinPath(_ directory: String, _ name: String) -> String {
    if directory.isEmpty || directory == "." { return name }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
