import BenchResults
import BenchScenarios

/// One mode, built and verified, with the names the CSV uses: what the driver times.
package struct MeasuredMode {
    package var mode: String
    package var operations: [(name: String, work: OperationWork)]
    /// Per operation timed against a baseline variant: that variant's name (`TimedOperation.speedupBaseline`).
    package var speedupBaselines: [String: String] = [:]
    package var observations: [(operation: String, metric: Metric, values: [Double])]
}

/// A workload's fixture at one item count with its `Mode` and `Operation` types hidden: what the
/// runner, the callgrind child, `dump` and `render` hold, whatever the workload.
package struct WorkloadGroup {
    private let measureMode: (any WorkloadMode, Bool) throws -> MeasuredMode
    private let snapshotMode: (any WorkloadMode) throws -> LayoutSnapshot

    fileprivate init(
        measure: @escaping (any WorkloadMode, Bool) throws -> MeasuredMode,
        snapshot: @escaping (any WorkloadMode) throws -> LayoutSnapshot
    ) {
        measureMode = measure
        snapshotMode = snapshot
    }

    /// Builds and (when `verify`) verifies one of the plan's modes.
    package func measure(mode: any WorkloadMode, verify: Bool) throws -> MeasuredMode {
        try measureMode(mode, verify)
    }

    /// The layout one of the plan's modes produces, for `dump` and `render`.
    package func snapshot(mode: any WorkloadMode) throws -> LayoutSnapshot {
        try snapshotMode(mode)
    }
}

extension Workload {
    /// Builds the fixture at `items` items for the runner and the inspection commands.
    package func makeGroup(scenario: Scenario, items: Int) throws -> WorkloadGroup {
        let fixture = try makeFixture(scenario: scenario, items: items)
        func typed(_ mode: any WorkloadMode) throws -> Mode {
            // Plans only hold modes parsed by this workload's type, so this cannot fail for them.
            guard let mode = mode as? Mode else {
                throw VerificationError(
                    scenario: scenario.name, mode: mode.rawValue, items: items, detail: "not a mode of workload \(Self.kind)")
            }
            return mode
        }
        return WorkloadGroup(
            measure: { mode, verify in
                let mode = try typed(mode)
                let measurement = try fixture.makeMeasurement(mode: mode, verify: verify)
                var baselines: [String: String] = [:]
                for operation in measurement.operations {
                    if let baseline = operation.speedupBaseline {
                        baselines[operation.name] = TimedOperation.name(operation.operation, variant: baseline)
                    }
                }
                return MeasuredMode(
                    mode: mode.rawValue,
                    operations: measurement.operations.map { ($0.name, $0.work) },
                    speedupBaselines: baselines,
                    observations: measurement.observations.map { ($0.name, $0.metric, $0.values) })
            },
            snapshot: { mode in try fixture.snapshot(mode: try typed(mode)) })
    }

    /// The modes named by `names`, in order, or the first name that is not a mode.
    static func parseModes(_ names: [String]) -> Result<[any WorkloadMode], UnknownMode> {
        var modes: [any WorkloadMode] = []
        for (index, name) in names.enumerated() {
            guard let mode = Mode(rawValue: name) else { return .failure(UnknownMode(index: index, name: name)) }
            modes.append(mode)
        }
        return .success(modes)
    }
}

/// A mode name a workload does not have, at `index` of the list it came from.
struct UnknownMode: Error {
    var index: Int
    var name: String
}
