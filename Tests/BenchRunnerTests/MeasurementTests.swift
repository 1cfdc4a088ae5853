import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

// Serialized: the global allocation count sees every thread, and timing tests should not compete.
@Suite(.serialized) struct MeasurementTests {
    @Test func clockIsMonotonicAndCheap() {
        let a = MonotonicClock.now()
        let b = MonotonicClock.now()
        #expect(b >= a)
        let cost = MonotonicClock.readCost()
        #expect(cost > 0 && cost.isFinite)
    }

    @Test func jemallocIsTheAllocator() throws {
        #expect(AllocationCounters.isAvailable)
        let version = try #require(AllocationCounters.version)
        #expect(version.hasPrefix("5."))
        #expect(AllocationCounters.isRoutingSwiftAllocations())
    }

    @Test func byteCounterSeesASwiftArray() throws {
        let counter = try #require(ThreadAllocationCounter())
        let before = counter.allocatedBytes()
        let array = [Double](repeating: 2, count: 1000)
        let after = counter.allocatedBytes()
        blackhole(array)
        #expect(after - before >= 8000)
    }

    @Test func allocationCountSeesAllocations() throws {
        let before = try #require(AllocationCounters.allocationCount())
        var keep: [[Int]] = []
        for i in 0..<100 { keep.append([i, i + 1]) }
        let after = try #require(AllocationCounters.allocationCount())
        blackhole(keep)
        #expect(after - before >= 100)
    }

    @Test func samplerBatchesATrivialOperation() {
        let sampler = Sampler(policy: .quick)
        var x = 0
        let samples = sampler.measure { x &+= 1; return x }
        #expect(samples.count >= SamplingPolicy.quick.minSamples)
        #expect(samples.count <= SamplingPolicy.quick.maxSamples)
        #expect(samples.allSatisfy { $0.batch > 1 })
        // No bound on the time itself: timings on a shared machine are noise, never asserted.
        #expect(samples.allSatisfy { $0.timeNanoseconds >= 0 && $0.timeNanoseconds.isFinite })
        // The operation does not allocate.
        #expect(samples.allSatisfy { $0.allocatedBytes == 0 })
    }

    @Test func samplerCountsAllocationsPerOperation() {
        let sampler = Sampler(policy: .quick)
        let samples = sampler.measure { [Int](repeating: 1, count: 100).count }
        let bytes = samples.map(\.allocatedBytes).sorted()
        let counts = samples.map(\.allocations).sorted()
        // 100 Ints + the array header: one allocation of at least 800 bytes per operation.
        #expect(bytes[bytes.count / 2] >= 800 && bytes[bytes.count / 2] < 2000)
        #expect(counts[counts.count / 2] >= 1 && counts[counts.count / 2] < 1.5)
    }

    @Test func samplerWithFreshStatePerRun() {
        let policy = SamplingPolicy(minTime: .milliseconds(5), minSamples: 8, maxSamples: 20, maxTime: .seconds(1),
                                    warmup: .init(minTime: .milliseconds(1), minRuns: 2, maxTime: .milliseconds(50)))
        let sampler = Sampler(policy: policy)
        var setups = 0
        let samples = sampler.measure(setup: { () -> [Int] in
            setups += 1
            return Array(0..<10_000)
        }) { state in
            state.append(contentsOf: 0..<1000)  // outgrows the capacity: one reallocation in the timed region
            return state.count
        }
        #expect(samples.count >= 8 && samples.count <= 20)
        #expect(samples.allSatisfy { $0.batch == 1 })
        #expect(setups >= samples.count + 2)
        // Growing the 10,000-Int array reallocates it once: ≥ 88 KB allocated in the timed region.
        #expect(samples.allSatisfy { $0.allocatedBytes >= 88_000 })
        let one = sampler.measureOne(setup: { 3 }) { $0 * 2 }
        #expect(one.batch == 1 && one.allocatedBytes == 0)
    }

    @Test func policyStopRule() {
        let policy = SamplingPolicy(minTime: .milliseconds(10), minSamples: 5, maxSamples: 8, maxTime: .milliseconds(100))
        #expect(policy.wantsMoreSamples(count: 4, elapsedNanoseconds: 1_000_000_000))  // min count is a floor
        #expect(policy.wantsMoreSamples(count: 5, elapsedNanoseconds: 1_000_000))      // min time not reached
        #expect(!policy.wantsMoreSamples(count: 5, elapsedNanoseconds: 20_000_000))    // both reached
        #expect(!policy.wantsMoreSamples(count: 8, elapsedNanoseconds: 1_000_000))     // max count
        #expect(!policy.wantsMoreSamples(count: 6, elapsedNanoseconds: 200_000_000))   // max time
        #expect(!policy.warmupIsOver(runs: 0, elapsedNanoseconds: 10_000_000_000))
        #expect(policy.warmupIsOver(runs: 1, elapsedNanoseconds: 2_000_000_000))
        #expect(!policy.warmupIsOver(runs: 2, elapsedNanoseconds: 60_000_000))
        #expect(policy.warmupIsOver(runs: 3, elapsedNanoseconds: 60_000_000))
        #expect(Duration.milliseconds(1.5).nanoseconds == 1_500_000)
    }

