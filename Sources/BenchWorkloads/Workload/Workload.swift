import BenchResults
import BenchScenarios

/// One kind of work a scenario measures (docs/modes.md: `prepare`, `query`, `append`, `edit`, …).
///
/// ## Writing a new workload
///
/// A new workload is one new type conforming to this protocol, one line in `WorkloadCatalog.all`,
/// and its scenario files; the runner, the callgrind child, the CSV, `list`, `dump` and `render`
/// need no change. In one folder, in the shape CONTRIBUTING.md names (`<Name>Workload`, `Keys`,
/// `Modes`, `Operations`, `Fixture`; see `Query/` for a complete example):
///
/// 1. `enum Mode: String, WorkloadMode` — the strategies compared, raw values as written in
///    scenario files and the CSV, each with a one-sentence `about`. (An engine enum can conform
///    instead, as `RectQueryMode` does.)
/// 2. `enum Operation: String, WorkloadOperation` — what one sample times (the CSV's `operation`),
///    each case saying what its sample times and leaves out (`timed`, `untimed`).
/// 3. `static let metrics` (in `<Workload>Metrics.swift`) lists the metrics its observations
///    report, each declared there as `extension Metric { static let … }`; `static let keys` lists the workload's own keys (`WorkloadKey`: type, default, bound,
///    meaning) and `init(spec:)` reads them through those values, strictly (`spec.finish()`
///    rejects unknown ones);
///    `operations` says which operations this configuration times.
/// 4. A fixture class (`WorkloadFixture`): everything the modes share at one item count (data, the
///    reference answers). `makeMeasurement(mode:verify:)` builds one mode, checks it against the
///    reference (throw `VerificationError` when an exact mode disagrees) and returns its
///    operations; `snapshot(mode:)` returns the frames `dump` and `render` show.
/// 5. Each operation is an `OperationWork`: `.batchable` when the same state can serve any number
///    of consecutive operations (a query walking its trace), `.consuming` when each operation
///    changes the state (an append) and the trace must restart from a fresh state when used up.
///    Keep everything that is not the operation (state resets, copies, checksums) out of
///    `run(count:)` and `runNext()`: those are the timed regions.
///
/// Strings become types once, at the plan boundary (`BenchmarkPlan` parses the scenario's modes
/// into `Mode` values); a workload never sees a mode name.
package protocol Workload: Sendable {
    associatedtype Mode: WorkloadMode
    associatedtype Operation: WorkloadOperation
    associatedtype Fixture: WorkloadFixture where Fixture.Mode == Mode, Fixture.Operation == Operation

    /// The `workload.kind` value in scenario files.
    static var kind: String { get }
    /// What the workload measures, for `layout-bench list` and docs/modes.md.
    static var about: String { get }
    /// The keys of the scenario's `workload` object besides `kind`, as `init(spec:)` reads them
    /// (`layout-bench list --json` and docs/scenario-format.md list them).
    static var keys: [WorkloadKey] { get }
    /// The metrics the workload produces beyond the harness-wide ones (`Metric.harnessWide`),
    /// each declared in the workload's folder (`<Workload>Metrics.swift`, one static constant a
    /// metric: name, unit, polarity, exact or timed, threshold). The run writes their descriptions
    /// into run.json, where `compare` reads how to judge them (with any other metric the run
    /// wrote, so results describe every metric they hold). No default: every workload says.
    static var metrics: [Metric] { get }

    /// The mode names a scenario of this workload may list (every mode, except for the generic
    /// workloads: the strategies of the scenario's layout kind).
    static func allowedModes(for scenario: Scenario) -> [String]

    /// Parses the workload's own keys from the scenario's `workload` object (strictly: unknown
    /// keys are errors naming their path).
    init(spec: JSONReader) throws(ScenarioError)

    /// The operations this configuration times, in the order the CSV lists them.
    var operations: [Operation] { get }

    /// The CSV's names of `operations`, each operation timed in variants named once per variant
    /// (`TimedOperation.variant`). Default: the operations' raw values.
    var operationNames: [String] { get }

    /// Builds what every mode at this item count shares (data, reference answers).
    func makeFixture(scenario: Scenario, items: Int) throws -> Fixture

    /// Refuses, when the scenario loads, what this workload cannot run with it (a layout or data it
    /// needs and does not get): one error naming the file and JSON path, before anything is
    /// generated, measured or written.
    func validate(_ scenario: Scenario) throws(ScenarioError)

    /// What the workload adds to a scenario's size beyond the layout, for `ScenarioFootprint`'s
    /// load-time bounds of content height and memory.
    var footprint: WorkloadFootprint { get }
}

