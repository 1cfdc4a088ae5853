import BenchResults

/// The metrics the rect-query workloads produce beyond the harness-wide ones (`Metric.harnessWide`).
extension Metric {
    /// How inexact a heuristic index is; 1 for an exact mode.
    package static let recall = Metric("recall", unit: "fraction", .higherIsBetter, .exact, highest: 1,
                                      about: "fraction of the exact answer a query returned (1 for exact modes)")
    /// What a query returned: the work itself, never judged.
    package static let elements = Metric("elements", unit: "count", .neither, .exact,
                                        about: "elements a query returned")
}

extension QueryWorkload {
    package static let metrics: [Metric] = [.recall, .elements]
}
