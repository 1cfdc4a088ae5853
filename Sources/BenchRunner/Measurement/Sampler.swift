import BenchPlatform

/// Runs an operation under a `SamplingPolicy` and records time, allocated bytes and allocation counts
/// per operation (docs/methodology.md: warm-up first, results consumed, robust statistics later).
///
/// Two kinds of operation:
/// - **Repeatable** (`() -> Int`): the same work can run again on the same state (a rect query, a
///   lookup). Short ones are batched: one sample runs the operation `batch` times, chosen during
///   warm-up so that a sample lasts ≥ `policy.targetSampleTime`; values are divided by `batch`.
/// - **Consuming** (`setup: () -> State`, `(inout State) -> Int`): every run needs fresh state
///   (prepare a layout from scratch, apply appends to a fresh copy). `setup` runs outside the timed
///   region; the batch is always 1. Beware copy-on-write: `setup: { base }` shares `base`'s storage
///   and the copy would then happen inside the timed region; make `setup` build or deep-copy the state.
///
/// Every operation returns an `Int` (a checksum, a count) that the sampler accumulates and passes to
/// `blackhole`, so the optimiser must keep the work.
///
/// `measure` runs a whole warm-up-then-sample cycle. Callers that interleave modes (docs/methodology.md) call
/// `calibrate`/`warmUp` once per operation and then `measureOne` in their own loop, using
/// `policy.wantsMoreSamples(count:elapsedNanoseconds:)` as the stop rule.
///
/// The sampler reads the allocation counters of the thread it was created on: create and use it on
/// one thread (it is not `Sendable`).
package struct Sampler {
    package let policy: SamplingPolicy
    private let counter: ThreadAllocationCounter?

    package init(policy: SamplingPolicy = .standard) {
        self.policy = policy
        self.counter = ThreadAllocationCounter()
    }

    // MARK: Repeatable operations

    /// Warm-up, batch calibration, then samples until the policy is satisfied.
    package func measure(_ operation: () -> Int) -> [Sample] {
        measure(batch: calibrate(operation), operation)
    }

    /// Samples of a fixed batch size (no warm-up) until the policy is satisfied.
    package func measure(batch: Int, _ operation: () -> Int) -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(min(policy.maxSamples, 4096))
        let start = MonotonicClock.now()
        var carriedCount: UInt64? = nil
        while policy.wantsMoreSamples(count: samples.count, elapsedNanoseconds: MonotonicClock.now() &- start) {
            let reallocates = samples.count == samples.capacity
            let (sample, endCount) = takeSample(batch: batch, startCount: carriedCount, operation)
            samples.append(sample)
            // Appending into reserved capacity does not allocate, so the end count of this sample is
            // the start count of the next; after a reallocation it has to be read again.
            carriedCount = reallocates ? nil : endCount
        }
        return samples
    }

    /// Warms the operation up (SamplingPolicy.Warmup) and returns the batch size that makes one sample
    /// last at least `policy.targetSampleTime` (1 for operations slower than that).
    package func calibrate(_ operation: () -> Int) -> Int {
        let target = max(policy.targetSampleTime.nanoseconds, 1)
        let start = MonotonicClock.now()
        var batch = 1
        var runs = 0
        var accumulator = 0
        var perOperation: [Double] = []
        perOperation.reserveCapacity(64)
        while true {
            let t0 = MonotonicClock.now()
            for _ in 0..<batch { accumulator &+= operation() }
            let elapsed = MonotonicClock.now() &- t0
            runs += batch
            let calibrated = elapsed >= target || batch >= Self.maxBatch
            if calibrated {
                if perOperation.count == 64 { perOperation.removeFirst(32) }
                perOperation.append(Double(elapsed) / Double(batch))
            } else {
                batch *= 2
            }
            if calibrated && policy.warmupIsOver(runs: runs, elapsedNanoseconds: MonotonicClock.now() &- start) {
                break
            }
        }
        blackhole(accumulator)
        perOperation.sort()
        let typical = max(perOperation[perOperation.count / 2], 0.01)
        let wanted = (Double(target) / typical).rounded(.up)
        return Int(min(max(wanted, 1), Double(Self.maxBatch)))
    }

    /// One sample of `batch` back-to-back runs of the operation.
    package func measureOne(batch: Int, _ operation: () -> Int) -> Sample {
        takeSample(batch: batch, startCount: nil, operation).sample
    }

    // MARK: Consuming operations (fresh state per run)

    /// Warm-up, then one sample per fresh state until the policy is satisfied (batch 1).
    package func measure<State>(setup: () -> State, _ operation: (inout State) -> Int) -> [Sample] {
        warmUp(setup: setup, operation)
        var samples: [Sample] = []
        samples.reserveCapacity(min(policy.maxSamples, 4096))
        let start = MonotonicClock.now()
        while policy.wantsMoreSamples(count: samples.count, elapsedNanoseconds: MonotonicClock.now() &- start) {
            samples.append(measureOne(setup: setup, operation))
        }
        return samples
    }

    /// Runs setup + operation until the warm-up rule of the policy is met.
    package func warmUp<State>(setup: () -> State, _ operation: (inout State) -> Int) {
        let start = MonotonicClock.now()
        var runs = 0
        var accumulator = 0
        repeat {
            var state = setup()
            accumulator &+= operation(&state)
            runs += 1
        } while !policy.warmupIsOver(runs: runs, elapsedNanoseconds: MonotonicClock.now() &- start)
        blackhole(accumulator)
    }

    /// One sample: `setup()` untimed, then `operation` on that state, timed. The state is destroyed
    /// after the timed region. When the policy counts allocations, the count read just before the
    /// timed region empties this thread's jemalloc cache, so the operation's first allocation of each
    /// size class refills it (negligible for the millisecond operations this mode is for).
    package func measureOne<State>(setup: () -> State, _ operation: (inout State) -> Int) -> Sample {
        var state = setup()
        let startCount = policy.countsAllocations ? AllocationCounters.allocationCount() : nil
        let bytes0 = counter?.allocatedBytes()
        let t0 = MonotonicClock.now()
        let result = operation(&state)
        let t1 = MonotonicClock.now()
        let bytes1 = counter?.allocatedBytes()
        let endCount = startCount == nil ? nil : AllocationCounters.allocationCount()
        blackhole(result)
        return Self.sample(batch: 1, t0: t0, t1: t1, bytes0: bytes0, bytes1: bytes1, count0: startCount, count1: endCount)
    }

    // MARK: Internals

    static let maxBatch = 1 << 24

    private func takeSample(batch: Int, startCount: UInt64?, _ operation: () -> Int) -> (sample: Sample, endCount: UInt64?) {
        precondition(batch >= 1, "batch must be at least 1")
        let count0 = policy.countsAllocations ? (startCount ?? AllocationCounters.allocationCount()) : nil
        var accumulator = 0
        if count0 != nil {
            // Reading the count flushed this thread's jemalloc cache; one untimed run refills it so that
            // the timed runs do not pay for the refill. It is inside the counting window, so the
            // allocation count is divided by batch + 1.
            accumulator &+= operation()
        }
        let bytes0 = counter?.allocatedBytes()
        let t0 = MonotonicClock.now()
        for _ in 0..<batch { accumulator &+= operation() }
        let t1 = MonotonicClock.now()
        let bytes1 = counter?.allocatedBytes()
        let count1 = count0 == nil ? nil : AllocationCounters.allocationCount()
        blackhole(accumulator)
        var sample = Self.sample(batch: batch, t0: t0, t1: t1, bytes0: bytes0, bytes1: bytes1, count0: nil, count1: nil)
        if let count0, let count1 { sample.allocations = Double(count1 &- count0) / Double(batch + 1) }
        return (sample, count1)
    }

    private static func sample(
        batch: Int, t0: UInt64, t1: UInt64,
        bytes0: UInt64?, bytes1: UInt64?, count0: UInt64?, count1: UInt64?
    ) -> Sample {
        let n = Double(batch)
        let bytes = bytes0.flatMap { b0 in bytes1.map { Double($0 &- b0) / n } } ?? .nan
        let count = count0.flatMap { c0 in count1.map { Double($0 &- c0) / n } } ?? .nan
        return Sample(timeNanoseconds: Double(t1 &- t0) / n, allocatedBytes: bytes, allocations: count, batch: batch)
    }
}
