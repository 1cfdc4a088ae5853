import CJemalloc

/// jemalloc's per-thread cumulative byte counters, read through the pointers that
/// `mallctl("thread.allocatedp")` / `mallctl("thread.deallocatedp")` return.
///
/// A read is a single volatile load. The pointers belong to the thread that created the
/// counter, so the type is deliberately not `Sendable`: create it on the thread that runs the measured
/// code. jemalloc counts usable (size-class) bytes, not requested bytes: `malloc(100)` counts 112.
public struct ThreadAllocationCounter {
    @usableFromInline let allocated: UnsafePointer<UInt64>
    @usableFromInline let deallocated: UnsafePointer<UInt64>

    /// `nil` when jemalloc's per-thread counters are not available (jemalloc not the allocator, or
    /// built without stats).
    package init?() {
        guard let allocated = Self.pointer("thread.allocatedp"),
              let deallocated = Self.pointer("thread.deallocatedp")
        else { return nil }
        self.allocated = allocated
        self.deallocated = deallocated
    }

    /// Bytes this thread has allocated since it started (monotonic).
    @inlinable @inline(__always)
    package func allocatedBytes() -> UInt64 { lb_read_counter(allocated) }

    /// Bytes this thread has freed since it started (monotonic).
    @inlinable @inline(__always)
    package func deallocatedBytes() -> UInt64 { lb_read_counter(deallocated) }

    private static func pointer(_ name: StaticString) -> UnsafePointer<UInt64>? {
        var pointer: UnsafeMutablePointer<UInt64>? = nil
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        let status = mallctl(name, &pointer, &size, nil, 0)
        guard status == 0, let pointer else { return nil }
        return UnsafePointer(pointer)
    }
}