    /// `maxTime` cuts the sample floor down to `slowMinSamples`, and only where the trace is
    /// covered: which prefix of a trace too slow to cover is timed still needs `minSamples`.
    @Test func slowOperationsStopAtTheLowerFloorOnceTheTimeCapPassed() {
        let policy = SamplingPolicy(minTime: .milliseconds(10), minSamples: 5, slowMinSamples: 3, maxSamples: 8, maxTime: .milliseconds(100))
        #expect(policy.wantsMoreSamples(count: 2, elapsedNanoseconds: 1_000_000_000))   // the lower floor holds
        #expect(!policy.wantsMoreSamples(count: 3, elapsedNanoseconds: 200_000_000))    // past the cap: 3 are enough
        #expect(policy.wantsMoreSamples(count: 3, elapsedNanoseconds: 50_000_000))      // under the cap: the floor is 5
        #expect(policy.wantsMoreSamples(count: 4, elapsedNanoseconds: 99_000_000))
        #expect(!policy.wantsMoreSamples(count: 5, elapsedNanoseconds: 20_000_000))
        #expect(policy.isDone(count: 3, elapsedNanoseconds: 200_000_000, coversTrace: true))
        #expect(!policy.isDone(count: 3, elapsedNanoseconds: 200_000_000, coversTrace: false))
        #expect(policy.isDone(count: 5, elapsedNanoseconds: 200_000_000, coversTrace: false))
        // Without it, the floor is `minSamples`, which the cap does not cut; it never exceeds it.
        #expect(SamplingPolicy(minSamples: 5, maxTime: .milliseconds(100)).wantsMoreSamples(count: 4, elapsedNanoseconds: 1_000_000_000))
        #expect(SamplingPolicy(minSamples: 5, slowMinSamples: 9).slowMinSamples == 5)
        #expect(SamplingPolicy.repetition.slowMinSamples == 3 && SamplingPolicy.repetition.minSamples == 5)
        #expect(SamplingPolicy.brief.slowMinSamples == SamplingPolicy.brief.minSamples)
        #expect(SamplingPolicy.quick.slowMinSamples == SamplingPolicy.quick.minSamples)
    }

    /// Which prefix of a trace too slow to cover is timed decides what allocations and instructions
    /// count (the exact track), so it must not move with the floor or the warm-up, which only time
    /// sees: the repetition policy with another floor and warm-up ends a prefix at the same point.
    @Test func thePrefixOfASlowTraceDoesNotMoveWithTheFloorOrTheWarmUp() {
        var other = SamplingPolicy.repetition
        other.minTime = .milliseconds(150)
        other.warmup = SamplingPolicy.Warmup(minTime: .milliseconds(30), minRuns: 3, maxTime: .milliseconds(500))
        for count in [1, 3, 4, 5, 6, 16, 200, 2_000] {
            for milliseconds: UInt64 in [1, 20, 49, 50, 149, 150, 1_499, 1_500, 3_000] {
                let elapsed = milliseconds * 1_000_000
                #expect(SamplingPolicy.repetition.isDone(count: count, elapsedNanoseconds: elapsed, coversTrace: false)
                    == other.isDone(count: count, elapsedNanoseconds: elapsed, coversTrace: false), "\(count) samples, \(milliseconds) ms")
            }
        }
    }

    @Test func harnessOverheadIsSmall() {
        let overhead = HarnessOverhead.measure()
        print("harness overhead:", overhead)
        #expect(overhead.emptyOperationBatch > 1)
        // Release builds measure ~2 ns timed + ~4 ns untimed per empty operation. The figure itself
        // is not asserted: a timing on a shared machine is noise (run.json records it per run).
        #expect(overhead.amortisedPerOperationNanoseconds.isFinite && overhead.amortisedPerOperationNanoseconds > 0)
    }

    @Test func residentMemory() {
        let memory = PeakMemory.residentBytes()
        #expect(memory.peakBytes > 1_000_000)
        #if os(Linux)
        let current = memory.currentBytes ?? 0
        #expect(current > 0 && current <= memory.peakBytes)
        #expect(PeakMemory.ruMaxRSSBytes() > 1_000_000)
        #expect(PeakMemory.statusField("VmHWM:\t   12 kB\nVmRSS:\t 5 kB\n", "VmRSS:") == 5 * 1024)
        #endif
    }
}
