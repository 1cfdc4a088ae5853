import BenchStatistics
/// One summary.csv record: the statistics of one metric over all samples of
/// scenario × mode × items × operation. A nil `summary` is an unsupported metric: `samples` 0 and
/// every statistic `unsupported`.
package struct SummaryRow: Sendable, Equatable {
    package var schema: Int
    package var runID: String
    package var commit: String
    package var scenario: String
    package var workload: String
    package var mode: String
    package var items: Int
    package var operation: String
    package var metric: String
    package var unit: String
    package var summary: Summary?

    /// Of this schema, with the metric's standard unit.
    package init(
        runID: String, commit: String, scenario: String, workload: String, mode: String, items: Int,
        operation: String, metric: Metric, summary: Summary?
    ) {
        schema = CSVSchema.version
        self.runID = runID
        self.commit = commit
        self.scenario = scenario
        self.workload = workload
        self.mode = mode
        self.items = items
        self.operation = operation
        self.metric = metric.name
        unit = metric.unit
        self.summary = summary
    }

    /// The row of a group whose mode failed (`FailureRow`): metric `failed`, no operation or
    /// unit, `samples` 0 and every statistic `failed`, so that a reader of summary.csv alone (a
    /// spreadsheet, `export`) sees the group failed rather than missing.
    package static func failedFields(_ failure: FailureRow, runID: String, commit: String) -> [String] {
        [String(CSVSchema.version), runID, commit, failure.scenario, failure.workload, failure.mode, String(failure.items),
         "", CSVSchema.failed, "", "0"] + CSVSchema.summaryStatistics.map { _ in CSVSchema.failed }
    }

    /// The fields in `CSVSchema.summaryHeader` order.
    package var fields: [String] {
        let identity = [String(schema), runID, commit, scenario, workload, mode, String(items), operation, metric, unit]
        guard let summary else {
            return identity + ["0"] + CSVSchema.summaryStatistics.map { _ in CSVSchema.unsupported }
        }
        assert(summary.csvStatistics.count == CSVSchema.summaryStatistics.count, "a statistic without its summary.csv column")
        return identity + [String(summary.count)] + summary.csvStatistics.map(CSVWriter.format)
    }
}
