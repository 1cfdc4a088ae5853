#if os(Linux)
/// The atomic exchange of two directories on Linux: `renameat2` with `RENAME_EXCHANGE` (kernel
/// 3.15, glibc 2.28), looked up at run time so that an older C library fails the exchange, not
/// the link.
extension ResultsDirectory {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    static var renameAt2: RenameAt2? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }

    /// Whether the C library has the exchange (a file system may still refuse it).
    package static var canExchange: Bool { renameAt2 != nil }

    /// Atomically swaps two directories.
    static func exchange(_ a: String, _ b: String) -> Bool {
        guard let renameat2 = renameAt2 else {
            errno = ENOSYS
            return false
        }
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
    }
}
#endif
