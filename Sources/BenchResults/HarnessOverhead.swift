/// What the harness itself costs, measured on this machine (recorded in run.json).
public struct HarnessOverhead: Sendable, Equatable, Codable {
    /// One CLOCK_MONOTONIC read (median of batches), ns.
    public var clockReadNanoseconds: Double
    /// One jemalloc per-thread byte-counter read, ns (0 when unavailable).
    public var byteCounterReadNanoseconds: Double
    /// One global allocation-count read (tcache flush + epoch + two mallctl reads), ns.
    public var allocationCountReadNanoseconds: Double
    /// Median time per operation reported for an empty operation (a call to a non-inlined function
    /// returning 0): the bias that the loop,
    /// the closure call and the clock/counter reads inside the timed region add to every per-op time.
    public var emptyOperationNanoseconds: Double
    /// The batch size chosen for the empty operation.
    public var emptyOperationBatch: Int
    /// Wall time per sample spent outside the timed region (counter reads, bookkeeping), ns.
    public var untimedPerSampleNanoseconds: Double
    /// Everything the harness adds per operation for the empty operation, timed and untimed,
    /// amortised over its batch: `emptyOperationNanoseconds + untimedPerSampleNanoseconds / batch`.
    public var amortisedPerOperationNanoseconds: Double

    package init(
        clockReadNanoseconds: Double, byteCounterReadNanoseconds: Double, allocationCountReadNanoseconds: Double,
        emptyOperationNanoseconds: Double, emptyOperationBatch: Int, untimedPerSampleNanoseconds: Double,
        amortisedPerOperationNanoseconds: Double
    ) {
        self.clockReadNanoseconds = clockReadNanoseconds
        self.byteCounterReadNanoseconds = byteCounterReadNanoseconds
        self.allocationCountReadNanoseconds = allocationCountReadNanoseconds
        self.emptyOperationNanoseconds = emptyOperationNanoseconds
        self.emptyOperationBatch = emptyOperationBatch
        self.untimedPerSampleNanoseconds = untimedPerSampleNanoseconds
        self.amortisedPerOperationNanoseconds = amortisedPerOperationNanoseconds
    }
}
