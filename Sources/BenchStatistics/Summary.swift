/// Robust summary of one metric's samples (one summary.csv row).
///
/// Percentiles use linear interpolation between order statistics (type 7, numpy's default; see
/// `Quantile.sorted`). `mad` is the median absolute deviation from the median, **unscaled** (not
/// multiplied by 1.4826; divide by 0.6745 or multiply by 1.4826 for a normal-consistent σ estimate).
/// `ciLow`/`ciHigh` bound the median by a seeded percentile bootstrap (`Bootstrap.medianInterval`).
/// No values: count 0 and every statistic NaN.
package struct Summary: Sendable, Equatable, Codable {
    package var count: Int
    package var min: Double
    package var p25: Double
    package var median: Double
    package var p75: Double
    package var p90: Double
    package var p99: Double
    package var max: Double
    package var mean: Double
    package var mad: Double
    package var ciLow: Double
    package var ciHigh: Double

    package init(_ values: [Double], confidence: Double = 0.95, resamples: Int = 2000, seed: UInt64 = 0x1B) {
        let sorted = values.sorted()
        count = sorted.count
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        p25 = Quantile.sorted(sorted, 0.25)
        median = Quantile.sorted(sorted, 0.5)
        p75 = Quantile.sorted(sorted, 0.75)
        p90 = Quantile.sorted(sorted, 0.90)
        p99 = Quantile.sorted(sorted, 0.99)
        mean = sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
        let center = median
        mad = Quantile.sorted(sorted.map { abs($0 - center) }.sorted(), 0.5)
        if resamples > 0 {
            let interval = Bootstrap.medianInterval(sorted, confidence: confidence, resamples: resamples, seed: seed)
            ciLow = interval.low
            ciHigh = interval.high
        } else {
            ciLow = .nan
            ciHigh = .nan
        }
    }

    /// The summary of values from several independent repetitions: the statistics of all values
    /// pooled, and the interval in which another run's median should fall (`RunToRunInterval`),
    /// from the variation between the repetitions.
    package init(repetitions: [[Double]], confidence: Double = 0.95, seed: UInt64 = 0x1B) {
        self.init(Array(repetitions.joined()), confidence: confidence, resamples: 0, seed: seed)
        let interval = RunToRunInterval.interval(repetitions, confidence: confidence, seed: seed)
        ciLow = interval.low
        ciHigh = interval.high
    }

    /// The values in summary.csv order: min, p25, median, p75, p90, p99, max, mean, mad, ci_low, ci_high.
    package var csvStatistics: [Double] { [min, p25, median, p75, p90, p99, max, mean, mad, ciLow, ciHigh] }
}
