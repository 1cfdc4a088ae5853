/// The durable-write steps `AtomicFile` and `ResultsDirectory` share: write every byte to an open
/// descriptor (retrying short writes and EINTR) and fsync it; fsync a directory so that a rename in
/// it is durable.
package enum FileDescriptorWriting {
    /// Writes all of `bytes` to `descriptor`, then fsyncs it. Returns nil, or the failing step
    /// (`"write"` or `"fsync"`) and its errno.
    static func writeAndSync(_ bytes: [UInt8], to descriptor: Int32) -> (step: String, code: Int32)? {
        var failure: (step: String, code: Int32)? = writeAll(bytes, to: descriptor).map { ("write", $0) }
        if failure == nil && fsync(descriptor) != 0 { failure = ("fsync", errno) }
        return failure
    }

    /// Writes all of `bytes` to `descriptor` (a device or FIFO: no fsync). Returns nil or the errno.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var failure: Int32? = nil
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        return failure
    }

    /// Makes renames in `directory` durable (best effort).
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}

/// write(2) under a name that does not clash with the `write` methods of the types that use it.
@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
