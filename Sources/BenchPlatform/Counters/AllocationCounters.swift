import CJemalloc

/// Allocation statistics from jemalloc, which the harness links as the process allocator.
///
/// - Bytes: per thread, from `ThreadAllocationCounter` (one load per read).
/// - Counts: jemalloc keeps no per-thread allocation count, so `allocationCount()` reads the global
///   arena statistics `stats.arenas.4096.small.nrequests + stats.arenas.4096.large.nrequests`
///   (4096 = MALLCTL_ARENAS_ALL) after `thread.tcache.flush` (merges this thread's cache statistics)
///   and an `epoch` write (refreshes the snapshot). Microseconds per read: read it per batch, never per
///   operation. Counts include other threads' allocations.
///
///   `nrequests` rather than `nmalloc`: `nmalloc` counts objects moved into the thread cache in fills
///   (measured here: 20 × malloc(48) → nmalloc +110, nrequests +20), not requests.
///   The flush empties this thread's cache, so the first allocations of each size class after a read
///   refill from the arena, which slows the next batch noticeably. The
///   sampler therefore runs one untimed operation after each read before timing a batch.
///   The count is exact up to jemalloc's own occasional internal allocation (0 or 1 per read).
///
/// Routing (verified on Debian 12, Swift 6.3.1): Swift's allocations (swift_slowAlloc → malloc /
/// posix_memalign in libswiftCore) reach jemalloc because the executable has `libjemalloc.so.2` as a
/// DT_NEEDED dependency listed before libswiftCore and libc, and ELF symbol lookup searches the
/// executable's dependencies in that order, so jemalloc's `malloc` interposes glibc's everywhere.
/// The module map's `link "jemalloc"` is enough for that here: a test binary built with `-ljemalloc`
/// and no reference to any jemalloc symbol still had the dependency and counted a Swift
/// `[Double](count: 1000)` (9,856 bytes). Under a linker that defaults to `--as-needed` (Ubuntu's) an
/// unreferenced library would be dropped; this file references `mallctl`, which keeps it either way.
/// No Package.swift change is needed. `isRoutingSwiftAllocations()` checks it at run time.
package enum AllocationCounters {
    /// Whether jemalloc answers `mallctl` and has statistics compiled in.
    package static let isAvailable: Bool = {
        var enabled = false
        var size = MemoryLayout<Bool>.size
        return mallctl("config.stats", &enabled, &size, nil, 0) == 0 && enabled
    }()

    /// jemalloc's version string (e.g. "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c"), or nil.
    package static let version: String? = {
        var pointer: UnsafePointer<CChar>? = nil
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
        return String(cString: pointer)
    }()

    /// The allocator recorded in run.json.
    package static var allocatorName: String { isAvailable ? "jemalloc" : "system" }

    /// Hands the pages of freed memory back to the kernel now (this thread's cache flushed, then
    /// every arena purged) instead of after jemalloc's decay time. Returns false without jemalloc.
    ///
    /// Why: `peak_rss` of a scenario × items group starts from the resident size when the group
    /// begins. Without a purge that includes the dirty pages the previous group freed, and how many
    /// of them jemalloc has already returned depends on how many seconds have passed, so the same
    /// group read 91 MB in one process and 101 MB in another (a whole-suite A/A comparison called
    /// that a regression).
    @discardableResult
    package static func releaseFreedMemory() -> Bool {
        guard isAvailable else { return false }
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        return mallctl("arena.4096.purge", nil, nil, nil, 0) == 0
    }

    /// Merges this thread's cache statistics into its arena's (`thread.tcache.flush`): a worker
    /// thread calls it when its share of an operation ends, so that `allocationCount()` on the
    /// calling thread sees the worker's requests at once rather than when its cache next flushes.
    package static func settleThreadCache() {
        guard isAvailable else { return }
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
    }

    /// Total allocation requests (small + large) served by all arenas so far, after flushing this
    /// thread's cache statistics (microseconds). `nil` when jemalloc statistics are unavailable.
    package static func allocationCount() -> UInt64? {
        guard isAvailable else { return nil }
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        var oldEpoch: UInt64 = 0
        var newEpoch: UInt64 = 1
        var epochSize = MemoryLayout<UInt64>.size
        guard mallctl("epoch", &oldEpoch, &epochSize, &newEpoch, MemoryLayout<UInt64>.size) == 0 else { return nil }
        guard let small = readUInt64("stats.arenas.4096.small.nrequests"),
              let large = readUInt64("stats.arenas.4096.large.nrequests")
        else { return nil }
        return small &+ large
    }

    /// Whether an allocation made by Swift code (a 1000-element `[Double]`) shows up in this thread's
    /// jemalloc byte counter, i.e. whether Swift's runtime really allocates through jemalloc.
    package static func isRoutingSwiftAllocations() -> Bool {
        guard let counter = ThreadAllocationCounter() else { return false }
        let before = counter.allocatedBytes()
        let array = [Double](repeating: 1, count: 1000)
        let after = counter.allocatedBytes()
        blackhole(array)
        return after &- before >= 8000
    }

    private static func readUInt64(_ name: StaticString) -> UInt64? {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : nil
    }
}

/// `lb_mallctl` with a static name. Passing a Swift `String` to a `const char *` parameter can
/// allocate (small strings are copied into a heap buffer), which would count itself; a `StaticString`
/// literal is a null-terminated constant in the binary.
@inline(__always)
func mallctl(
    _ name: StaticString, _ oldp: UnsafeMutableRawPointer?, _ oldlenp: UnsafeMutablePointer<Int>?,
    _ newp: UnsafeMutableRawPointer?, _ newlen: Int
) -> Int32 {
    precondition(name.hasPointerRepresentation)
    let cName = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    return lb_mallctl(cName, oldp, oldlenp, newp, newlen)
}
