import BenchPlatform
import BenchStatistics
import BenchResults

/// The verdict of one compared row (docs/command-line.md).
package enum Verdict: String, Sendable, CaseIterable, Comparable {
    /// A scenario × mode × items group whose mode failed on a side (failures.csv): nothing of it
    /// is judged (`ComparisonReport.failed`).
    case failed
    case regressed
    case noisy
    case improved
    case unchanged

    /// Worst first: failed, regressed, noisy, improved, unchanged.
    package static func < (a: Verdict, b: Verdict) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One scenario × mode × items × operation × metric present on both sides, judged.
///
/// Statistical metrics (time) measured in at least two repetitions per side are judged on the
/// repetitions' centres (`RepetitionRatio`: paired by repetition number where both sides carry the
/// same numbers, else Welch), because whole processes differ by more than samples inside one do. A
/// repetition's centre is the geometric midmean of its samples (`ProcessCentre`), or its median
/// where a sample of the row is zero.
/// With θ the row's threshold: `regressed` when the ratio is at least 1 + ¾θ and the whole interval
/// at `changeConfidence` (99%) lies above 1 + θ/2 (a slowdown of about the threshold, and surely more
/// than half of it); `improved` symmetrically (both only from `Options.repetitionsForChange`
/// repetitions a side: 5 for `compare`, 8 for compare-commits); `unchanged` when the whole
/// interval at `confidence` (95%) lies within 1 ± θ; `noisy` otherwise. A change is claimed at the stricter confidence because a whole-suite comparison judges
/// some 600 timed rows at once: at 95% a few of them would cry wolf in every A/A comparison. A row whose processes spread by more than
/// the metric's threshold allows (`RepetitionRatio.processSpread`: what is left once pairing has
/// cancelled the machine's spells, taken at its upper 75% confidence bound, `spreadConfidence`) is
/// judged at θ = `spreadFactor` times that spread (its `threshold` in the table): a row that moves ±8% between processes of one
/// build cannot bear a 5% verdict, and says so instead of staying undecided. A row measured in more
/// processes than `spreadRepetitions` (5) averages their spread: its spread counts √(5/n) of
/// itself, so that θ stays the same multiple of the mean's standard error. Twenty pairs of a row
/// that spreads 3% resolve what five pairs of a row that spreads 1.5% do.
///
/// With one repetition on a side, the rule after criterion.rs but on medians: `regressed` only when
/// the Mann–Whitney U p-value is below alpha AND the whole bootstrap interval of median(head) /
/// median(base) lies beyond the threshold on the worse side; `improved` symmetrically; `unchanged`
/// when the whole interval lies within the threshold band; `noisy` otherwise.
///
/// Per-process metrics (`peak_rss`, `alloc_bytes`: values that depend on the process that measured
/// them) are judged like time on their repetitions' centres, spread-widened threshold and all, unless
/// every sample of both sides is one value (then exactly, as a count). With fewer than two
/// repetitions on a side, or a zero among them, no process spread can be seen: such a row is
/// `unchanged` within its threshold and `noisy` beyond it, never `regressed` (two quick runs of one
/// binary read `alloc_bytes` of `reuse-scroll set-scan` 31% apart).
///
/// Exact metrics (counts that repeat exactly) are judged by their totals over the steps both sides
/// counted (`ExactTotals`): a change of the total beyond the tiny tolerance (and, for the cache
/// simulation's counts, beyond `MetricPolicy.floor` per step) is a regression or an improvement,
/// anything else `unchanged`. A trace's steps are no samples of a distribution, so no test over
/// them decides, and an exact row is never `noisy`. A count whose values are means over different
/// prefixes of its trace on the two sides (a batchable operation too slow to cover its trace, at
/// another speed: `TracePrefixes`) is no count of the same operations: it has no verdict
/// (`Judgement.differentPrefixes`), and `ComparisonReport` names it.
///
/// A timed change (by processes or by samples) whose interval lies wholly beyond `NoiseBound` (what
/// the recorded load and the processes of one build can explain) is called `regressed` or
/// `improved` even where the repetitions a side or the busy-machine rule of `ComparisonReport`
/// would withhold it (`beyondNoise`).
package struct RowComparison: Sendable {
    package var key: RowKey
    package var workload: String
    package var unit: String
    package var policy: MetricPolicy
    package var baseSamples: Int
    package var headSamples: Int
    package var baseRepetitions: Int
    package var headRepetitions: Int
    package var baseMedian: Double
    package var headMedian: Double
    /// median(head) / median(base); 1 when both are 0, +infinity when only base is 0. Judged by
    /// repetitions: the geometric mean of the per-repetition ratios of centres (`RepetitionRatio`).
    /// A count judged exactly: the ratio of its totals (`ExactTotals`), and `baseMedian` and
    /// `headMedian` its mean per step.
    package var ratio: Double
    package var interval: Bootstrap.Interval
    /// Two-sided: the t-test of the repetitions' centres for a row judged by repetitions, else
    /// Mann–Whitney U; NaN for exact metrics (judged by their totals, no test) and for per-process
    /// metrics whose samples are constant on both sides.
    package var pValue: Double
    /// nil for metrics that are not judged (`elements`).
    package var verdict: Verdict?
    /// The threshold this row was judged at: the metric's, or wider for a statistical row whose
    /// processes spread more (see the type's documentation).
    package var threshold: Double
    /// Whether the interval came from the repetitions' centres, paired by repetition number.
    package var pairedRepetitions: Bool = false
    /// Which rule judged the row (compare.txt and compare.csv's `judged` say it per row).
    package var judgement: Judgement
    /// A measured change left `noisy` because one of two unpaired runs ran on a busy machine
    /// (`ComparisonReport`).
    package var changeWithheld = false
    /// A change the interval bears out, left `noisy` because a side has fewer than
    /// `Options.repetitionsForChange` repetitions (`ComparisonReport` counts them).
    package var awaitsRepetitions = false
    /// The interval a timed change is claimed from: at `Options.changeConfidence` for a row judged
    /// by its processes, the row's `interval` otherwise.
    package var changeInterval: Bootstrap.Interval
    /// The factor beyond which neither the recorded load nor the processes explain a timed change
    /// (`NoiseBound`); infinity for a row that is not timed by processes or samples.
    package var noiseBound: Double = .infinity
    /// A timed change whose `changeInterval` lies wholly beyond `noiseBound`: called `regressed` or
    /// `improved` whatever the repetitions a side or the busy-machine rule withhold.
    package var beyondNoise = false
    /// An exact row's totals over the steps both sides counted, and where they moved.
    package var totals: ExactTotals?
    /// The prefixes of the trace the two sides counted, for a count left unjudged because they differ.
    package var prefixes: TracePrefixes?

    /// The rule a row was judged by.
    package enum Judgement: String, Sendable, CaseIterable {
        /// On the repetitions' centres (several processes a side): a t interval, the threshold
        /// widened to the processes' spread, a change only from `Options.repetitionsForChange` a side.
        case processes = "by-processes"
        /// One repetition on a side: a bootstrap over the samples and Mann–Whitney U (time only).
        case samples = "by-samples"
        /// A count: its total over the steps both sides counted against the threshold (`ExactTotals`).
        case exact
        /// A per-process metric with one process on a side (or a zero median): its spread between
        /// processes cannot be seen, so it is `unchanged` within the threshold and `noisy` beyond.
        case oneProcess = "one-process"
        /// Not judged (a metric that describes the work).
        case none
        /// A count whose sides counted different prefixes of a batchable trace (`TracePrefixes`):
        /// means per operation over different operations, not judged (no verdict, never a change).
        case differentPrefixes = "different-prefixes"
    }

    /// Leaves a count over different prefixes of its trace unjudged: no verdict (the exit status
    /// and the verdict counts leave it out), its ratio and means kept for the reader.
    package mutating func leaveUnjudged(_ prefixes: TracePrefixes) {
        self.prefixes = prefixes
        judgement = .differentPrefixes
        verdict = nil
    }

    package struct Options: Sendable {
        package var alpha: Double
        package var confidence: Double
        package var resamples: Int
        package var thresholds: ThresholdOverrides
        /// Only these metrics are compared; empty: all.
        package var metrics: Set<String>
        /// A statistical row judged by repetitions is judged at no less than this many times the
        /// spread of its processes (`RepetitionRatio.processSpread`, as a fraction); 0: at the
        /// metric's threshold always.
        package var spreadFactor: Double
        /// The confidence of the interval that must clear 1 ± θ/2 before a row judged by its
        /// repetitions is called `regressed` or `improved` (`confidence` decides `unchanged`).
        package var changeConfidence: Double
        /// The spread that widens a row's threshold is taken at this upper confidence bound
        /// (`RepetitionRatio.processSpreadBound`), not at its estimate from a handful of processes.
        package var spreadConfidence: Double
        /// The number of paired processes `spreadFactor` was set for: a row with n more of them
        /// takes its spread at √(`spreadRepetitions` / n) (what averaging n processes leaves of
        /// it); 0: never averaged.
        package var spreadRepetitions: Int
        /// The fewest repetitions a side from which a row judged by its repetitions may be called
        /// `regressed` or `improved` (`RowComparison.defaultRepetitionsForChange`); fewer leave a
        /// row that looks changed `noisy`.
        package var repetitionsForChange: Int

        package init(alpha: Double = 0.05, confidence: Double = 0.95, resamples: Int = 2000,
                    thresholds: ThresholdOverrides = ThresholdOverrides(), metrics: Set<String> = [],
                    spreadFactor: Double = 3, changeConfidence: Double = 0.99, spreadConfidence: Double = 0.75,
                    spreadRepetitions: Int = 5, repetitionsForChange: Int = RowComparison.defaultRepetitionsForChange) {
            self.repetitionsForChange = Swift.max(2, repetitionsForChange)
            self.spreadConfidence = spreadConfidence
            self.spreadRepetitions = spreadRepetitions
            self.spreadFactor = spreadFactor
            self.changeConfidence = changeConfidence
            self.alpha = alpha
            self.confidence = confidence
            self.resamples = resamples
            self.thresholds = thresholds
            self.metrics = metrics
        }
    }

    /// What of a row's process spread is left after averaging `repetitions` processes, relative
    /// to the `reference` number the spread factor was set for: √(reference / repetitions), at
    /// most 1 (fewer processes do not widen θ beyond what the spread's bound already does).
    package static func averaging(repetitions: Int, reference: Int) -> Double {
        guard reference > 0, repetitions > reference else { return 1 }
        return (Double(reference) / Double(repetitions)).squareRoot()
    }

    /// `load`: the load factor of the two runs (`NoiseBound.loadFactor`), 1 for a quiet machine.
    package init(key: RowKey, base: SeriesSamples, head: SeriesSamples, options: Options, load: Double = 1) {
        precondition(base.count > 0 && head.count > 0, "both sides need samples")
        self.key = key
        workload = head.workload
        unit = head.unit
        policy = options.thresholds.policy(for: key.metric)
        let baseValues = base.values
        let headValues = head.values
        baseSamples = baseValues.count
        headSamples = headValues.count
        baseRepetitions = base.repetitions.count
        headRepetitions = head.repetitions.count
        baseMedian = Quantile.median(baseValues)
        headMedian = Quantile.median(headValues)
        ratio = HierarchicalBootstrap.ratio(headMedian, baseMedian)

        threshold = policy.threshold
        let constant = Self.isConstant(baseValues) && Self.isConstant(headValues)
        let byProcesses = policy.kind == .statistical || policy.kind == .perProcess
        // A per-process metric is a count only when it repeats: every sample of both sides one
        // value, and more than one sample a side (one process's one peak_rss shows nothing).
        let repeats = constant && baseValues.count >= 2 && headValues.count >= 2
        // Reduced only for a row that is judged by its processes (a sort per repetition).
        let centres = byProcesses && !constant ? ProcessCentre.centres(base: base.repetitions, head: head.repetitions) : nil
        if let centres, let byRepetition = RepetitionRatio(
            base: centres.base, baseNumbers: base.repetitionNumbers,
            head: centres.head, headNumbers: head.repetitionNumbers,
            confidence: options.confidence) {
            ratio = byRepetition.ratio
            interval = byRepetition.interval
            pValue = byRepetition.pValue
            pairedRepetitions = byRepetition.paired
            judgement = policy.direction == .neither ? .none : .processes
            if options.spreadFactor > 0 {
                let spread = byRepetition.processSpreadBound(confidence: options.spreadConfidence)
                    * Self.averaging(repetitions: byRepetition.repetitions, reference: options.spreadRepetitions)
                threshold = Swift.max(threshold, options.spreadFactor * (exp(spread) - 1))
            }
            changeInterval = byRepetition.interval(confidence: options.changeConfidence)
            verdict = Self.judgeRepetitions(ratio: ratio, interval: interval, changeInterval: changeInterval,
                                            threshold: threshold, direction: policy.direction,
                                            repetitions: byRepetition.repetitions,
                                            repetitionsForChange: options.repetitionsForChange)
            if verdict == .noisy {
                let unlimited = Self.judgeRepetitions(ratio: ratio, interval: interval, changeInterval: changeInterval,
                                                      threshold: threshold, direction: policy.direction,
                                                      repetitions: byRepetition.repetitions, repetitionsForChange: 0)
                awaitsRepetitions = unlimited == .regressed || unlimited == .improved
            }
            if judgement == .processes { judgeAgainstNoise(load: load) }
            return
        }
        if policy.kind == .exact, let totals = ExactTotals(base: base.repetitions, head: head.repetitions) {
            self.totals = totals
            baseMedian = totals.baseMean
            headMedian = totals.headMean
            ratio = HierarchicalBootstrap.ratio(totals.head, totals.base)
            interval = Bootstrap.Interval(low: ratio, high: ratio)
            changeInterval = interval
            pValue = .nan
            judgement = policy.direction == .neither ? .none : .exact
            verdict = Self.judgeExact(ratio: ratio, change: (totals.headMean - totals.baseMean).magnitude, policy: policy)
            return
        }
        if policy.kind != .statistical && constant {
            interval = Bootstrap.Interval(low: ratio, high: ratio)
            pValue = .nan
        } else {
            // Seeded by the key, so that the same inputs always give the same interval.
            var hasher = StableHasher()
            hasher.combine(key.label)
            interval = HierarchicalBootstrap.medianRatioInterval(
                base: base.repetitions, head: head.repetitions, confidence: options.confidence,
                resamples: options.resamples, seed: hasher.value)
            pValue = MannWhitney.pValue(headValues, baseValues)
        }
        changeInterval = interval
        if policy.kind == .perProcess && !repeats {
            judgement = policy.direction == .neither ? .none : .oneProcess
            verdict = Self.judgeOneProcess(ratio: ratio, threshold: threshold, direction: policy.direction)
            return
        }
        judgement = policy.direction == .neither ? .none : (policy.kind == .statistical ? .samples : .exact)
        if policy.kind == .statistical {
            verdict = Self.judge(ratio: ratio, interval: interval, pValue: pValue, policy: policy, alpha: options.alpha)
            if judgement == .samples { judgeAgainstNoise(load: load) }
        } else {
            // A per-process metric whose every sample is one value: a count.
            verdict = Self.judgeExact(ratio: ratio, change: (headMedian - baseMedian).magnitude, policy: policy)
        }
    }

    /// Sets `noiseBound` and `beyondNoise` for a timed row, and calls a change that lies beyond the
    /// bound but awaits repetitions (the rule for processes would call it with enough of them).
    /// A row judged by samples keeps its rule (p below alpha and the interval beyond θ): the bound
    /// only keeps the busy-machine rule from withholding its change.
    private mutating func judgeAgainstNoise(load: Double) {
        noiseBound = NoiseBound.factor(load: load, threshold: threshold)
        guard let beyond = NoiseBound.verdict(interval: changeInterval, direction: policy.direction, bound: noiseBound) else { return }
        if verdict == beyond {
            beyondNoise = true
        } else if judgement == .processes && verdict == .noisy && awaitsRepetitions {
            verdict = beyond
            awaitsRepetitions = false
            beyondNoise = true
        }
    }

    /// The fewest repetitions a side `compare` needs before a row judged by its repetitions may be
    /// called `regressed` or `improved`. Some rows run in one of two speeds per process (a placement
    /// of the heap, say, 7% apart): three fast base processes and three slow head ones happen one
    /// time in 64 for such a row, and then agree so well that a t interval excludes 1. Five a side
    /// make it one in 1,024; fewer leave the row `noisy` (or `unchanged`). A comparison of the
    /// whole suite judges a thousand rows at once, and at five pairs two of four whole-suite A/As
    /// here called one row `regressed`: compare-commits asks eight
    /// (`CompareCommitsArguments.repetitionsForChange`) and runs more rounds of a group whose row
    /// looks changed at fewer.
    package static let defaultRepetitionsForChange = 5

    /// The rule for a statistical row judged by its repetitions (the type's documentation).
    static func judgeRepetitions(ratio: Double, interval: Bootstrap.Interval, changeInterval: Bootstrap.Interval,
                                 threshold: Double, direction: MetricPolicy.Direction, repetitions: Int,
                                 repetitionsForChange: Int = defaultRepetitionsForChange) -> Verdict? {
        guard let worse = Self.worse(direction) else { return nil }
        let change = worse(ratio), a = worse(interval.low), b = worse(interval.high)
        let c = worse(changeInterval.low), d = worse(changeInterval.high)
        guard !change.isNaN, !a.isNaN, !b.isNaN, !c.isNaN, !d.isNaN else { return .noisy }
        let low = Swift.min(a, b), high = Swift.max(a, b)
        let decisive = repetitions >= repetitionsForChange
        if decisive && change >= 1 + 0.75 * threshold && Swift.min(c, d) > 1 + threshold / 2 { return .regressed }
        if decisive && change <= 1 - 0.75 * threshold && Swift.max(c, d) < 1 - threshold / 2 { return .improved }
        if low >= 1 - threshold && high <= 1 + threshold { return .unchanged }
        return .noisy
    }

    /// A per-process row whose processes cannot be told apart from a change (one a side, or a
    /// zero median): within the threshold `unchanged`, beyond it `noisy`.
    static func judgeOneProcess(ratio: Double, threshold: Double, direction: MetricPolicy.Direction) -> Verdict? {
        guard let worse = Self.worse(direction) else { return nil }
        let change = worse(ratio)
        guard !change.isNaN else { return .noisy }
        return change >= 1 - threshold && change <= 1 + threshold ? .unchanged : .noisy
    }

    /// A ratio in "worse" units (> 1 is worse whatever the metric's direction); nil for metrics
    /// that are not judged.
    static func worse(_ direction: MetricPolicy.Direction) -> ((Double) -> Double)? {
        switch direction {
        case .neither: return nil
        case .lowerIsBetter: return { $0 }
        case .higherIsBetter: return { 1 / $0 }
        }
    }

    /// The rule for a count: `ratio` beyond the threshold is a change, unless `change` (the
    /// absolute change per step) is below the metric's floor, what placement alone moves a count of
    /// the simulated caches by. NaN (totals past Double's range) is `noisy`.
    static func judgeExact(ratio: Double, change: Double, policy: MetricPolicy) -> Verdict? {
        guard let worse = Self.worse(policy.direction) else { return nil }
        let relative = worse(ratio)
        if relative.isNaN { return .noisy }
        guard relative > 1 + policy.threshold || relative < 1 - policy.threshold, !(change < policy.floor) else { return .unchanged }
        return relative > 1 ? .regressed : .improved
    }

    /// The rule for a statistical row judged by its samples (the type's documentation).
    static func judge(ratio: Double, interval: Bootstrap.Interval, pValue: Double,
                      policy: MetricPolicy, alpha: Double) -> Verdict? {
        guard let worse = Self.worse(policy.direction) else { return nil }
        let upper = 1 + policy.threshold
        let lower = 1 - policy.threshold
        let a = worse(interval.low), b = worse(interval.high)
        guard !a.isNaN, !b.isNaN else { return .noisy }
        let low = Swift.min(a, b), high = Swift.max(a, b)
        let significant = pValue < alpha
        if significant && low > upper { return .regressed }
        if significant && high < lower { return .improved }
        if low >= lower && high <= upper { return .unchanged }
        return .noisy
    }

    static func isConstant(_ values: [Double]) -> Bool {
        guard let first = values.first else { return true }
        return values.allSatisfy { $0 == first }
    }
}

/// FNV-1a over UTF-8: a seed that is the same in every process (Swift's `Hasher` is randomly seeded).
struct StableHasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func combine(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }
}
