/// Memory for the node arrays of `CountedHeightTree`: large arrays are mapped on their own, 2 MiB
/// aligned, and marked for transparent huge pages where the kernel allows it (Linux, THP mode
/// `always` or `madvise`), so that random middle positions of a million-row tree cost no TLB miss;
/// small arrays, and every array elsewhere, come from the allocator. `ItemColumn` takes its
/// storage from here too. The system calls are in `NodeMemory+Linux.swift`, the one file of the
/// engine that imports the C library (the engine depends on nothing, so not on BenchPlatform).
enum NodeMemory {
    /// The size of one huge page (x86-64 and arm64 Linux with 4 KiB base pages).
    static let hugePageBytes = 2 << 20

    /// Whether `/sys/kernel/mm/transparent_hugepage/enabled` selects `[always]` or `[madvise]`
    /// (read once; false where the file does not exist).
    static let hugePagesAllowed: Bool = {
        #if os(Linux)
        return transparentHugePagesAllowed()
        #else
        return false
        #endif
    }()

    /// Whether an array of `bytes` bytes is mapped on huge pages (else it comes from the allocator).
    static func usesHugePages(bytes: Int) -> Bool {
        hugePagesAllowed && bytes >= hugePageBytes
    }

    /// Uninitialised memory for `count` elements; release it with `deallocate(_:count:)` and the same count.
    static func allocate<Element>(_: Element.Type, count: Int) -> UnsafeMutablePointer<Element> {
        let bytes = Swift.max(1, count) * MemoryLayout<Element>.stride
        #if os(Linux)
        if usesHugePages(bytes: bytes) {
            return mapHugePages(bytes: roundedToHugePages(bytes)).bindMemory(to: Element.self, capacity: Swift.max(1, count))
        }
        #endif
        return UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(1, count))
    }

    /// Releases memory from `allocate(_:count:)` (the elements must be trivial or deinitialised).
    static func deallocate<Element>(_ pointer: UnsafeMutablePointer<Element>, count: Int) {
        let bytes = Swift.max(1, count) * MemoryLayout<Element>.stride
        #if os(Linux)
        if usesHugePages(bytes: bytes) {
            unmapHugePages(UnsafeMutableRawPointer(pointer), bytes: roundedToHugePages(bytes))
            return
        }
        #endif
        pointer.deallocate()
    }

    static func roundedToHugePages(_ bytes: Int) -> Int {
        (bytes + hugePageBytes - 1) / hugePageBytes * hugePageBytes
    }
}