/// What a workload adds to the items and memory of a scenario (see `ScenarioFootprint`).
package struct WorkloadFootprint: Sendable, Equatable {
    /// Items the trace adds to the layout over its run (appended pages, inserts).
    package var addedItems = 0
    /// The JSON path of the count that sets `addedItems` (named when the bound is exceeded).
    package var addedItemsPath = "workload.steps"
    /// New items generated for every section, kept as the trace's changes.
    package var newItemsPerSection = 0
    /// Frames whose exact answers the verification keeps (query workloads).
    package var keptAnswerFrames = 0

    /// Nothing beyond the layout.
    package static let none = WorkloadFootprint()
}

/// A mode of a workload: a strategy, named in scenario files and the CSV by its raw value.
package protocol WorkloadMode: RawRepresentable<String>, CaseIterable, Hashable, Sendable {
    /// One sentence for `layout-bench list` and the docs: what the strategy does and which library
    /// ships it.
    var about: String { get }
    /// The library and technique the mode reproduces faithfully, or what makes it the best known
    /// strategy when no library ships it.
    var reproduces: String { get }
    /// nil for an exact mode, which must match the reference or fail the run; for a heuristic, the
    /// metric that reports how inexact it is (`recall`, `wrong_heights`). No default: every mode
    /// says which it is.
    var accuracyMetric: Metric? { get }
    /// An upper bound on the bytes the mode's own structures keep per item once built (its
    /// layout or index, pools, caches, the state its updates keep), for `ScenarioFootprint`.
    /// `ModeFootprintTests` holds every mode's bound to what it really keeps.
    var bytesPerItem: Double { get }
}


/// An operation of a workload: what one sample times, named in the CSV by its raw value.
package protocol WorkloadOperation: RawRepresentable<String>, CaseIterable, Hashable, Sendable {
    /// What one sample times (`layout-bench list --json`, docs/modes.md).
    var timed: String { get }
    /// What a sample leaves out of its timed region: the untimed preparation of its state.
    var untimed: String { get }
}

/// The shared state of a workload at one item count, from which each mode is built.
package protocol WorkloadFixture: AnyObject {
    associatedtype Mode: WorkloadMode
    associatedtype Operation: WorkloadOperation

    /// Builds one mode, verifies its output against the exact reference (unless `verify` is
    /// false: later repetitions and the callgrind child measure modes the first repetition already
    /// verified), and returns what to time. Throws `VerificationError` when an exact mode disagrees.
    func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation>

    /// The layout the mode produces, for `dump` and `render`.
    func snapshot(mode: Mode) throws -> LayoutSnapshot
}

/// What one mode at one item count contributes to a run: operations to time, and metrics that
/// come from verification rather than from timing (recall, elements per query, cells created…).
package struct ModeMeasurement<Operation: WorkloadOperation> {
    package var operations: [TimedOperation<Operation>]
    /// Values observed during verification (one sample each).
    package var observations: [Observation<Operation>] = []
}

/// One operation of one mode, ready to be driven by `OperationDriver`.
///
/// An operation timed in several variants side by side (`precache-mt` on 1 and on 2 threads)
/// gives each its `variant`: the CSV names it `<operation>-<variant>`. A variant with a
/// `speedupBaseline` (another variant's name) also gets a `speedup` series: the baseline's
/// median time over each of its samples' times.
package struct TimedOperation<Operation: WorkloadOperation> {
    package var operation: Operation
    package var work: OperationWork
    package var variant: String?
    package var speedupBaseline: String?

    package init(_ operation: Operation, _ work: OperationWork, variant: String? = nil, speedupBaseline: String? = nil) {
        self.operation = operation
        self.work = work
        self.variant = variant
        self.speedupBaseline = speedupBaseline
    }

    /// The CSV's `operation`.
    package var name: String { Self.name(operation, variant: variant) }

    package static func name(_ operation: Operation, variant: String?) -> String {
        variant.map { operation.rawValue + "-" + $0 } ?? operation.rawValue
    }
}

