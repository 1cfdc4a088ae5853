#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory for the node arrays of `CountedHeightTree`: large arrays are mapped on their own, 2 MiB
/// aligned, and marked for transparent huge pages where the kernel allows it (Linux, THP mode
/// `always` or `madvise`), so that random middle positions of a million-row tree cost no TLB miss;
/// small arrays, and every array elsewhere, come from the allocator. `ItemColumn` takes its
/// storage from here too.
enum NodeMemory {
    /// The size of one huge page (x86-64 and arm64 Linux with 4 KiB base pages).
    static let hugePageBytes = 2 << 20

    /// Whether `/sys/kernel/mm/transparent_hugepage/enabled` selects `[always]` or `[madvise]`
    /// (read once; false where the file does not exist).
    static let hugePagesAllowed: Bool = {
        #if os(Linux)
        guard let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") else { return false }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
        let mode = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return mode.contains("[always]") || mode.contains("[madvise]")
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
            let length = roundedToHugePages(bytes)
            // Map one huge page more than needed, then unmap the slack on both sides of the
            // 2 MiB-aligned part, so that every page of the array can be a huge page.
            guard let mapped = mmap(nil, length + hugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                  mapped != MAP_FAILED else { fatalError("out of memory: cannot map \(length) bytes") }
            let address = UInt(bitPattern: mapped)
            let aligned = (address + UInt(hugePageBytes) - 1) & ~UInt(hugePageBytes - 1)
            let head = Int(aligned - address), tail = hugePageBytes - head
            if head > 0 { munmap(mapped, head) }
            let start = UnsafeMutableRawPointer(bitPattern: aligned)!
            if tail > 0 { munmap(start + length, tail) }
            // Only a hint: if the kernel declines, the array lives on base pages.
            _ = madvise(start, length, MADV_HUGEPAGE)
            return start.bindMemory(to: Element.self, capacity: Swift.max(1, count))
        }
        #endif
        return UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(1, count))
    }

    /// Releases memory from `allocate(_:count:)` (the elements must be trivial or deinitialised).
    static func deallocate<Element>(_ pointer: UnsafeMutablePointer<Element>, count: Int) {
        let bytes = Swift.max(1, count) * MemoryLayout<Element>.stride
        #if os(Linux)
        if usesHugePages(bytes: bytes) {
            munmap(UnsafeMutableRawPointer(pointer), roundedToHugePages(bytes))
            return
        }
        #endif
        pointer.deallocate()
    }

    private static func roundedToHugePages(_ bytes: Int) -> Int {
        (bytes + hugePageBytes - 1) / hugePageBytes * hugePageBytes
    }
}
