/// Percentile-bootstrap confidence intervals (Efron): resample with replacement `resamples` times,
/// compute the statistic, take the (1 - confidence)/2 and (1 + confidence)/2 quantiles (type 7) of the
/// resampled statistics. Seeded (`SplitMix64`), so the same input and seed give the same interval.
package enum Bootstrap {
    package struct Interval: Sendable, Equatable, Codable {
        package var low: Double
        package var high: Double
        package init(low: Double, high: Double) { self.low = low; self.high = high }
        package func contains(_ value: Double) -> Bool { low <= value && value <= high }
    }

    /// Confidence interval of the median. A single value gives [value, value]; no values gives NaN.
    package static func medianInterval(
        _ values: [Double], confidence: Double = 0.95, resamples: Int = 2000, seed: UInt64 = 0x1B
    ) -> Interval {
        guard !values.isEmpty else { return Interval(low: .nan, high: .nan) }
        var generator = SplitMix64(seed: seed)
        var medians = resampledMedians(values, resamples: resamples, using: &generator)
        return interval(of: &medians, confidence: confidence)
    }

    /// Confidence interval of median(head) / median(base), resampling the two groups independently
    /// (a ratio > 1 means head is larger: slower, for time). NaN bounds when a group is empty; a zero
    /// base median gives infinite or NaN ratios, which sort to the ends.
    package static func medianRatioInterval(
        base: [Double], head: [Double], confidence: Double = 0.95, resamples: Int = 2000, seed: UInt64 = 0x1B
    ) -> Interval {
        guard !base.isEmpty, !head.isEmpty else { return Interval(low: .nan, high: .nan) }
        var generator = SplitMix64(seed: seed)
        let baseMedians = resampledMedians(base, resamples: resamples, using: &generator)
        let headMedians = resampledMedians(head, resamples: resamples, using: &generator)
        var ratios = zip(headMedians, baseMedians).map { $0 / $1 }
        return interval(of: &ratios, confidence: confidence)
    }

    static func resampledMedians(_ values: [Double], resamples: Int, using generator: inout SplitMix64) -> [Double] {
        let n = values.count
        var scratch = [Double](repeating: 0, count: n)
        var medians: [Double] = []
        medians.reserveCapacity(max(resamples, 1))
        for _ in 0..<max(resamples, 1) {
            for i in 0..<n { scratch[i] = values[generator.next(below: n)] }
            medians.append(Quantile.medianInPlace(&scratch, count: n))
        }
        return medians
    }

    private static func interval(of statistics: inout [Double], confidence: Double) -> Interval {
        statistics.sort { $0 < $1 || ($0.isNaN && !$1.isNaN) }
        let alpha = 1 - min(max(confidence, 0), 1)
        return Interval(low: Quantile.sorted(statistics, alpha / 2), high: Quantile.sorted(statistics, 1 - alpha / 2))
    }
}
