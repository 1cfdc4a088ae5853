import Foundation

/// A new, empty directory under the system's temporary directory, named `<prefix>-<UUID>`, for a
/// test's files. The caller removes it (or leaves it to the system's cleaning of /tmp).
func makeScratchDirectory(_ prefix: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
