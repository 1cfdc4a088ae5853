#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public struct AtomicFileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// Writes a file so that readers see either the old complete file or the new complete file: the bytes
/// go to a temporary file in the same directory (`.<name>.tmp-<pid>-<random>`, so it is on the same file
/// system), are fsync'ed, and the temporary file is renamed over the destination with rename(2).
/// On failure the temporary file is removed and the destination is untouched.
public enum AtomicFile {
    /// Writes `text` to `path`, the value of `option`; errors are `OutputError`s naming both.
    public static func write(_ text: String, to path: String, option: String) throws(OutputError) {
        do {
            try write(Array(text.utf8), to: path)
        } catch let error as AtomicFileError {
            let what = error.operation == "rename" ? "cannot replace the file" : "cannot write the file"
            throw OutputError(option: option, path: path, doing: what, errno: error.code)
        } catch {
            throw OutputError(option: option, path: path, reason: "\(error)")
        }
    }

    public static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let prefix = slash.map { String(path[...$0]) } ?? ""          // "dir/" or "/" or ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directory = prefix.isEmpty ? "." : (prefix == "/" ? "/" : String(prefix.dropLast()))
        let temporary = prefix + ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        // Errors name the destination, never the hidden temporary file.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, operation: "open", code: errno) }
        SignalCleanup.register([temporary])
        defer { SignalCleanup.unregister([temporary]) }
        var failure = FileDescriptorWriting.writeAndSync(bytes, to: descriptor)
            .map { AtomicFileError(path: path, operation: $0.step, code: $0.code) }
        if close(descriptor) != 0 && failure == nil {
            failure = AtomicFileError(path: path, operation: "close", code: errno)
        }
        if failure == nil && rename(temporary, path) != 0 {
            failure = AtomicFileError(path: path, operation: "rename", code: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // Make the rename itself durable (best effort).
        FileDescriptorWriting.syncDirectory(directory)
    }
}
