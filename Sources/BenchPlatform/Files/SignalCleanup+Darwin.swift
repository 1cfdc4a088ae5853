#if canImport(Darwin)
/// The tree walk of `SignalCleanup`'s handler on Apple platforms: there is none. Darwin offers no
/// async-signal-safe call that lists a directory (`readdir` and `fts` allocate, which a handler must
/// not), so an interrupted run removes a registered tree only when it is a file or already empty;
/// `canRemoveTrees` is false and run.json lists `interrupt_tree_removal` as not measured.
extension SignalCleanup {
    package static var canRemoveTrees: Bool { false }

    static func prepareTreeRemoval() {}

    /// Removes `name` when it is a file or an empty directory (async-signal-safe).
    static func removeTree(in directory: Int32, _ name: UnsafePointer<CChar>, depth: Int) {
        if unlinkat(directory, name, 0) != 0 { unlinkat(directory, name, AT_REMOVEDIR) }
    }
}
#endif
