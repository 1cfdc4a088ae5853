import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// A trace of `length` operations that records which step each operation ran and when a fresh
/// state was made.
final class RecordingOperation: BatchableOperation, ConsumingOperation {
    let traceLength: Int
    var step = 0
    var started = false
    var log: [Int] = []
    var freshStates = 0
    /// Throw from runNext on this call (counting from 1), to test failures.
    var failOnCall: Int?
    private(set) var calls = 0

    init(length: Int) { traceLength = length }

    func rewind() { step = 0; started = false }
    func run(count: Int) -> Int {
        for _ in 0..<count {
            log.append(step)
            step = (step + 1) % traceLength
        }
        return count
    }
    func prepareNext() {
        if !started || step == traceLength { step = 0; started = true; freshStates += 1 }
    }
    func runNext() throws -> Int {
        calls += 1
        if calls == failOnCall { throw OperationMisuse.notPrepared }
        log.append(step)
        step += 1
        return step
    }
}

@Suite struct OperationDriverTests {
    let sampler = Sampler(policy: SamplingPolicy(
        minTime: .milliseconds(1), minSamples: 5, maxSamples: 50, maxTime: .milliseconds(50),
        warmup: .init(minTime: .milliseconds(1), minRuns: 7, maxTime: .milliseconds(20)), countsAllocations: false))

    /// After warm-up, the timed samples walk the trace from its first operation, in order,
    /// skipping nothing (the old warm-up advanced the trace, so samples saw alternating windows).
    @Test func batchableSamplesWalkTheWholeTraceInOrder() throws {
        let operation = RecordingOperation(length: 7)
        let driver = OperationDriver(.batchable(operation))
        try driver.warmUp(sampler: sampler)
        operation.log.removeAll()
        for _ in 0..<10 { _ = try driver.sample(sampler: sampler) }
        #expect(operation.log.count == 10 * driver.batch)
        #expect(operation.log == (0..<operation.log.count).map { $0 % 7 })
    }

    @Test func consumingSamplesWalkTheTraceAndRestartFresh() throws {
        let operation = RecordingOperation(length: 4)
        let driver = OperationDriver(.consuming(operation))
        try driver.warmUp(sampler: sampler)
        operation.log.removeAll()
        operation.freshStates = 0
        for _ in 0..<10 { _ = try driver.sample(sampler: sampler) }
        #expect(operation.log == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
        #expect(operation.freshStates == 3)
    }

    /// Instructions cover one whole pass: one region for a batchable trace, one per operation
    /// for a consuming one, after an uncounted pass.
    @Test func instructionRegionsCoverOnePass() throws {
        let batchable = RecordingOperation(length: 5)
        var labels: [String] = []
        try OperationDriver(.batchable(batchable)).countInstructions { step, count in
            labels.append("\(step)+\(count)"); return "x"
        }
        #expect(labels == ["0+5"])
        #expect(batchable.log == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])

        let consuming = RecordingOperation(length: 3)
        labels = []
        try OperationDriver(.consuming(consuming)).countInstructions { step, count in
            labels.append("\(step)+\(count)"); return "x"
        }
        #expect(labels == ["0+1", "1+1", "2+1"])
        #expect(consuming.log == [0, 1, 2, 0, 1, 2])
    }

    /// Allocation counts take one pass of a batchable trace and every covered operation of a
    /// consuming one, then more values (up to the passes asked for) only while within the budget.
    @Test func allocationCountsTakeMoreValuesOnlyWithinTheBudget() throws {
        guard AllocationCounters.isAvailable else { return }
        for (budget, passes, operations) in [(UInt64(0), 1, 3), (.max, 5, 5)] {
            let batchable = RecordingOperation(length: 3)
            let counts = try OperationDriver(.batchable(batchable)).countAllocations(passes: 5, budgetNanoseconds: budget)
            #expect(counts?.count == passes, "budget \(budget): batchable")
            #expect(batchable.log == Array(repeating: [0, 1, 2], count: passes).flatMap { $0 })
            let consuming = RecordingOperation(length: 3)
            let values = try OperationDriver(.consuming(consuming)).countAllocations(passes: 5, budgetNanoseconds: budget)
            #expect(values?.count == operations, "budget \(budget): consuming")
        }
        // A prefix of a consuming trace: its operations, whatever the budget.
        let prefix = RecordingOperation(length: 8)
        #expect(try OperationDriver(.consuming(prefix)).countAllocations(passes: 5, operations: 6, budgetNanoseconds: 0)?.count == 6)
    }

    @Test func aFailingOperationThrows() throws {
        let operation = RecordingOperation(length: 4)
        let driver = OperationDriver(.consuming(operation))
        try driver.warmUp(sampler: sampler)
        operation.failOnCall = operation.calls + 5
        #expect(throws: OperationMisuse.self) {
            for _ in 0..<20 { _ = try driver.sample(sampler: sampler) }
        }
    }
}
