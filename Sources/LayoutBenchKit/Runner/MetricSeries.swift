/// All values of one metric for one scenario × mode × items × operation: what becomes rows of
/// samples.csv (one per value) and one row of summary.csv.
public struct MetricSeries: Sendable {
    public var scenario: String
    public var workload: String
    public var mode: String
    public var items: Int
    public var operation: String
    public var metric: String
    public var unit: String
    /// nil where the metric cannot be measured on this machine (`unsupported`).
    public var values: [Double]?

    public init(
        scenario: String, workload: String, mode: String, items: Int, operation: String,
        metric: String, unit: String, values: [Double]?
    ) {
        self.scenario = scenario
        self.workload = workload
        self.mode = mode
        self.items = items
        self.operation = operation
        self.metric = metric
        self.unit = unit
        self.values = values
    }
}
