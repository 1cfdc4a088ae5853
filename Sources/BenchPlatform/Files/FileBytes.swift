/// The largest file the harness reads whole, in bytes (2 GiB: about 100 million items of CSV);
/// `ScenarioLimits.maxFileBytes` is this bound. Only regular files are read: `/dev/zero` or a
/// FIFO would never end.
package enum FileBytesLimit {
    package static let maxFileBytes = 1 << 31
}

/// Why a file could not be read, in words that follow "cannot read …".
package enum FileReadError: Error {
    case unreadable
    case notRegularFile
    case isDirectory
    case tooLarge(limit: Int)

    package var reason: String {
        switch self {
        case .unreadable: return "it cannot be opened or read"
        case .notRegularFile: return "it is not a regular file (a device, a FIFO or a socket never ends)"
        case .isDirectory: return "it is a directory, not a file"
        case .tooLarge(let limit): return "it is larger than \(limit) bytes"
        }
    }
}

/// Reads a whole regular file of at most `limit` bytes straight into one `[UInt8]` (no `Data` to
/// copy from: for a 60 MB scenario that halves the memory touched, and the time spent clearing
/// fresh pages).
///
/// The file is opened without blocking (`O_NONBLOCK`), so a FIFO with no writer or a device that
/// waits is refused as `notRegularFile` instead of hanging the process in `open`.
/// `recordsInput`: the file is one of the command's inputs (`InputFiles`), which no output may
/// replace; false for the harness's own files (child output, /proc).
package func readFileBytes(_ path: String, limit: Int = FileBytesLimit.maxFileBytes, recordsInput: Bool = true) throws(FileReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw errno == EISDIR ? .isDirectory : .unreadable }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable }
    if (status.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
    // A regular file never blocks; clear the flag so that reads behave as usual.
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    if recordsInput { InputFiles.record(status, path: path) }
    let size = Int(status.st_size)
    guard size <= limit else { throw .tooLarge(limit: limit) }
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
        var total = 0
        while total < size {
            let count = read(descriptor, buffer.baseAddress! + total, size - total)
            if count < 0, errno == EINTR { continue }
            if count < 0 { failed = true }
            if count <= 0 { break }
            total += count
        }
        initialized = total
    }
    if failed { throw .unreadable }
    // A file that grew since fstat (or a /proc file that reports size 0): read the rest, up to the limit.
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count < 0 { throw .unreadable }
        if count == 0 { break }
        guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
        bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
}
