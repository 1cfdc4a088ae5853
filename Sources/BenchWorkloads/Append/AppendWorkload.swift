import LayoutEngine
import BenchScenarios

/// `append`: "load more" — pages of `batch` new items appended to the last section, `steps`
/// pages in a row, each page one timed operation. Modes are the update strategies.
public struct AppendWorkload: Workload {
    public typealias Mode = WaterfallUpdateMode
    public enum Operation: String, WorkloadOperation {
        /// One page of `batch` items appended.
        case append

        public var timed: String { "one page of `batch` items appended to the last section, " + UpdateTiming.timed }
        public var untimed: String { UpdateTiming.untimed }
    }

    public static let kind = "append"
    public static let about = "load-more pages appended to the last section, one page per operation"

    public static let batchKey = WorkloadKey(
        "batch", .integer, default: .integer(100), bound: .between(1, Double(ScenarioLimits.maxBatch)),
        about: "items in one appended page")
    public static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(50), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "pages appended one after the other in one pass of the trace")
    public static let keys = [batchKey, stepsKey]

    public var batch: Int
    public var steps: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        batch = try spec.int(Self.batchKey)
        steps = try spec.int(Self.stepsKey)
        try spec.finish()
    }

    public var operations: [Operation] { [.append] }

    public func validate(_ scenario: Scenario) throws(ScenarioError) {}

    /// Every page is appended: `batch × steps` items, drawn for every section.
    public var footprint: WorkloadFootprint {
        WorkloadFootprint(addedItems: batch * steps, addedItemsPath: batch > steps ? "workload.batch" : "workload.steps",
                          newItemsPerSection: batch * steps)
    }

    public func makeFixture(scenario: Scenario, items: Int) throws -> UpdateFixture<Operation> {
        UpdateFixture(scenario: scenario, items: items, traces: try traces(scenario: scenario, items: items))
    }

    /// The pages appended, per operation (`layout-append` replays the same).
    func traces(scenario: Scenario, items: Int) throws -> [(Operation, UpdateTrace)] {
        let initial = try scenario.makeData(items: items)
        let section = initial.sectionCount - 1
        let pages = try scenario.makeExtraItems(count: batch * steps, stream: 1)[section]
        let changes = (0..<steps).map { page in
            LayoutChange.appendItems(section: section, items: Array(pages[(page * batch)..<((page + 1) * batch)]))
        }
        return [(.append, UpdateTrace(initial: initial, changes: changes))]
    }
}

/// What one change of `append`, `edit`, `layout-append` and `layout-edit` times and leaves out
/// (their operations' `timed` and `untimed`).
enum UpdateTiming {
    static let timed = "in the trace's order, by the mode's updater (`append`, `edit`) or as a batch of one to the "
        + "layout kind (`layout-append`, `layout-edit`: `invalidate(with: .dataSourceCounts)`, "
        + "`prepare(forCollectionViewUpdates:)`, `prepare()`); after the last change the trace restarts from fresh state"
    static let untimed = "building the fresh state (a private copy of the data with room for the trace's items, so no "
        + "copy-on-write or regrowth of storage the harness shares lands in the first change; for a layout kind, a new "
        + "layout of that data from its factory, prepared); `stable-lanes`: materialising `data` and `frames` from its "
        + "lane sequences (O(n)), which happens on the next read and is left out on purpose (the harness does not "
        + "read them while sampling)"
}

/// The traces of one update workload at one item count, shared by its modes.
public final class UpdateFixture<Operation: WorkloadOperation>: WorkloadFixture {
    public typealias Mode = WaterfallUpdateMode
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    /// Per operation, the trace it replays.
    let traces: [(Operation, UpdateTrace)]

    init(scenario: Scenario, items: Int, traces: [(Operation, UpdateTrace)]) {
        self.scenario = scenario
        self.items = items
        self.styles = scenario.makeStyles()
        self.traces = traces
    }

    public func makeMeasurement(mode: WaterfallUpdateMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var operations: [TimedOperation<Operation>] = []
        var observations: [Observation<Operation>] = []
        for (operation, trace) in traces {
            if verify {
                // What the user sees (docs/csv.md, lane stability): exact counts, from the
                // verification's own replay of the trace.
                let checked = try UpdateOperation.verifyObservingLanes(
                    mode: mode, bounds: scenario.viewport, styles: styles, trace: trace, observes: LaneStability.applies(to: styles))
                if let problem = checked.problem {
                    throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: "\(operation.rawValue): \(problem)")
                }
                if let seen = checked.lanes {
                    observations.append(Observation(operation, .laneChanges, seen.laneChanges))
                    observations.append(Observation(operation, .movedVisible, seen.movedVisible))
                    observations.append(Observation(operation, .columnSpread, seen.columnSpread))
                }
            }
            let work = UpdateOperation(mode: mode, bounds: scenario.viewport, styles: styles, trace: trace)
            operations.append(TimedOperation(operation, .consuming(work)))
        }
        return ModeMeasurement(operations: operations, observations: observations)
    }

    /// The frames the mode produces after the whole trace of the first operation, so that modes
    /// that place items differently (stable-lanes) can be compared.
    public func snapshot(mode: WaterfallUpdateMode) throws -> LayoutSnapshot {
        var frames = LayoutFrames()
        if let (_, trace) = traces.first {
            var updater = try mode.makeUpdater(bounds: scenario.viewport, styles: styles, data: trace.initial)
            for change in trace.changes { try updater.apply(change) }
            frames = updater.frames
        }
        return LayoutSnapshot(frames: frames, queryMode: .binary, viewport: scenario.viewport)
    }
}
