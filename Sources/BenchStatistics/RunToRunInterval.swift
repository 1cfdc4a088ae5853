import Foundation  // exp, log, lgamma, erfc: the C library's math, the same symbols on every OS

/// The interval in which another run's median should fall (docs/methodology.md: "a confidence interval
/// describes what another run on the same machine would give"): a Student-t prediction interval
/// over the medians of the independent repetitions, on a log scale.
///
/// With R repetitions whose medians have logarithms of standard deviation s, this run's median and
/// another run's (R repetitions as well) each carry about s²/R of run-to-run variance, so their
/// difference has s · √(2/R) of spread; the interval is the pooled median times
/// exp(± t(1 − α/2, R − 1) · s · √(2/R)). Logarithms, because a machine's slow or fast spell scales
/// a time rather than adding to it; values that are not all positive use the linear scale.
///
/// Why not the bootstrap of the median (`HierarchicalBootstrap`), as before: that bounds the median
/// that many runs would settle on, which is narrower by √2 than where one other run lands, and so
/// held another run's median clearly less often than this interval did (`RunToRunIntervalTests`
/// simulates the coverage). One repetition cannot show run-to-run variation: the interval is then
/// the bootstrap of that repetition's samples, and docs/methodology.md says it is too narrow.
package enum RunToRunInterval {
    package static func interval(_ repetitions: [[Double]], confidence: Double = 0.95, seed: UInt64 = 0x1B) -> Bootstrap.Interval {
        let groups = repetitions.filter { !$0.isEmpty }
        guard let first = groups.first?.first else { return Bootstrap.Interval(low: .nan, high: .nan) }
        if groups.count == 1 { return Bootstrap.medianInterval(groups[0], confidence: confidence, seed: seed) }
        if groups.allSatisfy({ $0.allSatisfy { $0 == first } }) { return Bootstrap.Interval(low: first, high: first) }

        let center = Quantile.median(Array(groups.joined()))
        let medians = groups.map { Quantile.median($0) }
        let logarithmic = medians.allSatisfy { $0 > 0 } && center > 0
        let spread = standardDeviation(logarithmic ? medians.map { log($0) } : medians)
        let r = Double(groups.count)
        let p = 1 - (1 - min(max(confidence, 0.5), 0.999_999)) / 2
        let half = HierarchicalBootstrap.studentQuantile(p, degreesOfFreedom: groups.count - 1) * spread * (2 / r).squareRoot()
        if logarithmic {
            return Bootstrap.Interval(low: center * exp(-half), high: center * exp(half))
        }
        return Bootstrap.Interval(low: center - half, high: center + half)
    }

    /// The sample standard deviation (n − 1 in the denominator) of at least two values.
    static func standardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / Double(values.count - 1)).squareRoot()
    }
}
