package struct AtomicFileError: Error, Equatable, CustomStringConvertible {
    package var path: String
    package var operation: String
    package var code: Int32
    package var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// Writes output files so that readers see either the old complete file or the new complete file,
/// by the rules of `OutputTarget` (symbolic links followed; devices and FIFOs written through,
/// never replaced; directories, sockets, block devices and the command's own inputs refused).
///
/// A regular (or missing) file gets its bytes through a temporary file in the same directory
/// (`.<name>.tmp-<pid>-<random>`, on the same file system, its name shortened to fit the 255-byte
/// limit), fsync'ed and renamed over the destination with rename(2). Several files written
/// together (`compare --out` and its `causes.csv`) appear together or not at all: every temporary
/// file is written and every device or FIFO opened before the first rename, and the renames run
/// with SIGINT, SIGTERM and SIGHUP held back. On failure the temporary files are removed and the
/// destinations are untouched. Temporary files that a killed process left behind (its pid is gone)
/// are removed by the next write beside them.
package enum AtomicFile {
    /// Writes `text` to `path`, the value of `option`; errors are `OutputError`s naming both.
    package static func write(_ text: String, to path: String, option: String) throws(OutputError) {
        try write([(path, Array(text.utf8))], option: option)
    }

    /// Writes several files as one output: all of them, or none.
    package static func write(_ files: [(path: String, text: String)], option: String) throws(OutputError) {
        try write(files.map { ($0.path, Array($0.text.utf8)) }, option: option)
    }

    package static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    package static func write(_ bytes: [UInt8], to path: String) throws {
        do { try write([(path, bytes)], option: "") } catch {
            throw AtomicFileError(path: path, operation: "write", code: error.code ?? EIO)
        }
    }

    /// One destination being written.
    private struct Pending {
        var target: OutputTarget
        var bytes: [UInt8]
        /// The temporary file of a regular destination.
        var temporary: String?
        /// The open descriptor of a device or FIFO destination.
        var descriptor: Int32 = -1
    }

    static func write(_ files: [(path: String, bytes: [UInt8])], option: String) throws(OutputError) {
        var pending: [Pending] = []
        func fail(_ error: OutputError) -> OutputError {
            for entry in pending {
                if let temporary = entry.temporary {
                    unlink(temporary)
                    SignalCleanup.unregister([temporary])
                }
                if entry.descriptor >= 0 { close(entry.descriptor) }
            }
            return error
        }
        for (path, bytes) in files {
            let target: OutputTarget
            do {
                target = try OutputTarget.resolve(path)
                try target.checkWritable()
            } catch {
                throw fail(OutputError(option: option, path: path, reason: error.reason, code: error.code))
            }
            if pending.contains(where: { $0.target.path == target.path }) {
                throw fail(OutputError(option: option, path: path, reason: "is written twice by this command"))
            }
            var entry = Pending(target: target, bytes: bytes)
            pending.append(entry)
            switch target.kind {
            case .characterDevice, .fifo:
                // O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of waiting.
                let descriptor = open(target.path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    let code = errno
                    throw fail(code == ENXIO
                        ? OutputError(option: option, path: path, reason: "is a FIFO with no reader; start its reader first, or give a file path")
                        : OutputError(option: option, path: path, doing: "cannot write the file", errno: code))
                }
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
                entry.descriptor = descriptor
            default:
                do { entry.temporary = try stage(bytes, for: target) } catch let code {
                    throw fail(OutputError(option: option, path: path, doing: "cannot write the file", errno: code.value))
                }
            }
            pending[pending.count - 1] = entry
        }
        // Devices and FIFOs first: they are the writes that can still fail (/dev/full).
        for index in pending.indices where pending[index].descriptor >= 0 {
            let entry = pending[index]
            if let failure = FileDescriptorWriting.writeAll(entry.bytes, to: entry.descriptor) {
                throw fail(OutputError(option: option, path: entry.target.given, doing: "cannot write the file", errno: failure))
            }
            let closed = close(entry.descriptor)
            pending[index].descriptor = -1
            if closed != 0 && errno != EINTR {
                throw fail(OutputError(option: option, path: entry.target.given, doing: "cannot write the file", errno: errno))
            }
        }
        let renamed: OutputError? = SignalCleanup.deferringSignals {
            for index in pending.indices {
                guard let temporary = pending[index].temporary else { continue }
                if rename(temporary, pending[index].target.path) != 0 {
                    return OutputError(option: option, path: pending[index].target.given,
                                       doing: "cannot replace the file", errno: errno)
                }
                SignalCleanup.unregister([temporary])
                pending[index].temporary = nil
            }
            return nil
        }
        if let renamed { throw fail(renamed) }
        // Make the renames themselves durable (best effort).
        for directory in Set(pending.map { OutputTarget.parent(of: $0.target.path) }) {
            FileDescriptorWriting.syncDirectory(directory)
        }
    }

    struct Errno: Error { var value: Int32 }

    /// Writes `bytes` to a new temporary file beside `target` and returns its path.
    private static func stage(_ bytes: [UInt8], for target: OutputTarget) throws(Errno) -> String {
        let (directory, name) = ResultsDirectory.split(target.path)
        removeStaleTemporaries(in: directory)
        let temporary = (directory == "." ? "" : (directory == "/" ? "/" : directory + "/"))
            + OutputTarget.hiddenName(for: name, suffix: ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        // Registered before it exists, so an interrupt between open and registration leaves nothing.
        SignalCleanup.register([temporary])
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            SignalCleanup.unregister([temporary])
            throw Errno(value: code)
        }
        var failure = FileDescriptorWriting.writeAndSync(bytes, to: descriptor)?.code
        if close(descriptor) != 0 && failure == nil { failure = errno }
        if let failure {
            unlink(temporary)
            SignalCleanup.unregister([temporary])
            throw Errno(value: failure)
        }
        return temporary
    }

    /// Removes `.<name>.tmp-<pid>-<number>` files of processes that no longer exist (what a
    /// SIGKILL or a crash left).
    static func removeStaleTemporaries(in directory: String) {
        for entry in ResultsDirectory.entries(of: directory) where entry.hasPrefix(".") {
            guard let marker = entry.range(of: ".tmp-", options: .backwards) else { continue }
            let rest = entry[marker.upperBound...]
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                  !rest[rest.index(after: dash)...].isEmpty, rest[rest.index(after: dash)...].allSatisfy(\.isNumber)
            else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
            unlink((directory == "/" ? "/" : directory + "/") + entry)
        }
    }
}
