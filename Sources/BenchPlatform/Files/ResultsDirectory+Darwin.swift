#if canImport(Darwin)
/// The atomic exchange of two directories on Apple platforms: `renamex_np` with `RENAME_SWAP`
/// (macOS 10.12, iOS 10; APFS and HFS+ support it).
extension ResultsDirectory {
    package static var canExchange: Bool { true }

    /// Atomically swaps two directories.
    static func exchange(_ a: String, _ b: String) -> Bool {
        renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
    }
}
#endif
