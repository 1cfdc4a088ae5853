import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// The `offsets` and `reuse-scroll` workloads: every mode verifies on small lists, a wrong
/// structure is caught, bad scenario keys are errors naming their path, and the stacks allocate
/// nothing once warm.
@Suite struct OffsetsWorkloadTests {
    @Test func everyOffsetsModeVerifiesOnEveryTrace() throws {
        let scenario = try offsetsScenario()
        let fixture = try OffsetsFixture(scenario: scenario, items: 600, workload: scenario.workload.reader().offsetsWorkload())
        // The session has measurements, queries, middle edits and older pages at the top.
        var kinds = Set<String>()
        for event in fixture.session.events {
            switch event.kind {
            case .measure: kinds.insert("measure")
            case .query: kinds.insert("query")
            case .insert(let at, _): kinds.insert(at == 0 ? "top" : "insert")
            case .remove: kinds.insert("remove")
            case .resize: kinds.insert("resize")
            }
        }
        #expect(kinds == ["measure", "query", "top", "insert", "remove"])
        // Anchoring corrects the scroll for older pages and for rows measured above the viewport top.
        #expect(fixture.session.events.contains { if case .insert(0, _) = $0.kind { $0.correction > 0 } else { false } })
        #expect(fixture.session.events.contains { if case .measure = $0.kind { $0.correction != 0 } else { false } })
        for mode in RowOffsetsMode.allCases {
            let measurement = try fixture.makeMeasurement(mode: mode, verify: true)
            #expect(measurement.operations.map(\.operation) == OffsetsWorkload.Operation.allCases.filter { $0 != .resizeStorm })
            for timed in measurement.operations {
                switch timed.work {
                case .batchable(let operation): _ = try operation.run(count: 3)
                case .consuming(let operation):
                    for _ in 0..<(operation.traceLength + 2) {
                        try operation.prepareNext()
                        _ = try operation.runNext()
                    }
                }
            }
            _ = try fixture.snapshot(mode: mode)
        }
    }

    @Test func replayCatchesAStructureThatDisagrees() throws {
        let scenario = try offsetsScenario(estimates: "[44]")
        let fixture = try OffsetsFixture(scenario: scenario, items: 300, workload: scenario.workload.reader().offsetsWorkload())
        var heights = fixture.initialHeights
        heights[290] += 0.5  // one wrong estimate near the end
        var structure = try FenwickRowOffsets(heights: heights, estimate: 44)
        var correction = 0.0
        let problem = try OffsetsFixture.replay(fixture.session, on: &structure, anchor: .exact, totalCorrection: &correction)
        #expect(problem != nil)
        var right = try FenwickRowOffsets(heights: fixture.initialHeights, estimate: 44)
        #expect(try OffsetsFixture.replay(fixture.session, on: &right, anchor: .exact, totalCorrection: &correction) == nil)
    }

