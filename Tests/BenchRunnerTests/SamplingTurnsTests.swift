import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// The order in which the runner timed operations: one entry per timed operation, by mode.
final class SamplingLog: @unchecked Sendable {
    var modes: [String] = []
    var sampling = false
}

/// Two modes of one consuming operation: `fast` spins about 10 µs, `slow` about 2 ms.
struct TurnsWorkload: Workload {
    enum Mode: String, WorkloadMode {
        case fast, slow
        var about: String { rawValue }
        var accuracyMetric: Metric? { nil }
        var bytesPerItem: Double { 0 }
        var reproduces: String { "a test" }
    }
    enum Operation: String, WorkloadOperation { case step }
    static let metrics: [Metric] = []
    static let kind = "turns"
    static let about = "a fast and a slow operation"
    let log: SamplingLog
    init(log: SamplingLog) { self.log = log }
    init(spec: JSONReader) throws(ScenarioError) { log = SamplingLog() }
    var operations: [Operation] { [.step] }
    func validate(_ scenario: Scenario) throws(ScenarioError) {}
    var footprint: WorkloadFootprint { .none }
    func makeFixture(scenario: Scenario, items: Int) throws -> TurnsFixture { TurnsFixture(log: log) }
}

final class TurnsFixture: WorkloadFixture {
    typealias Mode = TurnsWorkload.Mode
    typealias Operation = TurnsWorkload.Operation
    let log: SamplingLog
    init(log: SamplingLog) { self.log = log }

    final class Spin: ConsumingOperation {
        let mode: String, nanoseconds: UInt64, log: SamplingLog
        var step = 0
        init(mode: String, nanoseconds: UInt64, log: SamplingLog) {
            self.mode = mode
            self.nanoseconds = nanoseconds
            self.log = log
        }
        var traceLength: Int { 10 }
        func rewind() { step = 0 }
        func prepareNext() throws { if step == traceLength { step = 0 } }
        func runNext() throws -> Int {
            let start = MonotonicClock.now()
            var spins = 0
            while MonotonicClock.now() &- start < nanoseconds { spins += 1 }
            log.modes.append(mode)
            step += 1
            return spins
        }
    }

    func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        let spin = Spin(mode: mode.rawValue, nanoseconds: mode == .fast ? 10_000 : 2_000_000, log: log)
        return ModeMeasurement(operations: [TimedOperation(.step, .consuming(spin))])
    }

    func snapshot(mode: Mode) throws -> LayoutSnapshot { throw OperationMisuse.notPrepared }
}

@Suite struct SamplingTurnsTests {
    /// While the slow mode is still being sampled, the fast one runs many samples in a row (a turn
    /// of about 5 ms), not one sample between two of the slow one's: an operation sampled right
    /// after another mode's would start in that mode's caches.
    @Test func operationsSampleInTurns() throws {
        let scenario = try offsetsScenario(estimates: "[44]")
        let log = SamplingLog()
        var plan = try BenchmarkPlan(scenario: scenario, quick: true)
        plan.workload = TurnsWorkload(log: log)
        plan.modes = TurnsWorkload.Mode.allCases
        plan.itemCounts = [10]
        let policy = SamplingPolicy(
            minTime: .milliseconds(40), minSamples: 20, maxSamples: 100_000, maxTime: .milliseconds(200),
            warmup: .init(minTime: .zero, minRuns: 1, maxTime: .milliseconds(1)), countsAllocations: false)
        let outcome = BenchmarkRunner(plans: [plan], options: .init(policy: policy, progress: { _ in })).run()
        #expect(outcome.failures.isEmpty)
        // Runs of consecutive fast samples that a slow sample follows (the slow mode still running).
        var runs: [Int] = [], current = 0
        for mode in log.modes {
            if mode == "fast" { current += 1 } else { if current > 0 { runs.append(current) }; current = 0 }
        }
        #expect((runs.max() ?? 0) >= 50, "fast runs between slow samples: \(runs)")
        // Both modes still take several turns, so drift of the machine reaches both.
        #expect(runs.count >= 3, "fast runs between slow samples: \(runs)")
    }
}
