import BenchResults

extension EditWorkload {
    /// Only the harness-wide metrics.
    package static let metrics: [Metric] = []
}
