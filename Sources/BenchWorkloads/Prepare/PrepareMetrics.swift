import BenchResults

extension PrepareWorkload {
    /// Only the harness-wide metrics.
    package static let metrics: [Metric] = []
}
