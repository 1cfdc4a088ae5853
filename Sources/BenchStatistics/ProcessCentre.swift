import Foundation  // exp, log, lgamma, erfc: the C library's math, the same symbols on every OS

/// The one value a process's samples of a row are reduced to before the processes are compared
/// (`RepetitionRatio`): the **geometric midmean**, the mean of the logarithms of the middle half
/// of the samples, exponentiated.
///
/// A process's samples are the steps of a trace in turn (a scroll pass's frames, a batch update's
/// edits), whose costs can differ twentyfold. Their median is one sample near the middle, and
/// where the steps' costs fall in clusters a little noise moves it from one cluster to the next:
/// then the processes of one binary disagree by what the median jumped, not by how fast they ran.
/// The midmean averages the middle half of the steps, which the noise moves a little each,
/// while still setting aside the quarter at each end (a sample an interrupt hit, a first step that
/// pays for cold caches). On logarithms each step weighs alike whatever its cost, and the ratio of
/// two processes' midmeans is a mean of the log ratios of like steps. In two whole-suite A/As
/// here it narrowed the rows' thresholds at p75 from 12.1% to 10.2–10.9% and at p90 from
/// 23.1–25.1% to 18.8–21.1% ([experiment](../../docs/experiments/2026-11-28-process-midmean.md)).
package enum ProcessCentre {
    /// Samples set aside at each end of `count` sorted ones: ⌊count/4⌋ (none below four).
    package static func trimmed(_ count: Int) -> Int { count / 4 }

    /// exp(mean of ln x over the sorted samples but the ⌊n/4⌋ lowest and highest). Every value
    /// must be positive and finite (`isDefined`); NaN for none.
    package static func midmean(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let cut = trimmed(sorted.count)
        // One value left (a process's one peak_rss, say) is its own midmean, exactly.
        if sorted[cut] == sorted[sorted.count - 1 - cut] { return sorted[cut] }
        var sum = 0.0
        for value in sorted[cut..<(sorted.count - cut)] { sum += log(value) }
        return exp(sum / Double(sorted.count - 2 * cut))
    }

    /// Whether every sample of every repetition can be taken a logarithm of (positive and finite).
    package static func isDefined(_ repetitions: [[Double]]) -> Bool {
        repetitions.allSatisfy { $0.allSatisfy { $0 > 0 && $0.isFinite } }
    }

    /// Each repetition's centre for a row of two sides: the midmeans when every sample of both
    /// sides is positive and finite, else (a count that can be zero) every repetition's median,
    /// so that the two sides are always reduced alike. `byMidmean` says which.
    package static func centres(base: [[Double]], head: [[Double]]) -> (base: [Double], head: [Double], byMidmean: Bool) {
        if isDefined(base) && isDefined(head) {
            return (base.map(midmean), head.map(midmean), true)
        }
        return (base.map(Quantile.median), head.map(Quantile.median), false)
    }
}
