import BenchStatistics
/// One summary.csv record: the statistics of one metric over all samples of
/// scenario × mode × items × operation. A nil `summary` is an unsupported metric: `samples` 0 and
/// every statistic `unsupported`.
public struct SummaryRow: Sendable, Equatable {
    public var schema: Int
    public var runID: String
    public var commit: String
    public var scenario: String
    public var workload: String
    public var mode: String
    public var items: Int
    public var operation: String
    public var metric: String
    public var unit: String
    public var summary: Summary?

    public init(
        schema: Int = CSVSchema.version, runID: String, commit: String, scenario: String, workload: String,
        mode: String, items: Int, operation: String, metric: String, unit: String, summary: Summary?
    ) {
        self.schema = schema
        self.runID = runID
        self.commit = commit
        self.scenario = scenario
        self.workload = workload
        self.mode = mode
        self.items = items
        self.operation = operation
        self.metric = metric
        self.unit = unit
        self.summary = summary
    }

    /// With the metric's standard unit.
    public init(
        runID: String, commit: String, scenario: String, workload: String, mode: String, items: Int,
        operation: String, metric: Metric, summary: Summary?
    ) {
        self.init(runID: runID, commit: commit, scenario: scenario, workload: workload, mode: mode,
                  items: items, operation: operation, metric: metric.name, unit: metric.unit, summary: summary)
    }

    /// The row of a group whose mode failed (`FailureRow`): metric `failed`, no operation or
    /// unit, `samples` 0 and every statistic `failed`, so that a reader of summary.csv alone (a
    /// spreadsheet, `export`) sees the group failed rather than missing.
    public static func failedFields(_ failure: FailureRow, runID: String, commit: String) -> [String] {
        [String(CSVSchema.version), runID, commit, failure.scenario, failure.workload, failure.mode, String(failure.items),
         "", CSVSchema.failed, "", "0"] + CSVSchema.summaryStatistics.map { _ in CSVSchema.failed }
    }

    /// The fields in `CSVSchema.summaryHeader` order.
    public var fields: [String] {
        let identity = [String(schema), runID, commit, scenario, workload, mode, String(items), operation, metric, unit]
        guard let summary else {
            return identity + ["0"] + CSVSchema.summaryStatistics.map { _ in CSVSchema.unsupported }
        }
        assert(summary.csvStatistics.count == CSVSchema.summaryStatistics.count, "a statistic without its summary.csv column")
        return identity + [String(summary.count)] + summary.csvStatistics.map(CSVWriter.format)
    }
}
