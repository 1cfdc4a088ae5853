#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `NodeMemory`'s huge pages on Linux: the transparent huge page setting, and 2 MiB-aligned
/// anonymous mappings marked `MADV_HUGEPAGE`.
extension NodeMemory {
    /// Whether `/sys/kernel/mm/transparent_hugepage/enabled` selects `[always]` or `[madvise]`.
    static func transparentHugePagesAllowed() -> Bool {
        guard let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") else { return false }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
        let mode = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return mode.contains("[always]") || mode.contains("[madvise]")
    }

    /// `length` bytes (a multiple of `hugePageBytes`) mapped at a 2 MiB boundary and marked for
    /// huge pages.
    static func mapHugePages(bytes length: Int) -> UnsafeMutableRawPointer {
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
        return start
    }

    static func unmapHugePages(_ start: UnsafeMutableRawPointer, bytes length: Int) {
        munmap(start, length)
    }
}
#endif
