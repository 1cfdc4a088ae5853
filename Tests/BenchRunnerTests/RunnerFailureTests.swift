import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// Three modes: one that works, one that fails verification, one whose operation fails while
/// it is being sampled.
struct FlakyWorkload: Workload {
    enum Mode: String, WorkloadMode {
        case good, wrong, failing
        var about: String { rawValue }
        var accuracyMetric: Metric? { nil }
        var bytesPerItem: Double { 0 }
        var reproduces: String { "a test" }
    }
    enum Operation: String, WorkloadOperation { case step }
    static let metrics: [Metric] = []
    static let kind = "flaky"
    static let about = "synthetic"
    init() {}
    init(spec: JSONReader) throws(ScenarioError) {}
    var operations: [Operation] { [.step] }
    func validate(_ scenario: Scenario) throws(ScenarioError) {}
    var footprint: WorkloadFootprint { .none }
    func makeFixture(scenario: Scenario, items: Int) throws -> FlakyFixture { FlakyFixture() }
}

final class FlakyFixture: WorkloadFixture {
    typealias Mode = FlakyWorkload.Mode
    func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<FlakyWorkload.Operation> {
        if mode == .wrong && verify { throw VerificationError(scenario: "s", mode: mode.rawValue, items: 1, detail: "off by 0.5 pt") }
        let operation = RecordingOperation(length: 3)
        if mode == .failing { operation.failOnCall = 40 }
        return ModeMeasurement(operations: [TimedOperation(.step, .consuming(operation))],
                               observations: [Observation(.step, .recall, verify ? [1] : [])])
    }
    func snapshot(mode: Mode) throws -> LayoutSnapshot {
        LayoutSnapshot(frames: LayoutFrames(), queryMode: .binary, viewport: Rect(x: 0, y: 0, width: 1, height: 1))
    }
}

@Suite struct RunnerFailureTests {
    func flakyPlan() throws -> BenchmarkPlan {
        var plan = try BenchmarkPlan(scenario: parseScenario(scenarioJSON()), quick: true)
        plan.workload = FlakyWorkload()
        plan.modes = FlakyWorkload.Mode.allCases
        return plan
    }

    /// A mode that fails verification, or fails while sampled, gets no row of any metric.
    @Test func failedModesGetNoRows() throws {
        let outcome = BenchmarkRunner(plans: [try flakyPlan()], options: .init(policy: .quick)).run()
        #expect(Set(outcome.failures.map(\.mode)) == ["wrong", "failing"])
        #expect(Set(outcome.series.map(\.mode)) == ["good", ""])
        #expect(Set(outcome.series.filter { $0.mode == "good" }.map(\.metric)) == [.time, .allocBytes, .allocs, .recall])
    }

    /// `--verify-only` verifies every mode and reports the one that fails, but times and counts
    /// nothing, so the failing operation is never run: its only series are what the checks of
    /// the modes that passed observed (the first repetition's, as a run that verifies apart from
    /// its timed repetitions writes them).
    @Test func verifyOnlyChecksWithoutMeasuring() throws {
        let outcome = BenchmarkRunner(plans: [try flakyPlan()], options: .init(policy: .quick, verifyOnly: true)).run()
        #expect(outcome.failures.map(\.mode) == ["wrong"])
        #expect(Set(outcome.series.map(\.metric)) == [.recall])
        #expect(Set(outcome.series.map(\.mode)) == ["good", "failing"])
        #expect(Set(outcome.series.map(\.repetition)) == [1])
    }

    /// Repetitions fill the `repetition` column; the failed modes stay out of later repetitions.
    @Test func repetitionsAreRecorded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var session = try RunSession(
            plans: [try flakyPlan()], quick: true, instructions: false, outDirectory: directory, repetition: 1,
            repetitions: 3, isolation: .inProcess, commandLine: ["layout-bench", "run"],
            executable: CommandLine.arguments[0], progress: { _ in })
        let result = try session.run()
        #expect(result.failures.count == 2)
        let samples = try CSVParser.parseTable(try ResultSet.readSamples(directory + "/samples.csv.gz")).records
        let times = samples.filter { $0["metric"] == "time" }
        #expect(Set(times.map { $0["mode"]! }) == ["good"])
        #expect(Set(times.map { $0["repetition"]! }) == ["1", "2", "3"])
        // Verification observations come from the first repetition only.
        #expect(Set(samples.filter { $0["metric"] == "recall" }.map { $0["repetition"]! }) == ["1"])
        let summary = try CSVParser.parseTable(String(contentsOfFile: directory + "/summary.csv", encoding: .utf8)).records
        let time = try #require(summary.first { $0["metric"] == "time" })
        #expect(Int(time["samples"]!)! == times.count)
        #expect(Double(time["ci_low"]!)! <= Double(time["median"]!)! && Double(time["median"]!)! <= Double(time["ci_high"]!)!)
    }
}
