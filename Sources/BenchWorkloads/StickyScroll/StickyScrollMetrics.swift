import BenchResults

extension StickyScrollWorkload {
    /// What each scroll step returned (declared with the query workload's, `QueryMetrics.swift`).
    package static let metrics: [Metric] = [.elements]
}
