import BenchPlatform
import BenchResults

extension HarnessOverhead {
    /// Measures the overhead with `policy` (by default a short policy: 200 samples).
    package static func measure(policy: SamplingPolicy = SamplingPolicy(
        minTime: .milliseconds(20), minSamples: 200, maxSamples: 200, maxTime: .seconds(2),
        warmup: .init(minTime: .milliseconds(10), minRuns: 1, maxTime: .milliseconds(100))
    )) -> HarnessOverhead {
        let clock = MonotonicClock.readCost()
        let byteRead = Self.byteCounterReadCost()
        let countRead = Self.allocationCountReadCost()

        let sampler = Sampler(policy: policy)
        // An opaque operation, so that the optimiser cannot fold the loop away (as it could `{ 0 }`).
        let batch = sampler.calibrate { opaqueZero() }
        let start = MonotonicClock.now()
        let samples = sampler.measure(batch: batch) { opaqueZero() }
        let wall = Double(MonotonicClock.now() &- start)
        let timed = samples.reduce(0.0) { $0 + $1.timeNanoseconds * Double($1.batch) }
        let untimed = max(0, wall - timed) / Double(max(samples.count, 1))
        var times = samples.map(\.timeNanoseconds)
        times.sort()
        let empty = times.isEmpty ? 0 : times[times.count / 2]
        return HarnessOverhead(
            clockReadNanoseconds: clock,
            byteCounterReadNanoseconds: byteRead,
            allocationCountReadNanoseconds: countRead,
            emptyOperationNanoseconds: empty,
            emptyOperationBatch: batch,
            untimedPerSampleNanoseconds: untimed,
            amortisedPerOperationNanoseconds: empty + untimed / Double(batch)
        )
    }

    static func byteCounterReadCost() -> Double {
        guard let counter = ThreadAllocationCounter() else { return 0 }
        var costs: [Double] = []
        var sink: UInt64 = 0
        let reads = 10_000
        for _ in 0..<21 {
            let t0 = MonotonicClock.now()
            for _ in 0..<reads { sink &+= counter.allocatedBytes() }
            costs.append(Double(MonotonicClock.now() &- t0) / Double(reads))
        }
        blackhole(sink)
        costs.sort()
        return costs[costs.count / 2]
    }

    static func allocationCountReadCost() -> Double {
        guard AllocationCounters.isAvailable else { return 0 }
        var costs: [Double] = []
        var sink: UInt64 = 0
        for _ in 0..<21 {
            let t0 = MonotonicClock.now()
            for _ in 0..<20 { sink &+= AllocationCounters.allocationCount() ?? 0 }
            costs.append(Double(MonotonicClock.now() &- t0) / 20)
        }
        blackhole(sink)
        costs.sort()
        return costs[costs.count / 2]
    }
}

/// Returns 0 through a function the optimiser may neither inline nor analyse.
@inline(never)
@_optimize(none)
func opaqueZero() -> Int { 0 }
