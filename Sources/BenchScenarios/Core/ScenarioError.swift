/// The first problem found in a scenario file: which file, where in it, and what was expected.
///
/// `description` is `"<file>: <path>: <message>"`, for example
/// `Scenarios/x.json: layout.columns: expected an integer >= 1, got 0`. The path is a JSON path
/// (`layout.sections[1].justify`). A syntax error has no path; its place is the line and column
/// (`Scenarios/x.json: line 3, column 7: expected ':' after the key "name", got '='`). An error
/// about the file itself (missing, unreadable) has neither: `Scenarios/x.json: no such file`.
package struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    package var file: String
    /// JSON path of the offending value; empty for syntax errors and errors about the whole file.
    package var path: String
    package var message: String
    /// 1-based position in the file, when known (syntax errors, duplicate keys).
    package var line: Int?
    package var column: Int?

    package init(file: String, path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// Where the error is: the path, else `line L, column C`, else nothing.
    package var location: String? {
        if !path.isEmpty { return path }
        if let line { return column.map { "line \(line), column \($0)" } ?? "line \(line)" }
        return nil
    }

    package var description: String {
        if let location { return "\(file): \(location): \(message)" }
        return "\(file): \(message)"
    }

    /// The error as seen from the object that holds the value it is about, under `key`
    /// (errors without a path, syntax errors, stay as they are).
    func inside(key: String) -> ScenarioError {
        guard !path.isEmpty else { return self }
        var copy = self
        copy.path = JSONPath.joining(JSONPath.appending("", key: key), path)
        return copy
    }

    /// The error as seen from the array that holds the value it is about, at `index`.
    func inside(index: Int) -> ScenarioError {
        guard !path.isEmpty else { return self }
        var copy = self
        copy.path = JSONPath.joining(JSONPath.appending("", index: index), path)
        return copy
    }
}
