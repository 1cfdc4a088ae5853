import Foundation  // exp, log, lgamma, erfc: the C library's math, the same symbols on every OS

/// The two-stage bootstrap behind `compare`'s interval of a ratio of medians
/// (`medianRatioInterval`), for samples taken in several independent repetitions (processes, or
/// rounds with fresh fixtures): resample the repetitions with replacement, then the samples within
/// each chosen repetition, and take the median of the pooled resample.
///
/// Why two stages: consecutive samples of one process are correlated (a query trace's lag-1
/// autocorrelation is about 0.3) and share that process's heap layout, page placement and
/// machine load, so their spread says little about what another run would give. Resampling whole
/// repetitions carries the variation between them into the interval.
///
/// With few repetitions the percentile interval is too narrow (the bootstrap sees R values of a
/// between-repetition effect and divides their spread by R, not R - 1). The interval is therefore
/// Hesterberg's **expanded percentile** interval: the percentiles taken at α′/2 and 1 − α′/2 where
/// z(1 − α′/2) = √(R / (R − 1)) · t(1 − α/2, R − 1), which makes it as wide as a Student-t interval
/// of R values would be while keeping the bootstrap's asymmetry. Seeded, so the same input gives
/// the same interval. (summary.csv's own interval, for one run, is `RunToRunInterval`.)
package enum HierarchicalBootstrap {
    /// The medians of `resamples` two-stage resamples of non-empty `groups` (repetitions, then the
    /// samples within each drawn repetition).
    static func resampledMedians(_ groups: [[Double]], resamples: Int, using generator: inout SplitMix64) -> [Double] {
        let largest = groups.map(\.count).max() ?? 0
        var scratch = [Double](repeating: 0, count: largest * groups.count)
        var medians: [Double] = []
        medians.reserveCapacity(max(resamples, 1))
        for _ in 0..<max(resamples, 1) {
            var n = 0
            for _ in 0..<groups.count {
                let group = groups[generator.next(below: groups.count)]
                for _ in 0..<group.count {
                    scratch[n] = group[generator.next(below: group.count)]
                    n += 1
                }
            }
            medians.append(Quantile.medianInPlace(&scratch, count: n))
        }
        return medians
    }

    /// α′/2 of the expanded percentile interval for `repetitions` repetitions.
    static func expandedTail(confidence: Double, repetitions: Int) -> Double {
        let p = 1 - (1 - min(max(confidence, 0.5), 0.999_999)) / 2
        let r = Double(repetitions)
        let z = (r / (r - 1)).squareRoot() * studentQuantile(p, degreesOfFreedom: repetitions - 1)
        return 0.5 * erfc(z / 2.0.squareRoot())  // 1 - Φ(z)
    }

    /// The p-quantile of Student's t with ν degrees of freedom: exact for ν = 1 and 2, the
    /// Cornish-Fisher expansion (three terms; within 1% at ν = 3, 0.1% from ν = 6) beyond.
    static func studentQuantile(_ p: Double, degreesOfFreedom nu: Int) -> Double {
        switch nu {
        case ...1: return tan(Double.pi * (p - 0.5))
        case 2: return (2 * p - 1) * (2 / (4 * p * (1 - p))).squareRoot()
        default:
            let z = normalQuantile(p), v = Double(nu)
            let z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2
            return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
        }
    }

    /// The p-quantile of the standard normal distribution (Acklam's rational approximation,
    /// relative error below 1.2e-9).
    static func normalQuantile(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low { return -normalQuantile(1 - p) }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}
