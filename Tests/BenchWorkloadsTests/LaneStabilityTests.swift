import Testing
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import HarnessTestSupport
import LayoutEngine

/// The lane-stability metrics (docs/csv.md) on a case computed by hand, and how `compare`
/// judges them.
@Suite struct LaneStabilityTests {
    /// Two columns 50 pt wide, no spacing, heights 10, 20, 10, 10: leftmost puts them in columns
    /// 0, 1, 0, 0 (item 3 ties at 20 and goes left). Item 0 grows to 30 (the viewport, 100 pt
    /// tall, starts at item 0's top, 0, so every item is visible):
    /// - shortest-first re-places item 2 in column 1 (20 < 30) at 20–30 and item 3 in column 0
    ///   (30 = 30) at 30–40: one lane change (item 2), two items moved (2 and 3; item 0 only grew);
    ///   column bottoms 40 and 30: spread 10.
    /// - stable-lanes keeps columns 0, 1, 0, 0: items 2 and 3 move down by 20 (two moved, no lane
    ///   change); bottoms 50 and 20: spread 30. So does lock-lanes: the user has seen all four.
    @Test(arguments: WaterfallUpdateMode.allCases)
    func aHeightChangeByHand(mode: WaterfallUpdateMode) throws {
        let styles = [SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)))]
        let data = try LayoutData(sections: [[10, 20, 10, 10].map { ItemSize(height: $0) }])
        let trace = UpdateTrace(initial: data, changes: [.setHeight(section: 0, item: 0, height: 30)])
        let seen = try LaneStability.observe(
            mode: mode, bounds: Rect(x: 0, y: 0, width: 100, height: 100), styles: styles, trace: trace)
        let keepsLanes = mode == .stableLanes || mode == .lockLanes
        #expect(seen.laneChanges == [keepsLanes ? 0 : 1])
        #expect(seen.movedVisible == [2])
        #expect(seen.columnSpread == [keepsLanes ? 30 : 10])
    }

    /// A full-width item levels the columns: the gap above it counts, then the rest. Heights 10,
    /// 30 in columns 0 and 1, a full-width item (gap 30 − 10 = 20), then 5 in column 0: final
    /// bottoms 30 + 10 + 5 and 30 + 10, gap 5. An append of one item of height 1 (column 1) makes
    /// the end 45 and 41: 20 + 4. The viewport (100 pt, the content is 45) sees every old item,
    /// none of which moved.
    @Test func gapsAboveFullWidthItemsAreSummed() throws {
        let styles = [SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)))]
        let data = try LayoutData(sections: [[
            ItemSize(height: 10), ItemSize(height: 30), ItemSize(height: 10, spansAllColumns: true), ItemSize(height: 5),
        ]])
        let trace = UpdateTrace(initial: data, changes: [.appendItems(section: 0, items: [ItemSize(height: 1)])])
        let seen = try LaneStability.observe(
            mode: .incremental, bounds: Rect(x: 0, y: 0, width: 100, height: 100), styles: styles, trace: trace)
        #expect(seen.columnSpread == [24])
        #expect(seen.laneChanges == [0])
        #expect(seen.movedVisible == [0])
    }

    /// The viewport is where the change is: a height change far below the first screen moves
    /// what is on screen there, and only that.
    @Test func theViewportFollowsTheChange() throws {
        let styles = [SectionStyle(kind: .list)]
        let data = try LayoutData(sections: [Array(repeating: ItemSize(height: 10), count: 100)])
        // Item 50 grows: items 51… move by 10; the viewport (top 500, 100 pt) holds items 50–59.
        let trace = UpdateTrace(initial: data, changes: [.setHeight(section: 0, item: 50, height: 20)])
        let counter = LaneStability(styles: styles, viewportHeight: 100)
        var updater = try WaterfallUpdateMode.full.make(
            bounds: Rect(x: 0, y: 0, width: 100, height: 100), styles: styles, data: trace.initial)
        let before = LaneStability.Snapshot(updater.frames, data: updater.data)
        try updater.apply(trace.changes[0])
        let after = LaneStability.Snapshot(updater.frames, data: updater.data)
        #expect(counter.viewportTop(before, change: trace.changes[0]) == 500)
        #expect(counter.compare(before, after, change: trace.changes[0]) == (laneChanges: 0, movedVisible: 9))
    }

    /// The metrics the workloads record come from the verification's own replay of each trace
    /// (`UpdateOperation.verifyObservingLanes`): for every mode, on seeded inserts, deletes and
    /// height changes in a waterfall with full-width items, the same values, change by change,
    /// as a replay of their own.
    @Test(arguments: WaterfallUpdateMode.allCases)
    func theVerificationsReplayObservesWhatAReplayOfItsOwnDoes(mode: WaterfallUpdateMode) throws {
        let scenario = try plan(scenarioJSON(
            layout: #"{"kind": "waterfall", "columns": 3, "itemSpacing": 8, "lineSpacing": 6}"#,
            data: #"{"generate": {"sections": 2, "heights": {"distribution": "uniform", "min": 20, "max": 200}, "seed": 5, "fullWidthEvery": 7}}"#,
            workload: #"{"kind": "edit", "steps": 12, "operations": ["insert", "delete", "height-change"]}"#,
            modes: #"["\#(mode.rawValue)"]"#, items: "[400]")).scenario
        let fixture = try EditWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 400)
        let measured = try fixture.makeMeasurement(mode: mode, verify: true)
        #expect(fixture.traces.count == 3)
        for (operation, trace) in fixture.traces {
            let own = try LaneStability.observe(mode: mode, bounds: scenario.viewport, styles: fixture.styles, trace: trace)
            func recorded(_ metric: Metric) -> [Double] {
                measured.observations.first { $0.operation == operation && $0.metric == metric }?.values ?? []
            }
            #expect(own.laneChanges.count == trace.changes.count)
            #expect(recorded(.laneChanges) == own.laneChanges, "\(mode) \(operation)")
            #expect(recorded(.movedVisible) == own.movedVisible, "\(mode) \(operation)")
            #expect(recorded(.columnSpread) == own.columnSpread, "\(mode) \(operation)")
        }
    }

    /// Judged exactly, lower is better, in points or counts.
    @Test func judgedExactly() {
        for metric in [Metric.laneChanges, .movedVisible, .columnSpread] {
            #expect(metric.kind == .exact)
            #expect(metric.direction == .lowerIsBetter)
            #expect(metric.possibleValues.lowerBound == 0)
        }
        #expect(Metric.columnSpread.unit == "pt")
        #expect(Metric.laneChanges.unit == "count")
    }
}
