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

    package init(
        schema: Int = CSVSchema.version, runID: String, commit: String, scenario: String, workload: String,
        mode: String, items: Int, operation: String, repetition: Int, sample: Int,
        metric: String, unit: String, value: MetricValue
    ) {
        self.schema = schema
        self.runID = runID
        self.commit = commit
        self.scenario = scenario
        self.workload = workload
        self.mode = mode
        self.items = items
        self.operation = operation
        self.repetition = repetition
        self.sample = sample
        self.metric = metric
        self.unit = unit
        self.value = value
    }

    /// With the metric's standard unit.
    package init(
        runID: String, commit: String, scenario: String, workload: String, mode: String, items: Int,
        operation: String, repetition: Int, sample: Int, metric: Metric, value: MetricValue
    ) {
        self.init(runID: runID, commit: commit, scenario: scenario, workload: workload, mode: mode,
                  items: items, operation: operation, repetition: repetition, sample: sample,
                  metric: metric.name, unit: metric.unit, value: value)
    }

    /// The fields in `CSVSchema.samplesHeader` order.
    package var fields: [String] {
        [String(schema), runID, commit, scenario, workload, mode, String(items), operation,
         String(repetition), String(sample), metric, unit, value.csvField]
    }
}
