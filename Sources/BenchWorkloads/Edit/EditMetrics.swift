import BenchResults

extension EditWorkload {
    /// Only the harness-wide metrics.
    public static let metrics: [Metric] = []
}
