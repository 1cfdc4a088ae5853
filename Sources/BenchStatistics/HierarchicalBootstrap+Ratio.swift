extension HierarchicalBootstrap {
    /// Confidence interval of median(head) / median(base), each side a list of repetitions (each a
    /// list of samples), the two sides resampled independently in two stages (repetitions, then
    /// samples). With several repetitions on both sides the interval is the expanded percentile one
    /// (see `HierarchicalBootstrap`), expanded for the side with fewer repetitions; with one repetition on a side
    /// that side is resampled as plain samples and nothing is expanded (`Bootstrap.medianRatioInterval`
    /// when both sides have one). Empty repetitions are ignored; NaN bounds when a side has no samples.
    /// A zero base median gives a ratio of 1 when head is zero too, else infinity (see `ratio`).
    package static func medianRatioInterval(
        base: [[Double]], head: [[Double]], confidence: Double = 0.95, resamples: Int = 2000, seed: UInt64 = 0x1B
    ) -> Bootstrap.Interval {
        let base = base.filter { !$0.isEmpty }
        let head = head.filter { !$0.isEmpty }
        guard !base.isEmpty, !head.isEmpty else { return Bootstrap.Interval(low: .nan, high: .nan) }
        var generator = SplitMix64(seed: seed)
        let baseMedians = sideMedians(base, resamples: resamples, using: &generator)
        let headMedians = sideMedians(head, resamples: resamples, using: &generator)
        var ratios = zip(headMedians, baseMedians).map { ratio($0, $1) }
        ratios.sort { $0 < $1 || ($0.isNaN && !$1.isNaN) }
        let fewest = min(base.count, head.count)
        let tail = fewest > 1
            ? expandedTail(confidence: confidence, repetitions: fewest)
            : (1 - min(max(confidence, 0), 1)) / 2
        return Bootstrap.Interval(low: Quantile.sorted(ratios, tail), high: Quantile.sorted(ratios, 1 - tail))
    }

    /// head / base, with 0 / 0 = 1 (nothing before, nothing after: unchanged) and x / 0 = ±infinity.
    package static func ratio(_ head: Double, _ base: Double) -> Double {
        if base == 0 { return head == 0 ? 1 : (head > 0 ? .infinity : -.infinity) }
        return head / base
    }

    private static func sideMedians(_ groups: [[Double]], resamples: Int, using generator: inout SplitMix64) -> [Double] {
        groups.count == 1
            ? Bootstrap.resampledMedians(groups[0], resamples: resamples, using: &generator)
            : resampledMedians(groups, resamples: resamples, using: &generator)
    }
}
