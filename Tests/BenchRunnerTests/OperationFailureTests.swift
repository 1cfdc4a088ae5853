import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// A timed `offsets` operation whose structure rejects a step (a row past its end, a NaN offset)
/// throws instead of trapping, and the runner reports the mode as failed with no rows of any metric.
struct BrokenOffsetsWorkload: Workload {
    enum Mode: String, WorkloadMode {
        case sound, rowPastTheEnd = "row-past-the-end", nanOffset = "nan-offset"
        var about: String { rawValue }
        var accuracyMetric: Metric? { nil }
        var bytesPerItem: Double { 0 }
        var reproduces: String { "a test" }
    }
    typealias Operation = OffsetsWorkload.Operation
    static let metrics: [Metric] = []
    static let kind = "broken-offsets"
    static let about = "offsets operations with an injected failure"
    let offsets: OffsetsWorkload
    init(offsets: OffsetsWorkload) { self.offsets = offsets }
    init(spec: JSONReader) throws(ScenarioError) { offsets = try OffsetsWorkload(spec: spec) }
    var operations: [Operation] { [.update, .rowAtOffset] }
    func validate(_ scenario: Scenario) throws(ScenarioError) {}
    var footprint: WorkloadFootprint { .none }
    func makeFixture(scenario: Scenario, items: Int) throws -> BrokenOffsetsFixture {
        BrokenOffsetsFixture(offsets: try OffsetsFixture(scenario: scenario, items: items, workload: offsets))
    }
}

final class BrokenOffsetsFixture: WorkloadFixture {
    typealias Mode = BrokenOffsetsWorkload.Mode
    typealias Operation = OffsetsWorkload.Operation
    let offsets: OffsetsFixture
    init(offsets: OffsetsFixture) { self.offsets = offsets }

    func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        let heights = offsets.initialHeights
        // The injected failure: too few rows for the trace's rows, or a NaN among the offsets.
        let structure = try FenwickRowOffsets(heights: mode == .rowPastTheEnd ? Array(heights.prefix(3)) : heights, estimate: 44)
        var queries = offsets.queryOffsets
        if mode == .nanOffset { queries[queries.count / 2] = .nan }
        return ModeMeasurement(operations: [
            TimedOperation(.update, .batchable(UpdateOffsetsOperation(structure: structure, trace: offsets.traces[.update]!))),
            TimedOperation(.rowAtOffset, .batchable(RowAtOffsetOperation(structure: structure, offsets: queries))),
        ])
    }

    func snapshot(mode: Mode) throws -> LayoutSnapshot { try offsets.snapshot(mode: .fenwick) }
}

@Suite struct OperationFailureTests {
    @Test func aThrowingTimedOperationFailsItsModeOnly() throws {
        let scenario = try offsetsScenario(estimates: "[44]")
        var plan = try BenchmarkPlan(scenario: scenario, quick: true)
        plan.workload = BrokenOffsetsWorkload(offsets: try scenario.workload.reader().offsetsWorkload())
        plan.modes = BrokenOffsetsWorkload.Mode.allCases
        plan.itemCounts = [300]
        var lines: [String] = []
        let outcome = BenchmarkRunner(plans: [plan], options: .init(policy: .quick, progress: { lines.append($0) })).run()
        #expect(Set(outcome.failures.map(\.mode)) == ["row-past-the-end", "nan-offset"])
        #expect(outcome.failures.allSatisfy { $0.items == 300 && !$0.message.isEmpty })
        // No rows of any metric for the failed modes; the sound one has its times.
        #expect(Set(outcome.series.map(\.mode)) == ["sound", ""])
        #expect(Set(outcome.series.filter { $0.mode == "sound" && $0.metric == .time }.map(\.operation)) == ["update", "row-at-offset"])
        #expect(lines.contains { $0.contains("row-past-the-end") && $0.contains("FAILED") })
    }
}
