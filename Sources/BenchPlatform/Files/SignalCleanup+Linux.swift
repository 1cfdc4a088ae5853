#if os(Linux)
/// The tree walk of `SignalCleanup`'s handler on Linux: `getdents64`, `openat` and `unlinkat` on
/// buffers allocated before any signal, so the walk is async-signal-safe.
extension SignalCleanup {
    /// How deep a registered tree is walked (a tool's TMPDIR holds one level of directories).
    static let maxTreeDepth = 4
    static let treeBufferSize = 16_384
    nonisolated(unsafe) static let treeBuffers: UnsafeMutableRawPointer =
        UnsafeMutableRawPointer.allocate(byteCount: treeBufferSize * (maxTreeDepth + 1), alignment: 16)
    typealias GetDents = @convention(c) (Int32, UnsafeMutableRawPointer, Int) -> Int
    /// glibc's `getdents64` (2.30), looked up when the handlers are installed.
    nonisolated(unsafe) static var getdents: GetDents?

    /// Whether the handler removes registered trees (glibc has `getdents64`).
    package static var canRemoveTrees: Bool { dlsym(dlopen(nil, RTLD_NOW), "getdents64") != nil }

    /// Looks `getdents64` up, when the handlers are installed (under `lock`, never in the handler).
    static func prepareTreeRemoval() {
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "getdents64") { getdents = unsafeBitCast(symbol, to: GetDents.self) }
    }

    /// Removes `name` (relative to `directory`, a descriptor or AT_FDCWD) and, when it is a
    /// directory, everything in it down to `maxTreeDepth`. Async-signal-safe: system calls on
    /// preallocated memory only.
    static func removeTree(in directory: Int32, _ name: UnsafePointer<CChar>, depth: Int) {
        guard let getdents, depth <= maxTreeDepth else { return }
        let descriptor = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            unlinkat(directory, name, 0)
            return
        }
        let buffer = treeBuffers + depth * treeBufferSize
        // Entries removed while reading may shift the rest: read again from the start until a
        // pass removes nothing (bounded, in case something keeps refilling the directory).
        for _ in 0..<64 {
            var removed = false
            lseek(descriptor, 0, SEEK_SET)
            while true {
                let count = getdents(descriptor, buffer, treeBufferSize)
                if count <= 0 { break }
                var offset = 0
                while offset < count {
                    // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
                    let record = buffer + offset
                    let length = Int(record.load(fromByteOffset: 16, as: UInt16.self))
                    let type = record.load(fromByteOffset: 18, as: UInt8.self)
                    let entry = (record + 19).assumingMemoryBound(to: CChar.self)
                    let isDot = entry[0] == 0x2E && (entry[1] == 0 || (entry[1] == 0x2E && entry[2] == 0))
                    if !isDot {
                        if type == 4 /* DT_DIR */ { removeTree(in: descriptor, entry, depth: depth + 1) } else { unlinkat(descriptor, entry, 0) }
                        removed = true
                    }
                    if length == 0 { break }
                    offset += length
                }
            }
            if !removed { break }
        }
        close(descriptor)
        unlinkat(directory, name, AT_REMOVEDIR)
    }
}
#endif
