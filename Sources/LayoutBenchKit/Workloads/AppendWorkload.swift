import LayoutEngine

/// `append`: "load more" — pages of `batch` new items appended to the last section, `steps`
/// pages in a row, each page one timed operation. Modes are the update strategies.
public struct AppendWorkload: Workload {
    public static let kind = "append"
    public static var modes: [(name: String, summary: String)] { UpdateModes.modes }
    public static let summary = "load-more pages appended to the last section, one page per operation"

    public var batch: Int
    public var steps: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        batch = try spec.optionalInt("batch", default: 100, .atLeast(1))
        steps = try spec.optionalInt("steps", default: 50, .atLeast(1))
        try spec.finish()
    }

    public var operations: [String] { ["append"] }

    public func makeFixture(scenario: Scenario, items: Int) throws -> any WorkloadFixture {
        let initial = try scenario.makeData(items: items)
        let section = initial.sectionCount - 1
        let pages = try scenario.makeExtraItems(count: batch * steps, stream: 1)[section]
        let changes = (0..<steps).map { page in
            LayoutChange.appendItems(section: section, items: Array(pages[(page * batch)..<((page + 1) * batch)]))
        }
        return UpdateFixture(scenario: scenario, items: items, traces: [("append", UpdateTrace(initial: initial, changes: changes))])
    }
}

/// The traces of one update workload at one item count, shared by its modes.
final class UpdateFixture: WorkloadFixture {
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    /// Per operation name, the trace it replays.
    let traces: [(String, UpdateTrace)]

    init(scenario: Scenario, items: Int, traces: [(String, UpdateTrace)]) {
        self.scenario = scenario
        self.items = items
        self.styles = scenario.makeStyles()
        self.traces = traces
    }

    func makeMeasurement(mode: String, verify: Bool) throws -> ModeMeasurement {
        guard let updateMode = WaterfallUpdateMode(rawValue: mode) else {
            throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: "not an update mode")
        }
        var cases: [any MeasuredOperation] = []
        for (operation, trace) in traces {
            if verify, let problem = try UpdateOperation.verify(mode: updateMode, bounds: scenario.viewport, styles: styles, trace: trace) {
                throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: "\(operation): \(problem)")
            }
            cases.append(UpdateOperation(
                operation: operation, mode: updateMode, bounds: scenario.viewport, styles: styles, trace: trace))
        }
        return ModeMeasurement(cases: cases)
    }

    /// The frames the mode produces after the whole trace of the first operation (for `dump`).
    func framesAfterTrace(mode: WaterfallUpdateMode) throws -> LayoutFrames {
        guard let (_, trace) = traces.first else { return LayoutFrames() }
        var updater = try mode.makeUpdater(bounds: scenario.viewport, styles: styles, data: trace.initial)
        for change in trace.changes { try updater.apply(change) }
        return updater.frames
    }
}
