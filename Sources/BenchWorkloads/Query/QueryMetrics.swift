import BenchResults

/// The metrics the rect-query workloads produce beyond the harness-wide ones (`Metric.harnessWide`).
extension Metric {
    /// How inexact a heuristic index is; 1 for an exact mode.
    public static let recall = Metric("recall", unit: "fraction", .higherIsBetter, .exact, highest: 1,
                                      about: "fraction of the exact answer a query returned (1 for exact modes)")
    /// What a query returned: the work itself, never judged.
    public static let elements = Metric("elements", unit: "count", .neither, .exact,
                                        about: "elements a query returned")
}

extension QueryWorkload {
    public static let metrics: [Metric] = [.recall, .elements]
}
