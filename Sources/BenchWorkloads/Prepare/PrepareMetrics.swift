import BenchResults

extension PrepareWorkload {
    /// Only the harness-wide metrics.
    public static let metrics: [Metric] = []
}
