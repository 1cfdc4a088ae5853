import LayoutEngine
import BenchScenarios

package final class PrepareFixture: WorkloadFixture {
    package typealias Operation = PrepareWorkload.Operation
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    let data: LayoutData

    init(scenario: Scenario, items: Int) throws {
        self.scenario = scenario
        self.items = items
        styles = scenario.makeStyles()
        data = try scenario.makeData(items: items)
    }

    package func makeMeasurement(mode: PrepareWorkload.Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        if verify {
            // The frames the timed operation produces: a fresh prepare, or invalidate and prepare again.
            var layout = try SectionedLayout(bounds: scenario.viewport, styles: styles, data: data)
            try layout.prepare()
            if mode == .relayout {
                layout.invalidate(with: .everything)
                try layout.prepare()
            }
            if let problem = try ReferenceGeometry.firstMismatch(of: layout.frames, bounds: scenario.viewport, styles: styles, data: data) {
                throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: problem)
            }
        }
        let operation = PrepareOperation(bounds: scenario.viewport, styles: styles, data: data, reusesStorage: mode == .relayout)
        return ModeMeasurement(operations: [TimedOperation(.prepare, .consuming(operation))])
    }

    /// The prepared layout, queried exactly.
    package func snapshot(mode: PrepareWorkload.Mode) throws -> LayoutSnapshot {
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: styles, data: data)
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }
}
