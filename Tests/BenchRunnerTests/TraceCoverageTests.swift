import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// A mode whose operations (~0.5 ms each) walk traces far too long for one pass within the
/// sampling budget: one batchable, one consuming. Every operation is recorded.
struct SlowTraceWorkload: Workload {
    enum Mode: String, WorkloadMode {
        case slow
        var about: String { "a long trace of slow operations" }
        var accuracyMetric: Metric? { nil }
        var bytesPerItem: Double { 0 }
        var reproduces: String { "a test" }
    }
    enum Operation: String, WorkloadOperation { case batchable, consuming }
    static let metrics: [Metric] = []
    static let kind = "slow-trace"
    static let about = "synthetic"
    init() {}
    init(spec: JSONReader) throws(ScenarioError) {}
    var operations: [Operation] { [.batchable, .consuming] }
    func validate(_ scenario: Scenario) throws(ScenarioError) {}
    var footprint: WorkloadFootprint { .none }
    func makeFixture(scenario: Scenario, items: Int) throws -> SlowTraceFixture { SlowTraceFixture() }
}

final class SlowTraceFixture: WorkloadFixture {
    typealias Mode = SlowTraceWorkload.Mode
    func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<SlowTraceWorkload.Operation> {
        ModeMeasurement(operations: [TimedOperation(.batchable, .batchable(SlowOperation(length: 5_000))),
                                     TimedOperation(.consuming, .consuming(SlowOperation(length: 5_000)))])
    }
    func snapshot(mode: Mode) throws -> LayoutSnapshot {
        LayoutSnapshot(frames: LayoutFrames(), queryMode: .binary, viewport: Rect(x: 0, y: 0, width: 1, height: 1))
    }
}

final class SlowOperation: BatchableOperation, ConsumingOperation {
    let traceLength: Int
    private var step = 0
    init(length: Int) { traceLength = length }
    func rewind() { step = 0 }
    func prepareNext() { if step == traceLength { step = 0 } }
    func runNext() -> Int { run(count: 1) }
    func run(count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            let end = MonotonicClock.now() + 500_000
            while MonotonicClock.now() < end { checksum &+= 1 }
            step = (step + 1) % traceLength
        }
        return checksum
    }
}

@Suite struct TraceCoverageTests {
    /// Budget 20 ms, at least 5 samples: far from the 5,000 operations of one pass.
    static let policy = SamplingPolicy(
        minTime: .milliseconds(5), minSamples: 5, maxSamples: 10_000, maxTime: .milliseconds(20),
        warmup: .init(minTime: .milliseconds(1), minRuns: 1, maxTime: .milliseconds(5)))

    func plan() throws -> BenchmarkPlan {
        var plan = try BenchmarkPlan(scenario: parseScenario(scenarioJSON()), quick: true)
        plan.workload = SlowTraceWorkload()
        plan.modes = [SlowTraceWorkload.Mode.slow]
        return plan
    }

    /// An operation too slow for a whole pass stops at the budget on a prefix of its trace, which
    /// is recorded; a later repetition times exactly that prefix, and the allocation counts cover it.
    @Test func slowTracesAreTimedOnARecordedPrefixThatLaterRepetitionsRepeat() throws {
        let first = BenchmarkRunner(plans: [try plan()], options: .init(policy: Self.policy)).run()
        #expect(first.failures.isEmpty)
        #expect(first.coverage.map(\.operation).sorted() == ["batchable", "consuming"])
        for coverage in first.coverage {
            #expect(coverage.operations >= Self.policy.minSamples && coverage.operations < coverage.traceLength)
            #expect(coverage.operations == Self.policy.minSamples || coverage.operations.nonzeroBitCount == 1)
            let times = try #require(first.series.first { $0.operation == coverage.operation && $0.metric == .time }?.values)
            #expect(times.count == coverage.operations)
            let allocations = try #require(first.series.first { $0.operation == coverage.operation && $0.metric == .allocs }?.values)
            // Consuming: one value per operation of the prefix; batchable: one per pass over it,
            // as the entry's `steps` says (`compare` judges by it, `TracePrefixes`).
            if coverage.operation == "consuming" {
                #expect(allocations.count == coverage.operations)
                #expect(coverage.steps == .operations)
            } else {
                #expect((1...BenchmarkRunner.allocationCountPasses).contains(allocations.count))
                #expect(coverage.steps == .passes)
            }
        }
        // A later repetition with a shorter budget still times exactly the recorded prefix.
        var tight = Self.policy
        tight.maxTime = .milliseconds(1)
        let fixed = first.coverage.map { entry -> OperationCoverage in
            var entry = entry
            entry.operations += 7
            return entry
        }
        let later = BenchmarkRunner(plans: [try plan()], options: .init(policy: tight, verify: false, coverage: fixed)).run()
        for coverage in fixed {
            let times = try #require(later.series.first { $0.operation == coverage.operation && $0.metric == .time }?.values)
            #expect(times.count == coverage.operations)
        }
    }

    /// The prefix kept is 10 (the minimum) or a power of two above it, so that it rarely changes
    /// between runs.
    @Test func prefixesAreStable() {
        #expect([10, 11, 15, 16, 17, 31, 32, 100, 1566].map { OperationCoverage.stablePrefix(samples: $0, minimum: 10) }
            == [10, 10, 10, 16, 16, 16, 32, 64, 1024])
        #expect(OperationCoverage.stablePrefix(samples: 5, minimum: 5) == 5)
    }

    /// Instruction regions cover the same prefix: one region of `operations` operations for a
    /// batchable trace, one region per operation of the prefix for a consuming one.
    @Test func instructionRegionsCoverThePrefix() throws {
        let batchable = RecordingOperation(length: 10)
        var labels: [String] = []
        try OperationDriver(.batchable(batchable)).countInstructions(operations: 4) { step, count in
            labels.append("\(step)+\(count)"); return "x"
        }
        #expect(labels == ["0+4"])
        #expect(batchable.log == [0, 1, 2, 3, 0, 1, 2, 3])
        let consuming = RecordingOperation(length: 10)
        labels = []
        try OperationDriver(.consuming(consuming)).countInstructions(operations: 3) { step, count in
            labels.append("\(step)+\(count)"); return "x"
        }
        #expect(labels == ["0+1", "1+1", "2+1"])
        #expect(consuming.log == [0, 1, 2, 0, 1, 2])
    }
}
