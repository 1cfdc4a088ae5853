@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// The parent hands its child processes the scenarios it resolved; the child reads no file.
@Suite struct ChildRequestTests {
    /// Every scenario of the suite, explicit items and data files included, arrives as parsed.
    @Test func everySuiteScenarioCrossesTheProcessBoundaryUnchanged() throws {
        let catalog = ScenarioCatalog(directory: shippedScenariosDirectory())
        let scenarios = try catalog.loadAll()
        #expect(scenarios.count >= 20)
        #expect(scenarios.contains { $0.data.isExplicit })
        for scenario in scenarios {
            let plan = try BenchmarkPlan(scenario: scenario)
            let request = ChildRequest.repetition(RepetitionRequest(
                plans: [PlanSelection(plan: plan)], policy: .quick, verify: true, repetition: 1))
            guard case .repetition(let decoded) = try ChildRequest.decode(request.encoded()) else {
                Issue.record("\(scenario.name): not a repetition request")
                continue
            }
            // As the plan resolved it: the file's scenario and the limit its templated rows are measured against.
            #expect(decoded.plans.first?.scenario == plan.scenario, "\(scenario.name)")
            var resolved = scenario
            resolved.templateHeightLimit = plan.scenario.templateHeightLimit
            #expect(plan.scenario == resolved, "\(scenario.name)")
            let again = try decoded.plans[0].plan()
            #expect(again.modeNames == plan.modeNames && again.itemCounts == plan.itemCounts, "\(scenario.name)")
        }
    }

    /// Explicit items with texts, spans and empty sections keep every value bit for bit.
    @Test func explicitItemsKeepEveryBit() throws {
        var items = ExplicitItems()
        var rng = SplitMix64(seed: 7)
        for section in 0..<5 {
            items.appendSection()
            for index in 0..<(section == 2 ? 0 : 300) {
                let text: ArraySlice<UInt8>? = index % 3 == 0 ? nil : ArraySlice("é \(index) “x”".utf8)
                items.append(width: rng.nextDouble() * 100, height: rng.nextDouble() * 500,
                             spansAllColumns: index % 7 == 0, text: text)
            }
        }
        let data = try JSONEncoder().encode(items)
        let decoded = try JSONDecoder().decode(ExplicitItems.self, from: data)
        #expect(decoded == items)
        #expect(decoded.heights.map(\.bitPattern) == items.heights.map(\.bitPattern))
    }

    /// Arrays of different lengths (a corrupted request) are refused, not trusted.
    @Test func inconsistentItemsAreRefused() throws {
        var items = ExplicitItems()
        items.appendSection()
        items.append(width: 1, height: 2, spansAllColumns: false)
        var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(items)) as? [String: Any])
        object["sectionCounts"] = [2]
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExplicitItems.self, from: data) }
    }

    /// The child measures what the parent loaded: the scenario file may be gone by then.
    @Test func theChildReadsNoScenarioFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-request-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/gone.json"
        try scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"sections": [[{"h": 40}, {"h": 50}, {"h": 60}]]}"#,
            workload: #"{"kind": "query", "frames": 20}"#,
            modes: #"["linear", "binary"]"#, items: nil
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let plan = try BenchmarkPlan(scenario: Scenario.load(path: file))
        let request = ChildRequest.repetition(RepetitionRequest(
            plans: [PlanSelection(plan: plan)], policy: .quick, verify: true, repetition: 1))
        try FileManager.default.removeItem(atPath: file)
        let output = try ChildProcessWork.run(ChildRequest.decode(request.encoded())) { _ in }
        let outcome = try JSONDecoder().decode(BenchmarkRunner.Outcome.self, from: output)
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(Set(outcome.series.map(\.mode)).isSuperset(of: ["linear", "binary"]))
    }

    /// What a repetition's child writes: one `GroupOutcome` line per group as it ends, and a
    /// progress record at each untimed step, the last of which says where a dead child was.
    @Test func aChildStreamsItsGroupsAndRecordsWhereItIs() throws {
        let plan = try BenchmarkPlan(scenario: parseScenario(scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"sections": [[{"h": 40}, {"h": 50}, {"h": 60}]]}"#,
            workload: #"{"kind": "query", "frames": 20}"#,
            modes: #"["linear", "binary"]"#, items: nil)))
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-test-progress-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var request = RepetitionRequest(plans: [PlanSelection(plan: plan)], policy: .quick, verify: true, repetition: 1)
        request.progressFile = log
        var lines: [Data] = []
        let returned = try ChildProcessWork.run(.repetition(request), progress: { _ in }, output: { lines.append($0) })
        #expect(returned.isEmpty)
        #expect(lines.count == 1)
        let group = try JSONDecoder().decode(GroupOutcome.self, from: try #require(lines.first))
        #expect(group.scenario == plan.scenario.name && group.outcome.failures.isEmpty)
        #expect(Set(group.outcome.series.map(\.mode)).isSuperset(of: ["linear", "binary"]))
        let last = try #require(ChildProgressLog.lastRecord(path: log))
        #expect(last.scenario == plan.scenario.name && last.items == 3)
        #expect(last.doing.hasPrefix("counting the allocations") || last.doing.hasPrefix("sampling"))
        // A record cut short by the death of its writer is skipped for the last whole one.
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"scenario":"x","ite"#.utf8))
        try handle.close()
        #expect(ChildProgressLog.lastRecord(path: log) == last)
    }
}
