import BenchResults

/// All values of one metric for one scenario × mode × items × operation in one repetition: what
/// becomes rows of samples.csv (one per value). The series of every repetition together make one
/// row of summary.csv. A group-level metric (`peak_rss`) has an empty mode and operation.
package struct MetricSeries: Sendable, Codable {
    package var scenario: String
    package var workload: String
    package var mode: String
    package var items: Int
    package var operation: String
    package var metric: Metric
    /// Which independent repetition (process or round) the values come from, from 1.
    package var repetition = 1
    /// nil where the metric cannot be measured on this machine (`unsupported`).
    package var values: [Double]?

    /// What identifies the summary row this series contributes to (everything but the repetition).
    package var key: SeriesKey {
        SeriesKey(scenario: scenario, workload: workload, mode: mode, items: items, operation: operation, metric: metric)
    }
}

/// One summary.csv row's identity: scenario × mode × items × operation × metric.
package struct SeriesKey: Hashable, Sendable {
    package var scenario: String
    package var workload: String
    package var mode: String
    package var items: Int
    package var operation: String
    package var metric: Metric
}
