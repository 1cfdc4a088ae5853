import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// The `offsets` and `reuse-scroll` workloads: every mode verifies on small lists, a wrong
/// structure is caught, bad scenario keys are errors naming their path, and the stacks allocate
/// nothing once warm.
@Suite struct OffsetsWorkloadTests {
    static let listLayout = #"{"kind": "list", "lineSpacing": 0}"#
    static let textData = #"{"generate": {"heights": {"distribution": "text", "minWords": 3, "maxWords": 30}, "seed": 5}}"#

    static func offsetsScenario(estimates: String = "[44, 90]") throws -> Scenario {
        try parseScenario(scenarioJSON(
            layout: listLayout, data: textData,
            workload: #"{"kind": "offsets", "frames": 120, "estimates": \#(estimates), "steps": 20, "page": 7}"#,
            modes: #"["rebuild", "suffix", "fenwick", "btree"]"#))
    }

    @Test func everyOffsetsModeVerifiesOnEveryTrace() throws {
        let scenario = try Self.offsetsScenario()
        let fixture = try OffsetsFixture(scenario: scenario, items: 600, workload: scenario.workload.reader().offsetsWorkload())
        // The session has measurements, queries, middle edits and older pages at the top.
        var kinds = Set<String>()
        for event in fixture.session.events {
            switch event.kind {
            case .measure: kinds.insert("measure")
            case .query: kinds.insert("query")
            case .insert(let at, _): kinds.insert(at == 0 ? "top" : "insert")
            case .remove: kinds.insert("remove")
            }
        }
        #expect(kinds == ["measure", "query", "top", "insert", "remove"])
        // Anchoring corrects the scroll for older pages and for rows measured above the viewport top.
        #expect(fixture.session.events.contains { if case .insert(0, _) = $0.kind { $0.correction > 0 } else { false } })
        #expect(fixture.session.events.contains { if case .measure = $0.kind { $0.correction != 0 } else { false } })
        for mode in RowOffsetsMode.allCases {
            let measurement = try fixture.makeMeasurement(mode: mode, verify: true)
            #expect(measurement.operations.map(\.operation) == OffsetsWorkload.Operation.allCases)
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
        let scenario = try Self.offsetsScenario(estimates: "[44]")
        let fixture = try OffsetsFixture(scenario: scenario, items: 300, workload: scenario.workload.reader().offsetsWorkload())
        var heights = fixture.initialHeights
        heights[290] += 0.5  // one wrong estimate near the end
        var structure = try FenwickRowOffsets(heights: heights, estimate: 44)
        var correction = 0.0
        let problem = try OffsetsFixture.replay(fixture.session, on: &structure, totalCorrection: &correction)
        #expect(problem != nil)
        var right = try FenwickRowOffsets(heights: fixture.initialHeights, estimate: 44)
        #expect(try OffsetsFixture.replay(fixture.session, on: &right, totalCorrection: &correction) == nil)
    }

    @Test func badOffsetsScenariosNameTheirPath() {
        func offsets(_ workload: String, modes: String = #"["fenwick"]"#) throws -> BenchmarkPlan {
            try plan(scenarioJSON(layout: Self.listLayout, data: Self.textData, workload: workload, modes: modes))
        }
        expectPlanError({ try offsets(#"{"kind": "offsets", "estimates": [44, -1]}"#) }, path: "workload.estimates[1]", "-1")
        expectPlanError({ try offsets(#"{"kind": "offsets", "estimates": []}"#) }, path: "workload.estimates", "1 to 255")
        expectPlanError({ try offsets(#"{"kind": "offsets", "pages": 3}"#) }, path: "workload.pages", "unknown key")
        expectPlanError({ try offsets(#"{"kind": "offsets"}"#, modes: #"["stacks"]"#) }, path: "modes[0]", "stacks")
        expectPlanError({ try offsets(#"{"kind": "reuse-scroll", "identifiers": 0}"#, modes: #"["stacks"]"#) },
                        path: "workload.identifiers", "1 to 255")
        // Heights that are not measured from text cannot be measured while scrolling.
        do {
            let scenario = try parseScenario(scenarioJSON(layout: Self.listLayout, workload: #"{"kind": "offsets"}"#, modes: #"["btree"]"#))
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
            layout: listLayout, workload: #"{"kind": "reuse-scroll", "frames": 300, "identifiers": 3}"#,
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

extension JSONReader {
    /// The offsets workload of a parsed scenario.
    func offsetsWorkload() throws(ScenarioError) -> OffsetsWorkload { try OffsetsWorkload(spec: self) }
}
