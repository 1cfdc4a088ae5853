import LayoutEngine

/// One kind of work a scenario measures (SPEC §4: `prepare`, `query`, `append`, `edit`, …).
///
/// A new workload is one new type conforming to this protocol, listed in `WorkloadCatalog.all`,
/// plus its scenario files; the runner, the CSV and the CLI need no change.
public protocol Workload: Sendable {
    /// The `workload.kind` value in scenario files.
    static var kind: String { get }
    /// The modes a scenario may ask for, with one sentence each.
    static var modes: [(name: String, summary: String)] { get }
    /// What the workload measures, for `layout-bench list` and the README.
    static var summary: String { get }

    /// Parses the workload's own keys from the scenario's `workload` object (strictly: unknown
    /// keys are errors naming their path).
    init(spec: JSONReader) throws(ScenarioError)

    /// The operations one sample can time, as written in the CSV's `operation` column.
    var operations: [String] { get }

    /// Builds what every mode at this item count shares (data, reference answers).
    func makeFixture(scenario: Scenario, items: Int) throws -> any WorkloadFixture
}

/// The shared state of a workload at one item count, from which each mode's cases are built.
public protocol WorkloadFixture: AnyObject {
    /// Builds one mode, verifies its output against the exact reference (unless `verify` is false:
    /// the callgrind child re-measures modes its parent already verified), and returns what to
    /// time. Throws `VerificationError` when an exact mode disagrees with the reference.
    func makeMeasurement(mode: String, verify: Bool) throws -> ModeMeasurement
}

/// What one mode at one item count contributes to a run: cases to time, and metrics that come
/// from verification rather than from timing (recall, elements per query, cells created…).
public struct ModeMeasurement {
    public var cases: [any MeasuredOperation]
    /// Per operation and metric, the values observed during verification (one sample each).
    public var observations: [Observation]

    public init(cases: [any MeasuredOperation], observations: [Observation] = []) {
        self.cases = cases
        self.observations = observations
    }
}

/// Values of a metric observed outside the timed region.
public struct Observation: Sendable {
    public var operation: String
    public var metric: String
    public var unit: String
    public var values: [Double]

    public init(operation: String, metric: String, unit: String, values: [Double]) {
        self.operation = operation
        self.metric = metric
        self.unit = unit
        self.values = values
    }
}

/// One operation of one mode, ready to be timed.
///
/// `run(count:)` performs `count` consecutive operations and returns a value that depends on
/// their results (the runner consumes it, so the optimiser cannot drop the work). Operations
/// that consume state (an append grows the layout) restore it in `prepareForRun(count:)`,
/// which is not timed.
public protocol MeasuredOperation: AnyObject {
    var operation: String { get }
    /// The largest `count` one timed region may use (1 when each operation needs fresh state).
    var maximumBatch: Int { get }
    /// Untimed: get ready for the next `run(count:)`.
    func prepareForRun(count: Int) throws
    /// Timed: perform `count` operations.
    func run(count: Int) -> Int
}

/// A mode whose output differs from the exact reference where it must not.
public struct VerificationError: Error, CustomStringConvertible {
    public var scenario: String
    public var mode: String
    public var items: Int
    public var detail: String

    public init(scenario: String, mode: String, items: Int, detail: String) {
        self.scenario = scenario
        self.mode = mode
        self.items = items
        self.detail = detail
    }

    public var description: String {
        "\(scenario): mode \(mode) at \(items) items disagrees with the reference: \(detail)"
    }
}