    static func anchorFixture(_ anchor: ScrollAnchorMode, items: Int = 600) throws -> OffsetsFixture {
        let scenario = try parseScenario(scenarioJSON(
            layout: offsetsListLayout, data: offsetsTextData,
            workload: #"{"kind": "offsets", "anchor": "\#(anchor.rawValue)", "frames": 120, "estimates": [44, 90], "steps": 20, "page": 7}"#,
            modes: #"["rebuild", "suffix", "fenwick", "btree"]"#))
        return try OffsetsFixture(scenario: scenario, items: items, workload: scenario.workload.reader().offsetsWorkload())
    }

    /// Every structure verifies under every anchoring rule (each correction held to
    /// `ScrollAnchorReference`), and the metrics show what each rule leaves on screen.
    @Test func everyAnchorVerifiesAndShowsWhatItLeavesOnScreen() throws {
        var jump: [ScrollAnchorMode: [OffsetsWorkload.Operation: Double]] = [:]
        var churn: [ScrollAnchorMode: [OffsetsWorkload.Operation: Double]] = [:]
        for anchor in ScrollAnchorMode.allCases {
            let fixture = try Self.anchorFixture(anchor)
            var observed: [[String]] = []
            for mode in RowOffsetsMode.allCases {
                let measurement = try fixture.makeMeasurement(mode: mode, verify: true)
                for timed in measurement.operations {
                    if case .batchable(let operation) = timed.work { _ = try operation.run(count: 2 * operation.traceLength + 1) }
                }
                let values = measurement.observations.filter { $0.metric == .anchorJump || $0.metric == .sizeChurn }
                observed.append(values.map { "\($0.operation.rawValue) \($0.metric.rawValue) \($0.values)" })
                for value in values where mode == .btree {
                    if value.metric == .anchorJump { jump[anchor, default: [:]][value.operation] = value.values[0] }
                    else { churn[anchor, default: [:]][value.operation] = value.values[0] }
                }
            }
            // The rule, not the structure, decides what the user sees.
            #expect(Set(observed.map { $0.joined(separator: ";") }).count == 1, "\(anchor)")
        }
        // Exact anchoring never moves the top row; the others do where their rule gives up.
        #expect(jump[.exact]!.values.allSatisfy { $0 == 0 })
        #expect(jump[.none]![.measureAndUpdate]! > 0 && jump[.none]![.jumpBack]! > 0 && jump[.none]![.rotate]! > 0)
        #expect(jump[.tanstack]![.measureAndUpdate] == 0 && jump[.tanstack]![.jumpBack] == 0)
        #expect(jump[.tanstack]![.rotate]! > 0, "TanStack leaves re-measured rows spanning the fold uncorrected")
        #expect(jump[.flutter]![.measureAndUpdate] == 0 && jump[.flutter]![.jumpBack] == 0)
        for anchor in [ScrollAnchorMode.none, .tanstack, .flutter] {
            #expect(jump[anchor]![.loadOlder]! > 0, "\(anchor): an older page at the top is not anchored")
        }
        // Flutter's extrapolated extent swings frame by frame.
        #expect(churn[.flutter]![.measureAndUpdate]! > 2 * churn[.exact]![.measureAndUpdate]!)
    }

    /// A trace recorded under one rule fails when a structure applies another.
    @Test func replayCatchesTheWrongRule() throws {
        let fixture = try Self.anchorFixture(.none)
        let trace = try #require(fixture.traces[.measureAndUpdate])
        var correction = 0.0
        var wrong = try CountedTreeRowOffsets(heights: fixture.initialHeights)
        #expect(try OffsetsFixture.replay(trace, on: &wrong, anchor: .exact, totalCorrection: &correction) != nil)
        var right = try CountedTreeRowOffsets(heights: fixture.initialHeights)
        #expect(try OffsetsFixture.replay(trace, on: &right, anchor: .none, totalCorrection: &correction) == nil)
    }

    /// A storm: a reverse one resizes every row once, a repeat one one row; both verify.
    @Test func stormsVerifyInEveryStructure() throws {
        for (storm, count) in [(#""storm": "reverse""#, 300), (#""storm": "repeat", "stormRow": 0, "stormResizes": 100"#, 100)] {
            let scenario = try parseScenario(scenarioJSON(
                layout: offsetsListLayout, data: offsetsTextData,
                workload: #"{"kind": "offsets", \#(storm), "operations": ["resize-storm"]}"#, modes: #"["btree"]"#))
            let fixture = try OffsetsFixture(scenario: scenario, items: 300, workload: scenario.workload.reader().offsetsWorkload())
            let trace = try #require(fixture.traces[.resizeStorm])
            #expect(trace.events[trace.timedFrom...].count == count)
            for mode in RowOffsetsMode.allCases { _ = try fixture.makeMeasurement(mode: mode, verify: true) }
        }
    }

    /// Issue 48, item 7: a scenario naming only the workload's kind at a million rows used to
    /// time the reverse storm (every row resized, each re-summing every row) and was stopped by
    /// the stall timeout. The defaults leave the storm out, and a storm that cannot finish is
    /// refused at load, naming the operation and a count that can.
    @Test func stormsThatCannotFinishAreRefusedAtLoad() throws {
        func offsets(_ workload: String, items: String) throws -> BenchmarkPlan {
            try plan(scenarioJSON(layout: offsetsListLayout, data: offsetsTextData, workload: workload, modes: #"["btree"]"#, items: items))
        }
        let defaults = try offsets(#"{"kind": "offsets"}"#, items: "[1000000]")
        #expect((defaults.workload as? OffsetsWorkload)?.operations == OffsetsWorkload.Operation.allCases.filter { $0 != .resizeStorm })
        expectPlanError({ try offsets(#"{"kind": "offsets", "operations": ["update", "resize-storm"]}"#, items: "[1000, 1000000]") },
                        path: "workload.operations[1]", "resize-storm (storm \"reverse\") resizes each of 1000000 rows once")
        expectPlanError({ try offsets(#"{"kind": "offsets", "operations": ["resize-storm"]}"#, items: "[100001]") },
                        path: "workload.operations[0]", "use at most 100000 items, or storm \"repeat\"")
        _ = try offsets(#"{"kind": "offsets", "operations": ["resize-storm"]}"#, items: "[100000]")
        expectPlanError({ try offsets(#"{"kind": "offsets", "storm": "repeat", "stormResizes": 1000000, "operations": ["resize-storm"]}"#, items: "[1000000]") },
                        path: "workload.operations[0]", "use at most 10000 stormResizes at 1000000 items, or at most 10000 items")
        _ = try offsets(#"{"kind": "offsets", "storm": "repeat", "stormResizes": 10000, "operations": ["resize-storm"]}"#, items: "[1000000]")
        // The suite's storms still load, at every count they sweep.
        let storms = try ScenarioCatalog.locate().loadAll().filter { $0.workload.kind == "offsets" && $0.name.contains("storm") }
        #expect(storms.count == 2)
        for scenario in storms { _ = try BenchmarkPlan(scenario: scenario) }
    }

    @Test func badOffsetsScenariosNameTheirPath() {
        func offsets(_ workload: String, modes: String = #"["fenwick"]"#) throws -> BenchmarkPlan {
            try plan(scenarioJSON(layout: offsetsListLayout, data: offsetsTextData, workload: workload, modes: modes))
        }
        expectPlanError({ try offsets(#"{"kind": "offsets", "estimates": [44, -1]}"#) }, path: "workload.estimates[1]", "-1")
        expectPlanError({ try offsets(#"{"kind": "offsets", "estimates": []}"#) }, path: "workload.estimates", "1 to 255")
        expectPlanError({ try offsets(#"{"kind": "offsets", "pages": 3}"#) }, path: "workload.pages", "unknown key")
        expectPlanError({ try offsets(#"{"kind": "offsets", "anchor": "pinned"}"#) }, path: "workload.anchor", "tanstack")
        expectPlanError({ try offsets(#"{"kind": "offsets", "anchor": 1}"#) }, path: "workload.anchor", "expected one of")
        expectPlanError({ try offsets(#"{"kind": "offsets", "storm": "forward"}"#) }, path: "workload.storm", "reverse")
        expectPlanError({ try offsets(#"{"kind": "offsets", "stormResizes": 0}"#) }, path: "workload.stormResizes", "1")
        expectPlanError({ try offsets(#"{"kind": "offsets", "stormRow": -1}"#) }, path: "workload.stormRow", "0")
        expectPlanError({ try offsets(#"{"kind": "offsets", "storm": "repeat", "stormRow": 5000000, "operations": ["resize-storm"]}"#) }, path: "workload.stormRow", "does not exist")
        expectPlanError({ try offsets(#"{"kind": "offsets"}"#, modes: #"["stacks"]"#) }, path: "modes[0]", "stacks")
        expectPlanError({ try offsets(#"{"kind": "reuse-scroll", "identifiers": 0}"#, modes: #"["stacks"]"#) },
                        path: "workload.identifiers", "1 to 255")
        // Heights that are not measured from text cannot be measured while scrolling.
        do {
            let scenario = try parseScenario(scenarioJSON(layout: offsetsListLayout, workload: #"{"kind": "offsets"}"#, modes: #"["btree"]"#))
            _ = try OffsetsFixture(scenario: scenario, items: 100, workload: scenario.workload.reader().offsetsWorkload())
            Issue.record("expected an error for non-text heights")
        } catch let error as ScenarioError {
            #expect(error.path == "data.generate.heights")
            #expect(error.description.hasPrefix("test.json: data.generate.heights"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    static func reuseFixture(items: Int = 3000) throws -> ReuseScrollFixture {
        let scenario = try parseScenario(scenarioJSON(
            layout: offsetsListLayout, workload: #"{"kind": "reuse-scroll", "frames": 300, "identifiers": 3}"#,
            modes: #"["none", "set-scan", "stacks"]"#))
        return try ReuseScrollFixture(scenario: scenario, items: items, workload: ReuseScrollWorkload(spec: scenario.workload.reader()))
    }

    @Test func reuseModesVerifyAndTheStacksCreateTheFewestCells() throws {
        let fixture = try Self.reuseFixture()
        var created: [String: Double] = [:]
        for mode in ReuseMode.allCases {
            let measurement = try fixture.makeMeasurement(mode: mode, verify: true)
            created[mode.rawValue] = measurement.observations.first { $0.metric == .cellsCreated }?.values.first
            let dequeues = measurement.observations.first { $0.metric == .dequeues }?.values.first ?? 0
            #expect(dequeues > Double(fixture.mostVisible))
        }
        #expect(created["stacks"] == Double(fixture.cellsNeeded))
        #expect(created["set-scan"] == Double(fixture.cellsNeeded))
        #expect(created["none"]! > 10 * Double(fixture.cellsNeeded))
        #expect(fixture.cellsNeeded >= fixture.mostVisible && fixture.cellsNeeded <= 3 * fixture.mostVisible)
    }

    @Test func warmStacksAllocateNothingPerScrollStep() throws {
        let counter = try #require(ThreadAllocationCounter())
        let fixture = try Self.reuseFixture()
        guard case .batchable(let operation) = try fixture.makeMeasurement(mode: .stacks, verify: false).operations[0].work else {
            Issue.record("scroll-step should be batchable")
            return
        }
        _ = try operation.run(count: 600)
        let before = counter.allocatedBytes()
        _ = try operation.run(count: 3000)
        #expect(counter.allocatedBytes() - before == 0)
        // The counter does see allocations: DZTableView's per-frame dictionary copy makes some.
        guard case .batchable(let setScan) = try fixture.makeMeasurement(mode: .setScan, verify: false).operations[0].work else {
            Issue.record("set-scan's scroll-step should be batchable")
            return
        }
        _ = try setScan.run(count: 600)
        let setScanBefore = counter.allocatedBytes()
        _ = try setScan.run(count: 3000)
        #expect(counter.allocatedBytes() - setScanBefore > 0)
    }
}
