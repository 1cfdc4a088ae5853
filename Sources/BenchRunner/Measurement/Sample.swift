/// One timed sample. All values are per operation: a batched sample divides by `batch`.
package struct Sample: Sendable, Equatable {
    /// Elapsed wall time (CLOCK_MONOTONIC) of the timed region divided by `batch`, in nanoseconds.
    package var timeNanoseconds: Double
    /// jemalloc usable bytes allocated by this thread in the timed region, divided by `batch`
    /// (NaN when jemalloc counters are unavailable).
    package var allocatedBytes: Double
    /// Allocation requests (all threads) during the sample, divided by `batch` (NaN when unavailable
    /// or when the policy does not count allocations).
    package var allocations: Double
    /// How many times the operation ran in this sample.
    package var batch: Int
}
