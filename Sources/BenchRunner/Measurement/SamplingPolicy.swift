/// How long and how often `Sampler` runs an operation.
///
/// - Warm-up: runs the operation until it has run `warmup.minRuns` times *and* `warmup.minTime` has
///   passed, or until `warmup.maxTime` has passed (after at least one run), whichever comes first.
///   For batched operations the batch size is calibrated during warm-up.
/// - Sampling: takes samples until *both* `minSamples` and `minTime` are reached, then stops; it also
///   stops at `maxSamples` or once `maxTime` has passed. `minSamples` is a floor that `maxTime` cuts
///   short only down to `slowMinSamples` (so a slow operation still yields `slowMinSamples` samples,
///   and one whose samples are cheaper than `maxTime / minSamples` yields `minSamples`).
/// - Batching: an operation without per-run setup is repeated `batch` times per sample so that one
///   sample lasts at least `targetSampleTime` (clock reads then cost < 1% of it).
package struct SamplingPolicy: Sendable, Equatable, Codable {
    package struct Warmup: Sendable, Equatable, Codable {
        package var minTime: Duration
        package var minRuns: Int
        package var maxTime: Duration

        package init(minTime: Duration = .milliseconds(50), minRuns: Int = 3, maxTime: Duration = .seconds(1)) {
            self.minTime = minTime
            self.minRuns = max(1, minRuns)
            self.maxTime = maxTime
        }
    }

    package var minTime: Duration
    package var minSamples: Int
    /// The floor `maxTime` cuts `minSamples` down to: an operation whose samples (with their
    /// untimed preparation) have taken `maxTime` stops once it has this many. Its median is one
    /// process's value, and a run's interval comes from the repetitions' medians, whose spread
    /// counts the samples' own scatter too; for an operation that slow the processes differ by far
    /// more than its samples inside one do (docs/methodology.md, Budget). Equal to `minSamples`
    /// unless a policy says otherwise.
    package var slowMinSamples: Int
    package var maxSamples: Int
    package var maxTime: Duration
    package var warmup: Warmup
    /// The shortest timed region of a batched sample (default 10 µs).
    package var targetSampleTime: Duration
    /// Whether to read jemalloc's global allocation count around every sample (microseconds each,
    /// outside the timed region). Byte counters, a single load, are always read.
    package var countsAllocations: Bool

    package init(
        minTime: Duration = .milliseconds(500),
        minSamples: Int = 30,
        slowMinSamples: Int? = nil,
        maxSamples: Int = 10_000,
        maxTime: Duration = .seconds(5),
        warmup: Warmup = Warmup(),
        targetSampleTime: Duration = .microseconds(10),
        countsAllocations: Bool = true
    ) {
        self.minTime = minTime
        self.minSamples = max(1, minSamples)
        self.slowMinSamples = min(max(1, slowMinSamples ?? minSamples), self.minSamples)
        self.maxSamples = max(self.minSamples, maxSamples)
        self.maxTime = maxTime
        self.warmup = warmup
        self.targetSampleTime = targetSampleTime
        self.countsAllocations = countsAllocations
    }

    /// Full runs: ≥ 30 samples and ≥ 0.5 s per operation, at most 10,000 samples or 5 s.
    package static let standard = SamplingPolicy()

    /// One of several repetitions of a full run: ≥ 5 samples and ≥ 50 ms per operation, at most
    /// 2,000 samples or 1.5 s (the runner also times one whole pass of the trace when it fits the
    /// 1.5 s), and 3 samples once 1.5 s have passed; warmed up for 3 runs and 10 ms, or 150 ms
    /// (one run of an operation slower than that). The summary's interval comes from the medians of
    /// the repetitions (5 by default), and whole processes differ by more than the samples inside
    /// one scatter, so the floor buys little once an operation has dozens of samples
    /// (docs/methodology.md, Budget). `maxTime` also decides which prefix of a trace too slow to
    /// cover is timed (`isDone`), so the operations counted for allocations and instructions do not
    /// move with `minTime` or the warm-up.
    package static let repetition = SamplingPolicy(
        minTime: .milliseconds(50),
        minSamples: 5,
        slowMinSamples: 3,
        maxSamples: 2_000,
        maxTime: .milliseconds(1_500),
        warmup: Warmup(minTime: .milliseconds(10), minRuns: 3, maxTime: .milliseconds(150))
    )

    /// The timed rounds of `scripts/compare-commits` (`run --brief`, hidden): ≥ 3 samples and ≥ 20 ms
    /// per operation, at most 500 samples (a fast operation's batches of 10 µs then span 5 ms,
    /// some thirty duet turns a side), warmed up by one run and 5 ms; 0.5 s for covering a trace
    /// (an operation too slow for its whole trace in that time is timed on a prefix, the same in
    /// both commits of a comparison, and shorter than a full run's). Whole processes differ by more than the samples inside one scatter (an
    /// operation of 150 ms repeats within 0.5%; the median of 200 batched samples moves far less than
    /// a process does), so a comparison buys more certainty from more, shorter processes, and the
    /// rounds it merges and judges stay small.
    package static let brief = SamplingPolicy(
        minTime: .milliseconds(20),
        minSamples: 3,
        maxSamples: 500,
        maxTime: .milliseconds(500),
        warmup: Warmup(minTime: .milliseconds(5), minRuns: 1, maxTime: .milliseconds(300))
    )

    /// Smoke runs (`--quick`): ≥ 5 samples and ≥ 20 ms, at most 200 samples or 0.2 s; 10 ms warm-up.
    package static let quick = SamplingPolicy(
        minTime: .milliseconds(20),
        minSamples: 5,
        maxSamples: 200,
        maxTime: .milliseconds(200),
        warmup: Warmup(minTime: .milliseconds(10), minRuns: 1, maxTime: .milliseconds(100))
    )

    /// Whether a caller that interleaves samples itself should take another one, given how many it has
    /// and how long sampling has taken so far (nanoseconds).
    package func wantsMoreSamples(count: Int, elapsedNanoseconds: UInt64) -> Bool {
        if count < slowMinSamples { return true }
        if count >= maxSamples || elapsedNanoseconds >= maxTime.nanoseconds { return false }
        if count < minSamples { return true }
        return elapsedNanoseconds < minTime.nanoseconds
    }

    /// Whether an interleaving caller is done with an operation whose trace must be covered: once
    /// the whole trace was timed and the policy wants no more samples, or — for operations so slow
    /// that one pass of the trace does not fit the time budget (`maxTime`) — once the budget is
    /// spent and at least `minSamples` samples were taken (not `slowMinSamples`: which prefix is
    /// timed must not depend on that floor, so that allocations and instructions count the same
    /// operations whatever it is). The operations timed are then a prefix
    /// of the trace, which the caller records (`OperationCoverage`) so that later repetitions, the
    /// allocation counts and the instruction counts cover exactly the same operations.
    package func isDone(count: Int, elapsedNanoseconds: UInt64, coversTrace: Bool) -> Bool {
        if coversTrace { return !wantsMoreSamples(count: count, elapsedNanoseconds: elapsedNanoseconds) }
        return count >= minSamples && elapsedNanoseconds >= maxTime.nanoseconds
    }

    /// How long the allocation count of one operation takes more values than it needs: a count
    /// repeats exactly for the same code and input, so one pass of a batchable trace (or each
    /// operation time covered, of a consuming one) is the measurement, and further values, up to
    /// `OperationCoverage.allocationPasses` in all, only show that it repeats. They are taken
    /// while the count has run for less than `minTime`, what a fast operation's sampling takes at
    /// least, so that counting a slow operation costs one pass, not as many as fit in `maxTime`.
    package var allocationCountBudget: Duration { minTime }

    /// Whether warm-up is over after `runs` runs taking `elapsedNanoseconds`.
    package func warmupIsOver(runs: Int, elapsedNanoseconds: UInt64) -> Bool {
        if runs < 1 { return false }
        if elapsedNanoseconds >= warmup.maxTime.nanoseconds { return true }
        return runs >= warmup.minRuns && elapsedNanoseconds >= warmup.minTime.nanoseconds
    }
}

extension Duration {
    /// The duration in whole nanoseconds (negative durations clamp to 0).
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
