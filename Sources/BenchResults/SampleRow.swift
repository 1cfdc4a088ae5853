/// One samples.csv record: one metric of one sample.
public struct SampleRow: Sendable, Equatable {
    public var schema: Int
    public var runID: String
    public var commit: String
    public var scenario: String
    public var workload: String
    public var mode: String
    public var items: Int
    public var operation: String
    public var repetition: Int
    public var sample: Int
    public var metric: String
    public var unit: String
    public var value: MetricValue

    public init(
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
    public init(
        runID: String, commit: String, scenario: String, workload: String, mode: String, items: Int,
        operation: String, repetition: Int, sample: Int, metric: Metric, value: MetricValue
    ) {
        self.init(runID: runID, commit: commit, scenario: scenario, workload: workload, mode: mode,
                  items: items, operation: operation, repetition: repetition, sample: sample,
                  metric: metric.name, unit: metric.unit, value: value)
    }

    /// The fields in `CSVSchema.samplesHeader` order.
    public var fields: [String] {
        [String(schema), runID, commit, scenario, workload, mode, String(items), operation,
         String(repetition), String(sample), metric, unit, value.csvField]
    }
}
