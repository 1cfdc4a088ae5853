import LayoutEngine
import BenchScenarios

/// `append`: "load more" — pages of `batch` new items appended to the last section, `steps`
/// pages in a row, each page one timed operation. Modes are the update strategies.
public struct AppendWorkload: Workload {
    public typealias Mode = WaterfallUpdateMode
    public enum Operation: String, WorkloadOperation {
        /// One page of `batch` items appended.
        case append
    }

    public static let kind = "append"
    public static let about = "load-more pages appended to the last section, one page per operation"

    public var batch: Int
    public var steps: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        batch = try spec.optionalInt("batch", default: 100, .between(1, Double(ScenarioLimits.maxBatch)))
        steps = try spec.optionalInt("steps", default: 50, .between(1, Double(ScenarioLimits.maxSteps)))
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
    package func traces(scenario: Scenario, items: Int) throws -> [(Operation, UpdateTrace)] {
        let initial = try scenario.makeData(items: items)
        let section = initial.sectionCount - 1
        let pages = try scenario.makeExtraItems(count: batch * steps, stream: 1)[section]
        let changes = (0..<steps).map { page in
            LayoutChange.appendItems(section: section, items: Array(pages[(page * batch)..<((page + 1) * batch)]))
        }
        return [(.append, UpdateTrace(initial: initial, changes: changes))]
    }
}

/// The traces of one update workload at one item count, shared by its modes.
public final class UpdateFixture<Operation: WorkloadOperation>: WorkloadFixture {
    public typealias Mode = WaterfallUpdateMode
    package let scenario: Scenario
    package let items: Int
    package let styles: [SectionStyle]
    /// Per operation, the trace it replays.
    package let traces: [(Operation, UpdateTrace)]

    package init(scenario: Scenario, items: Int, traces: [(Operation, UpdateTrace)]) {
        self.scenario = scenario
        self.items = items
        self.styles = scenario.makeStyles()
        self.traces = traces
    }

    public func makeMeasurement(mode: WaterfallUpdateMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var operations: [TimedOperation<Operation>] = []
        for (operation, trace) in traces {
            if verify, let problem = try UpdateOperation.verify(mode: mode, bounds: scenario.viewport, styles: styles, trace: trace) {
                throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: "\(operation.rawValue): \(problem)")
            }
            let work = UpdateOperation(mode: mode, bounds: scenario.viewport, styles: styles, trace: trace)
            operations.append(TimedOperation(operation, .consuming(work)))
        }
        return ModeMeasurement(operations: operations)
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
