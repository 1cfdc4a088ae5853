import Foundation

/// Reads a whole (small) text file such as /proc/self/status as UTF-8.
func readTextFile(_ path: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return String(decoding: data, as: UTF8.self)
}
