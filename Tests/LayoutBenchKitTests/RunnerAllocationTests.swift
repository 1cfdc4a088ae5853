import Testing
@testable import LayoutBenchKit
import LayoutEngine

/// A workload of two synthetic operations that each allocate one array and then spin for ~30 µs:
/// one batchable (but too slow to batch), one needing fresh state per run.
struct SpinningWorkload: Workload {
    static let kind = "spin"
    static let modes: [(name: String, summary: String)] = [("spin", "allocate one array, then spin")]
    static let summary = "synthetic"
    init() {}
    init(spec: JSONReader) throws(ScenarioError) {}
    var operations: [String] { ["batchable", "consuming"] }
    func makeFixture(scenario: Scenario, items: Int) throws -> any WorkloadFixture { SpinningFixture() }
}

final class SpinningFixture: WorkloadFixture {
    func makeMeasurement(mode: String, verify: Bool) throws -> ModeMeasurement {
        ModeMeasurement(cases: [SpinningOperation(operation: "batchable", maximumBatch: .max),
                                SpinningOperation(operation: "consuming", maximumBatch: 1)])
    }
}

final class SpinningOperation: MeasuredOperation {
    let operation: String
    let maximumBatch: Int
    init(operation: String, maximumBatch: Int) {
        self.operation = operation
        self.maximumBatch = maximumBatch
    }
    func prepareForRun(count: Int) {}
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
        guard AllocationCounters.isAvailable else { return }
        var plan = try BenchmarkPlan(scenario: parseScenario(scenarioJSON()), quick: true)
        plan.workload = SpinningWorkload()
        plan.modes = ["spin"]
        let runner = BenchmarkRunner(plans: [plan], options: .init(policy: .quick))
        let outcome = runner.run()
        #expect(outcome.failures.isEmpty)
        for operation in ["batchable", "consuming"] {
            for metric in ["allocs", "alloc_bytes"] {
                let series = outcome.series.first { $0.operation == operation && $0.metric == metric }
                let values = try #require(series?.values, "\(operation) \(metric) is unsupported")
                #expect(Quantile.median(values) >= (metric == "allocs" ? 1 : 512), "\(operation) \(metric): \(values)")
            }
        }
    }
}
