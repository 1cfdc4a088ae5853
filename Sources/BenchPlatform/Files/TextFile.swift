/// Reads a whole text file such as /proc/self/status as UTF-8 (invalid bytes replaced). Like
/// `readFileBytes`, it never blocks on a FIFO or a device: those are refused.
package func readTextFile(_ path: String, limit: Int = FileBytesLimit.maxFileBytes) throws(FileReadError) -> String {
    String(decoding: try readFileBytes(path, limit: limit, recordsInput: false), as: UTF8.self)
}
