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
                case .moveItem(let from, _): #expect(from.item == expected, "\(operation)")
                case .reloadItems(_, let at, _): #expect(at == expected, "\(operation)")
                case .moveSection(let from, let to): #expect(from == 0 && to == 0, "one section: onto itself")
                default: Issue.record("unexpected \(change)")
                }
            }
        }
        let fixture = try edit.makeFixture(scenario: scenario, items: 400)
        for mode in WaterfallUpdateMode.allCases { _ = try fixture.makeMeasurement(mode: mode, verify: true) }
    }

    /// The traces of `move`, `move-section` and `reload` in a layout of four sections: half the
    /// moves cross sections (the odd steps), section moves reach other indices, each reload brings
    /// one item's new size; the earlier operations' traces are what they were without the new ones (the
    /// generator draws in the order the operations are listed); every mode is verified on them.
    @Test func movesAndReloadsAreDrawnAndVerified() throws {
        func scenario(_ operations: String) throws -> Scenario {
            try parseScenario(scenarioJSON(
                layout: #"{"kind": "waterfall", "columns": 3, "itemSpacing": 2}"#,
                data: #"{"generate": {"sections": 4, "heights": {"distribution": "uniform", "min": 20, "max": 200}, "seed": 5, "fullWidthEvery": 9}}"#,
                workload: #"{"kind": "edit", "steps": 20, "seed": 4, "operations": \#(operations)}"#,
                modes: #"["full", "incremental", "stable-lanes", "lock-lanes"]"#))
        }
        let all = try scenario(#"["insert", "delete", "height-change", "move", "move-section", "reload"]"#)
        let old = try scenario(#"["insert", "delete", "height-change"]"#)
        let traces = try EditWorkload(spec: all.workload.reader()).traces(scenario: all, items: 400)
        let oldTraces = try EditWorkload(spec: old.workload.reader()).traces(scenario: old, items: 400)
        #expect(traces.prefix(3).map(\.1.changes) == oldTraces.map(\.1.changes))
        var crossing = 0, within = 0, sectionMoves = 0, reloads = 0
        for (_, trace) in traces {
            for (step, change) in trace.changes.enumerated() {
                switch change {
                case .moveItem(let from, let to):
                    if from.section == to.section { within += 1 } else { crossing += 1 }
                    #expect((from.section != to.section) == (step % 2 == 1))
                case .moveSection(let from, let to): if from != to { sectionMoves += 1 }
                case .reloadItems(_, _, let items): if items.count == 1 { reloads += 1 }
                default: break
                }
            }
        }
        #expect(crossing == 10 && within == 10)
        #expect(sectionMoves > 10 && reloads == 20)
        let fixture = try EditWorkload(spec: all.workload.reader()).makeFixture(scenario: all, items: 400)
        for mode in WaterfallUpdateMode.allCases { _ = try fixture.makeMeasurement(mode: mode, verify: true) }
    }
}
