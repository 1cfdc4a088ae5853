import BenchPlatform
import BenchResults
import BenchWorkloads

/// Drives one operation of one mode along its trace: the single loop behind the timed samples
/// and the callgrind regions, so that time and instructions describe the same operations.
///
/// - Warm-up runs the operation (and calibrates a batch size for batchable ones), then rewinds
///   to the first operation of the trace.
/// - Samples then walk the trace **in order**: a batchable operation times the next `batch`
///   operations per sample (wrapping at the end of the trace), a consuming one the next single
///   operation, its state restored untimed when the trace is used up. Every operation of the
///   trace is timed, in the order of the trace, pass after pass.
/// - `countInstructions` warms up with one pass, rewinds, and counts one whole pass: one region
///   for a batchable trace (divided by its length), one region per operation for a consuming one
///   (in one instrumented span, so the simulated caches carry over from one operation to the
///   next). So instructions cover one pass of the operations that time covers, up to the first
///   `countedOperationsLimit` of them.
/// - `countAllocations` counts allocations over whole passes, untimed: reading jemalloc's global
///   count flushes the thread cache, which would put its refill in the timed region.
/// - An operation too slow for one pass of its trace within the sampling budget is timed on a
///   prefix of the trace (`SamplingPolicy.isDone`); `countInstructions` and `countAllocations`
///   then take `operations`, the length of that prefix, so that every metric covers the same
///   operations.
final class OperationDriver {
    let work: OperationWork
    /// Operations per timed sample (1 for consuming operations).
    private(set) var batch = 1

    init(_ work: OperationWork) {
        self.work = work
    }

    /// Untimed: warm-up and batch calibration, then back to the start of the trace.
    func warmUp(sampler: Sampler) throws {
        switch work {
        case .batchable(let operation):
            var failure: (any Error)?
            batch = sampler.calibrate {
                guard failure == nil else { return 0 }
                do { return try operation.run(count: 1) } catch { failure = error; return 0 }
            }
            if let failure { throw failure }
            operation.rewind()
        case .consuming(let operation):
            let start = MonotonicClock.now()
            var runs = 0, accumulator = 0
            repeat {
                try operation.prepareNext()
                accumulator &+= try operation.runNext()
                runs += 1
            } while !sampler.policy.warmupIsOver(runs: runs, elapsedNanoseconds: MonotonicClock.now() &- start)
            blackhole(accumulator)
            operation.rewind()
        }
    }

    /// One timed sample of the next operations of the trace (time and allocated bytes per
    /// operation). The sampler must not count allocations (see the type's documentation).
    func sample(sampler: Sampler) throws -> Sample {
        switch work {
        case .batchable(let operation):
            let batch = self.batch
            var failure: (any Error)?
            var sample = sampler.measureOne(batch: 1) {
                do { return try operation.run(count: batch) } catch { failure = error; return 0 }
            }
            if let failure { throw failure }
            sample.timeNanoseconds /= Double(batch)
            sample.allocatedBytes /= Double(batch)
            sample.batch = batch
            return sample
        case .consuming(let operation):
            try operation.prepareNext()
            var failure: (any Error)?
            let sample = sampler.measureOne(setup: { () }) { _ in
                do { return try operation.runNext() } catch { failure = error; return 0 }
            }
            if let failure { throw failure }
            return sample
        }
    }

    /// Allocations per operation, untimed: one value per pass of a batchable trace (`passes`
    /// passes, fewer once the passes so far took `budgetNanoseconds`; at least one), one per
    /// operation of a consuming trace (every covered operation, and up to `passes` in all while
    /// within the budget; `SamplingPolicy.allocationCountBudget`). `operations` limits a pass to
    /// the prefix of the trace that time covered (nil: the whole trace).
    func countAllocations(passes: Int, operations limit: Int? = nil, budgetNanoseconds: UInt64 = .max) throws -> [Double]? {
        guard AllocationCounters.isAvailable else { return nil }
        var counts: [Double] = []
        switch work {
        case .batchable(let operation):
            let length = Swift.min(limit ?? operation.traceLength, operation.traceLength)
            let start = MonotonicClock.now()
            operation.rewind()
            for _ in 0..<passes {
                guard let before = AllocationCounters.allocationCount() else { return nil }
                blackhole(try operation.run(count: length))
                guard let after = AllocationCounters.allocationCount() else { return nil }
                counts.append(Double(after &- before) / Double(length))
                if limit != nil { operation.rewind() }
                if MonotonicClock.now() &- start >= budgetNanoseconds { break }
            }
        case .consuming(let operation):
            let length = Swift.min(limit ?? operation.traceLength, operation.traceLength)
            let start = MonotonicClock.now()
            operation.rewind()
            for counted in 0..<Swift.max(length, passes) {
                // Past the covered operations, more values only while within the budget.
                if counted >= length && MonotonicClock.now() &- start >= budgetNanoseconds { break }
                try operation.prepareNext()
                guard let before = AllocationCounters.allocationCount() else { return nil }
                blackhole(try operation.runNext())
                guard let after = AllocationCounters.allocationCount() else { return nil }
                counts.append(Double(after &- before))
            }
        }
        return counts
    }

    /// Under callgrind: one warm-up pass, then one counted pass (see the type's documentation).
    /// `label(step, count)` names the region of `count` operations starting at `step`.
    /// `operations` limits both passes to the prefix of the trace that time covered (nil: all).
    func countInstructions(operations limit: Int? = nil, label: (_ step: Int, _ count: Int) -> String) throws {
        switch work {
        case .batchable(let operation):
            let length = Swift.min(limit ?? operation.traceLength, operation.traceLength, Self.countedOperationsLimit)
            operation.rewind()
            blackhole(try operation.run(count: length))
            operation.rewind()
            blackhole(try CallgrindRegion.measure(label: label(0, length)) { try operation.run(count: length) })
        case .consuming(let operation):
            let length = Swift.min(limit ?? operation.traceLength, operation.traceLength, Self.countedOperationsLimit)
            operation.rewind()
            for _ in 0..<length {
                try operation.prepareNext()
                blackhole(try operation.runNext())
            }
            operation.rewind()
            try CallgrindRegion.span { span in
                for step in 0..<length {
                    try operation.prepareNext()
                    blackhole(try span.measure(label: label(step, 1)) { try operation.runNext() })
                }
            }
        }
    }

    /// The most operations of a trace the callgrind pass counts: a deterministic prefix, the same
    /// for every binary, so the pass stays within minutes where a trace walks every item (a
    /// measurement per cell at 100,000 items) while the instructions per operation, which are
    /// exact, need no more to be compared.
    /// `compare` knows it too (`OperationCoverage.callgrindLimit`): prefixes beyond it count alike.
    static let countedOperationsLimit = OperationCoverage.callgrindLimit
}
