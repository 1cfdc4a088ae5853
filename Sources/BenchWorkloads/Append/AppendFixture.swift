import LayoutEngine
import BenchScenarios

/// The traces of one update workload at one item count, shared by its modes.
package final class UpdateFixture<Operation: WorkloadOperation>: WorkloadFixture {
    package typealias Mode = WaterfallUpdateMode
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    /// Per operation, the trace it replays.
    let traces: [(Operation, UpdateTrace)]
    /// The reference layout of the data the traces start from, which every mode's verification
    /// checks before its first change: built once for the group (by the first mode verified).
    private let initialGeometry: ReferenceGeometry.Kept?

    init(scenario: Scenario, items: Int, traces: [(Operation, UpdateTrace)]) {
        self.scenario = scenario
        self.items = items
        let styles = scenario.makeStyles()
        self.styles = styles
        self.traces = traces
        initialGeometry = traces.first.map { ReferenceGeometry.Kept(bounds: scenario.viewport, styles: styles, data: $0.1.initial) }
    }

    package func makeMeasurement(mode: WaterfallUpdateMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var operations: [TimedOperation<Operation>] = []
        var observations: [Observation<Operation>] = []
        for (operation, trace) in traces {
            if verify {
                // What the user sees (docs/csv.md, lane stability): exact counts, from the
                // verification's own replay of the trace.
                let checked = try UpdateOperation.verifyObservingLanes(
                    mode: mode, bounds: scenario.viewport, styles: styles, trace: trace, observes: LaneStability.applies(to: styles),
                    initial: initialGeometry)
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
    package func snapshot(mode: WaterfallUpdateMode) throws -> LayoutSnapshot {
        var frames = LayoutFrames()
        if let (_, trace) = traces.first {
            var updater = try mode.make(bounds: scenario.viewport, styles: styles, data: trace.initial)
            for change in trace.changes { try updater.apply(change) }
            frames = updater.frames
        }
        return LayoutSnapshot(frames: frames, queryMode: .binary, viewport: scenario.viewport)
    }
}
