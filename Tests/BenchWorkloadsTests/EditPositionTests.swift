import Testing
import HarnessTestSupport
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// `edit`'s `position` key: the worst cases of a masonry relayout (item 0, n/2, n−1), every change
/// where the key says, in every update mode (verified by the fixture), with 32 lanes too.
@Suite struct EditPositionTests {
    @Test(arguments: ["first", "middle", "last"])
    func everyChangeLandsAtItsPosition(_ position: String) throws {
        let scenario = try parseScenario(scenarioJSON(
            layout: #"{"kind": "waterfall", "columns": 32, "itemSpacing": 2}"#,
            workload: #"{"kind": "edit", "steps": 12, "position": "\#(position)"}"#, modes: #"["full", "incremental", "stable-lanes"]"#))
        let edit = try EditWorkload(spec: scenario.workload.reader())
        for (operation, trace) in try edit.traces(scenario: scenario, items: 400) {
            var count = 400
            for change in trace.changes {
                let expected = position == "first" ? 0 : position == "middle" ? count / 2 : count - 1
                switch change {
                case .insertItems(_, let at, _): #expect(at == expected, "\(operation)"); count += 1
                case .removeItems(_, let at, _): #expect(at == expected, "\(operation)"); count -= 1
                case .setHeight(_, let item, _): #expect(item == expected, "\(operation)")
                default: Issue.record("unexpected \(change)")
                }
            }
        }
        let fixture = try edit.makeFixture(scenario: scenario, items: 400)
        for mode in WaterfallUpdateMode.allCases { _ = try fixture.makeMeasurement(mode: mode, verify: true) }
    }
}