/// Values of a metric observed outside the timed region (recall, elements per query…).
package struct Observation<Operation: WorkloadOperation> {
    package var operation: Operation
    package var metric: Metric
    package var values: [Double]
    /// The variant of the operation it was observed on (`TimedOperation.variant`).
    package var variant: String?

    package init(_ operation: Operation, _ metric: Metric, _ values: [Double], variant: String? = nil) {
        self.operation = operation
        self.metric = metric
        self.values = values
        self.variant = variant
    }

    /// The CSV's `operation`.
    package var name: String { TimedOperation.name(operation, variant: variant) }
}

/// The two kinds of operation the driver times.
package enum OperationWork {
    /// The same state serves any number of consecutive operations (a rect query): short ones are
    /// batched, several operations per timed region.
    case batchable(any BatchableOperation)
    /// Each operation changes the state (an append, a prepare): one operation per timed region,
    /// and the state is restored, untimed, when the trace is used up.
    case consuming(any ConsumingOperation)

    /// Operations in one pass of the trace.
    package var traceLength: Int {
        switch self {
        case .batchable(let operation): return operation.traceLength
        case .consuming(let operation): return operation.traceLength
        }
    }
}

/// A repeatable operation that walks a trace (frame after frame, wrapping at its end).
package protocol BatchableOperation: AnyObject {
    /// Operations in one pass of the trace (≥ 1).
    var traceLength: Int { get }
    /// Untimed: back to the first operation of the trace.
    func rewind()
    /// Timed: the next `count` operations of the trace, in order. Returns a value that depends on
    /// their results (the driver consumes it, so the optimiser cannot drop the work). Nothing but
    /// the operations themselves belongs here. An operation that fails throws: the runner reports
    /// the mode as failed, and it gets no rows (never a trap, which would end the whole run).
    func run(count: Int) throws -> Int
}

/// An operation that consumes its state: a trace of changes applied one at a time.
package protocol ConsumingOperation: AnyObject {
    /// Operations in one pass of the trace (≥ 1).
    var traceLength: Int { get }
    /// Untimed: restart from fresh state at the first operation on the next `prepareNext()`.
    func rewind()
    /// Untimed, before each operation: builds fresh state when there is none or the trace is
    /// used up, so that `runNext()` can perform the next operation of the trace.
    func prepareNext() throws
    /// Timed: the next operation of the trace. Returns a cheap value that depends on it (never a
    /// read that does more work, such as materialising a lazy structure).
    func runNext() throws -> Int
}

/// A mode whose output differs from the exact reference where it must not.
package struct VerificationError: Error, CustomStringConvertible {
    package var scenario: String
    package var mode: String
    package var items: Int
    package var detail: String

    package var description: String {
        "\(scenario): mode \(mode) at \(items) items disagrees with the reference: \(detail)"
    }
}

/// Empty defaults, so that a workload outside the catalog (a test's) need not describe itself;
/// `CatalogListingTests` requires every workload of `WorkloadCatalog` to list the keys it reads
/// and to say what each operation times.
extension Workload {
    package static var keys: [WorkloadKey] { [] }
}

extension WorkloadOperation {
    package var timed: String { "" }
    package var untimed: String { "" }
}

extension Workload {
    package static func allowedModes(for scenario: Scenario) -> [String] { Mode.allCases.map(\.rawValue) }

    /// Every mode with its one-sentence description, for listings.
    package static var modes: [(name: String, about: String)] {
        Mode.allCases.map { ($0.rawValue, $0.about) }
    }

    /// Every mode of the workload.
    package static var allModes: [any WorkloadMode] { Mode.allCases.map { $0 } }

    /// The CSV names of `operations`.
    package var operationNames: [String] { operations.map { $0.rawValue } }
}

/// A consuming operation run without its untimed preparation: a bug in the harness, reported as
/// the mode's failure rather than a crash.
enum OperationMisuse: Error, CustomStringConvertible {
    case notPrepared

    var description: String { "runNext() was called before prepareNext()" }
}
