/// What the harness itself costs, measured on this machine (recorded in run.json).
package struct HarnessOverhead: Sendable, Equatable, Codable {
    /// One CLOCK_MONOTONIC read (median of batches), ns.
    package var clockReadNanoseconds: Double
    /// One jemalloc per-thread byte-counter read, ns (0 when unavailable).
    package var byteCounterReadNanoseconds: Double
    /// One global allocation-count read (tcache flush + epoch + two mallctl reads), ns.
    package var allocationCountReadNanoseconds: Double
    /// Median time per operation reported for an empty operation (a call to a non-inlined function
    /// returning 0): the bias that the loop,
    /// the closure call and the clock/counter reads inside the timed region add to every per-op time.
    package var emptyOperationNanoseconds: Double
    /// The batch size chosen for the empty operation.
    package var emptyOperationBatch: Int
    /// Wall time per sample spent outside the timed region (counter reads, bookkeeping), ns.
    package var untimedPerSampleNanoseconds: Double
    /// Everything the harness adds per operation for the empty operation, timed and untimed,
    /// amortised over its batch: `emptyOperationNanoseconds + untimedPerSampleNanoseconds / batch`.
    package var amortisedPerOperationNanoseconds: Double

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
