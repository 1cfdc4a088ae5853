@testable import BenchStatistics
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// A workload of two synthetic operations that each allocate one array and then spin for ~30 µs:
/// one batchable (but too slow to batch), one needing fresh state per run.
struct SpinningWorkload: Workload {
    enum Mode: String, WorkloadMode {
        case spin
        var about: String { "allocate one array, then spin" }
        var accuracyMetric: Metric? { nil }
        var bytesPerItem: Double { 0 }
        var reproduces: String { "a test" }
    }
    enum Operation: String, WorkloadOperation {
        case batchable, consuming
    }
    static let metrics: [Metric] = []
    static let kind = "spin"
    static let about = "synthetic"
    init() {}
    init(spec: JSONReader) throws(ScenarioError) {}
    var operations: [Operation] { [.batchable, .consuming] }
    func validate(_ scenario: Scenario) throws(ScenarioError) {}
    var footprint: WorkloadFootprint { .none }
    func makeFixture(scenario: Scenario, items: Int) throws -> SpinningFixture { SpinningFixture() }
}

final class SpinningFixture: WorkloadFixture {
    typealias Mode = SpinningWorkload.Mode
    func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<SpinningWorkload.Operation> {
        ModeMeasurement(operations: [TimedOperation(.batchable, .batchable(SpinningOperation())),
                                     TimedOperation(.consuming, .consuming(SpinningOperation()))])
    }
    func snapshot(mode: Mode) throws -> LayoutSnapshot {
        LayoutSnapshot(frames: LayoutFrames(), queryMode: .binary, viewport: Rect(x: 0, y: 0, width: 1, height: 1))
    }
}

final class SpinningOperation: BatchableOperation, ConsumingOperation {
    let traceLength = 3
    func rewind() {}
    func prepareNext() {}
    func runNext() -> Int { run(count: 1) }
    func run(count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            let array = [Int](repeating: checksum, count: 64 + checksum % 2)
            let end = MonotonicClock.now() + 30_000
            while MonotonicClock.now() < end { checksum &+= 1 }
            checksum &+= array.count
        }
        return checksum
    }
}

@Suite struct RunnerAllocationTests {
    /// Every operation gets measured allocation counts and bytes: batchable ones too slow to batch
    /// (batch 1) as well as ones that need fresh state per run.
    @Test func slowOperationsStillCountAllocations() throws {
        // jemalloc is linked in every build (scripts/test installs it): without it this must fail.
        try #require(AllocationCounters.isAvailable)
        var plan = try BenchmarkPlan(scenario: parseScenario(scenarioJSON()), quick: true)
        plan.workload = SpinningWorkload()
        plan.modes = [SpinningWorkload.Mode.spin]
        let runner = BenchmarkRunner(plans: [plan], options: .init(policy: .quick))
        let outcome = runner.run()
        #expect(outcome.failures.isEmpty)
        for operation in ["batchable", "consuming"] {
            for metric in [Metric.allocs, .allocBytes] {
                let series = outcome.series.first { $0.operation == operation && $0.metric == metric }
                let values = try #require(series?.values, "\(operation) \(metric) is unsupported")
                #expect(Quantile.median(values) >= (metric == .allocs ? 1 : 512), "\(operation) \(metric): \(values)")
            }
        }
    }
}
