/// The CSV contract of docs/csv.md. Raise `version` on any incompatible change.
///
/// - 1: `peak_rss` copied under every mode of a scenario × items group (with the mode's first
///   operation), although it is one value of the process that ran all the modes.
/// - 2: `peak_rss` is one group-level row per scenario × items × repetition, with an empty `mode`
///   and `operation`. Columns and every other metric are as in 1.
package enum CSVSchema {
    package static let version = 2
    /// The versions `compare` reads (a version-1 file's `peak_rss` copies become one group-level row).
    package static let readableVersions: ClosedRange<Int> = 1...2

    package static let samplesHeader = [
        "schema", "run_id", "commit", "scenario", "workload", "mode", "items", "operation",
        "repetition", "sample", "metric", "unit", "value",
    ]
    /// summary.csv's statistics, after `samples`, in `Summary.csvStatistics` order.
    package static let summaryStatistics = ["min", "p25", "median", "p75", "p90", "p99", "max", "mean", "mad", "ci_low", "ci_high"]
    package static let summaryHeader = [
        "schema", "run_id", "commit", "scenario", "workload", "mode", "items", "operation",
        "metric", "unit", "samples",
    ] + summaryStatistics

    /// The value written for a metric that cannot be measured on this machine.
    package static let unsupported = "unsupported"
    /// summary.csv's `metric` of a group whose mode failed, and the value of its statistics: one
    /// such row per failed scenario × mode × items, what went wrong in failures.csv beside it.
    package static let failed = "failed"
}

/// A metric value: a number, or `unsupported` when this machine cannot measure it.
package enum MetricValue: Sendable, Equatable {
    case number(Double)
    case unsupported

    /// NaN becomes `.unsupported` (the sampler reports unavailable counters as NaN).
    package init(_ value: Double) { self = value.isNaN ? .unsupported : .number(value) }

    package var csvField: String {
        switch self {
        case let .number(value): return CSVWriter.format(value)
        case .unsupported: return CSVSchema.unsupported
        }
    }
}
