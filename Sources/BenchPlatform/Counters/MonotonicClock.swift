/// Wall-clock time for timing samples: `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds.
///
/// CLOCK_MONOTONIC is not affected by settimeofday or NTP steps (NTP may slew its rate slightly).
/// A read costs tens of nanoseconds on a virtual machine (`readCost()` measures it), which is why
/// very short operations are timed in batches by `Sampler`.
package enum MonotonicClock {
    /// The clock's name as recorded in run.json.
    package static let name = "CLOCK_MONOTONIC"

    /// Nanoseconds since an arbitrary fixed point (boot on Linux). Only differences are meaningful.
    @inlinable @inline(__always)
    package static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The cost of one `now()` in nanoseconds: the median over `batches` batches of `readsPerBatch`
    /// back-to-back reads (each batch's elapsed time divided by its read count).
    package static func readCost(batches: Int = 51, readsPerBatch: Int = 2_000) -> Double {
        precondition(batches > 0 && readsPerBatch > 0)
        var perRead: [Double] = []
        perRead.reserveCapacity(batches)
        var sink: UInt64 = 0
        for _ in 0..<batches {
            let start = now()
            for _ in 0..<readsPerBatch { sink &+= now() }
            let end = now()
            perRead.append(Double(end &- start) / Double(readsPerBatch))
        }
        blackhole(sink)
        perRead.sort()
        return perRead[perRead.count / 2]
    }
}
