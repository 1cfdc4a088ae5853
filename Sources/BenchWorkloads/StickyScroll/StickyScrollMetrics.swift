import BenchResults

extension StickyScrollWorkload {
    /// What each scroll step returned (declared with the query workload's, `QueryMetrics.swift`).
    public static let metrics: [Metric] = [.elements]
}
