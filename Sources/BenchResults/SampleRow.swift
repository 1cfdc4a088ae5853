/// One samples.csv record: one metric of one sample.
package struct SampleRow: Sendable, Equatable {
    package var schema: Int
    package var runID: String
    package var commit: String
    package var scenario: String
    package var workload: String
    package var mode: String
    package var items: Int
    package var operation: String
    package var repetition: Int
    package var sample: Int
    package var metric: String
    package var unit: String
    package var value: MetricValue

    /// Of this schema, with the metric's standard unit.
    package init(
        runID: String, commit: String, scenario: String, workload: String, mode: String, items: Int,
        operation: String, repetition: Int, sample: Int, metric: Metric, value: MetricValue
    ) {
        schema = CSVSchema.version
        self.runID = runID
        self.commit = commit
        self.scenario = scenario
        self.workload = workload
        self.mode = mode
        self.items = items
        self.operation = operation
        self.repetition = repetition
        self.sample = sample
        self.metric = metric.name
        unit = metric.unit
        self.value = value
    }

    /// The fields in `CSVSchema.samplesHeader` order.
    package var fields: [String] {
        [String(schema), runID, commit, scenario, workload, mode, String(items), operation,
         String(repetition), String(sample), metric, unit, value.csvField]
    }
}
