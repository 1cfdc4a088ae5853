import BenchResults

/// The metrics of cell reuse along a scroll trace (`reuse-scroll`, and the generic scroll
/// workload with a reuse pool).
extension Metric {
    package static let cellsCreated = Metric("cells_created", unit: "count", .lowerIsBetter, .exact,
                                            about: "cells created per operation")
    /// The trace's own count: the work, never judged.
    package static let dequeues = Metric("dequeues", unit: "count", .neither, .exact,
                                        about: "cells dequeued over the scroll trace (one per appearance)")
    package static let peakPool = Metric("peak_pool", unit: "count", .lowerIsBetter, .exact,
                                        about: "most cells waiting in the reuse pool at once")
    package static let mostVisible = Metric("most_visible", unit: "count", .neither, .exact,
                                           about: "most cells visible at once along the trace")
    package static let cellsNeeded = Metric("cells_needed", unit: "count", .neither, .exact,
                                           about: "cells the trace needs at the least (the most visible at once, per identifier)")

    /// Everything a reuse pool reports along a trace.
    static let reuseMetrics: [Metric] = [.cellsCreated, .dequeues, .peakPool, .mostVisible, .cellsNeeded]
}

extension ReuseScrollWorkload {
    package static let metrics: [Metric] = Metric.reuseMetrics
}
