/// One timed sample. All values are per operation: a batched sample divides by `batch`.
public struct Sample: Sendable, Equatable {
    /// Elapsed wall time (CLOCK_MONOTONIC) of the timed region divided by `batch`, in nanoseconds.
    public var timeNanoseconds: Double
    /// jemalloc usable bytes allocated by this thread in the timed region, divided by `batch`
    /// (NaN when jemalloc counters are unavailable).
    public var allocatedBytes: Double
    /// Allocation requests (all threads) during the sample, divided by `batch` (NaN when unavailable
    /// or when the policy does not count allocations).
    public var allocations: Double
    /// How many times the operation ran in this sample.
    public var batch: Int

    public init(timeNanoseconds: Double, allocatedBytes: Double, allocations: Double, batch: Int) {
        self.timeNanoseconds = timeNanoseconds
        self.allocatedBytes = allocatedBytes
        self.allocations = allocations
        self.batch = batch
    }

    public var hasAllocatedBytes: Bool { !allocatedBytes.isNaN }
    public var hasAllocations: Bool { !allocations.isNaN }
}
