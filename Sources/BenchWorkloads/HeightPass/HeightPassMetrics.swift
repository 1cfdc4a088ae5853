import BenchResults

/// The metrics of a height pass over a feed of self-sizing cells.
extension Metric {
    package static let measurements = Metric("measurements", unit: "count", .lowerIsBetter, .exact,
                                            about: "template-cell measurements per operation")
    /// How inexact a heuristic height cache is (0 for an exact mode).
    package static let wrongHeights = Metric("wrong_heights", unit: "count", .lowerIsBetter, .exact,
                                            about: "rows whose cached height differs from a fresh measurement")
    /// An operation timed at several thread counts (`TimedOperation.speedupBaseline`), timed like time.
    package static let speedup = Metric(
        "speedup", unit: "ratio", .higherIsBetter, .statistical,
        about: "an operation timed at several thread counts (`precache-mt`): its median time at the first count over this sample's time")
}

extension HeightPassWorkload {
    package static let metrics: [Metric] = [.measurements, .cellsCreated, .wrongHeights, .speedup] + Metric.instructionSplit
}
