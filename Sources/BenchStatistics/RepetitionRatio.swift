import Foundation  // exp, log, lgamma, erfc: the C library's math, the same symbols on every OS

/// The ratio of two sides measured in independent repetitions (fresh processes), judged on the
/// repetitions' centres (`ProcessCentre`'s midmean, or a median): on a shared machine whole
/// processes run faster or slower by more than the samples inside one process scatter, so the
/// repetition is the unit of evidence, not the sample. Below, "median" is a repetition's centre.
///
/// - **Paired**, when both sides carry the same repetition numbers, each once: the log of each
///   pair's ratio of medians, d_i = log(head_i / base_i), then a Student-t interval of their mean,
///   exp(mean ± t(1 − α/2, n − 1) · s_d / √n). `scripts/compare-commits` runs a scenario group of
///   both commits seconds apart under one repetition number, so a slow spell of the machine that
///   outlasts them scales both medians and cancels from d_i. Pairing two unrelated runs by
///   number is still sound (the pairs are then independent), only without that gain.
///   From `trimmingFrom` (10) pairs on, the mean is trimmed: Yuen's test, the mean of the pairs
///   left once the 20% lowest and highest are set aside, with the winsorized standard deviation
///   and h − 1 degrees of freedom (h the pairs kept). A process that ran at half speed, or at the
///   other of a row's two speeds, is then one pair set aside, not a standard deviation that
///   widens every verdict of the row; a change that moves every process still moves the
///   trimmed mean by all of it.
/// - **Unpaired** otherwise: Welch's interval of the difference of the mean log medians, with
///   the Welch–Satterthwaite degrees of freedom.
///
/// The ratio reported is exp of the mean difference: the geometric mean of the per-repetition
/// ratios (paired) or the ratio of the geometric means (unpaired). The p-value is the two-sided
/// t-test of no change. `baseSpread` and `headSpread` are the standard deviations of each side's log
/// medians: how much one process of a build differs from another.
package struct RepetitionRatio: Sendable, Equatable {
    package var ratio: Double
    package var interval: Bootstrap.Interval
    package var pValue: Double
    package var paired: Bool
    package var baseSpread: Double
    /// The standard deviation of the head side's log medians.
    package var headSpread: Double
    /// The number of repetitions on the smaller side.
    package var repetitions: Int
    /// How much one process differs from another once what the pairing cancels is gone: the
    /// standard deviation of the paired log ratios over √2, or unpaired the larger of the two
    /// sides' spreads. It bounds the smallest change the row can resolve.
    package var processSpread: Double
    /// The degrees of freedom `processSpread` is estimated with: n − 1 of n pairs, h − 1 of the h a
    /// trimmed mean keeps, or unpaired those of the side with the fewer repetitions.
    package var spreadDegreesOfFreedom: Double
    /// The mean log ratio, its standard error and degrees of freedom: what `interval(confidence:)`
    /// widens or narrows.
    package var meanLogRatio: Double
    package var standardError: Double
    package var degreesOfFreedom: Double

    /// Nil unless both sides have at least two repetitions with positive medians.
    package init?(base: [Double], baseNumbers: [Int], head: [Double], headNumbers: [Int], confidence: Double = 0.95) {
        guard base.count >= 2, head.count >= 2, base.allSatisfy({ $0 > 0 && $0.isFinite }),
              head.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        let logBase = base.map { log($0) }
        let logHead = head.map { log($0) }
        baseSpread = Self.standardDeviation(logBase)
        headSpread = Self.standardDeviation(logHead)
        repetitions = min(base.count, head.count)

        let mean: Double, standardError: Double, degreesOfFreedom: Double
        if let pairs = Self.pairs(baseNumbers: baseNumbers, headNumbers: headNumbers, count: (base.count, head.count)) {
            paired = true
            let differences = pairs.map { logHead[$0.head] - logBase[$0.base] }
            let n = Double(differences.count)
            let trimmed = Self.trimmedCount(differences.count)
            if trimmed > 0 {
                let sorted = differences.sorted()
                let kept = Double(differences.count - 2 * trimmed)
                mean = sorted[trimmed..<(differences.count - trimmed)].reduce(0, +) / kept
                let low = sorted[trimmed], high = sorted[differences.count - trimmed - 1]
                let winsorized = sorted.map { Swift.min(Swift.max($0, low), high) }
                let spread = Self.standardDeviation(winsorized)
                standardError = ((n - 1) * spread * spread / (kept * (kept - 1))).squareRoot()
                degreesOfFreedom = kept - 1
                // The spread of one pair that n pairs would average to this standard error.
                processSpread = standardError * n.squareRoot() / 2.0.squareRoot()
            } else {
                mean = differences.reduce(0, +) / n
                let spread = Self.standardDeviation(differences)
                standardError = spread / n.squareRoot()
                degreesOfFreedom = n - 1
                processSpread = spread / 2.0.squareRoot()
            }
            spreadDegreesOfFreedom = degreesOfFreedom
        } else {
            paired = false
            processSpread = max(baseSpread, headSpread)
            spreadDegreesOfFreedom = Double(min(base.count, head.count) - 1)
            let nb = Double(base.count), nh = Double(head.count)
            let vb = baseSpread * baseSpread / nb
            let vh = headSpread * headSpread / nh
            mean = logHead.reduce(0, +) / nh - logBase.reduce(0, +) / nb
            standardError = (vb + vh).squareRoot()
            let denominator = vb * vb / (nb - 1) + vh * vh / (nh - 1)
            degreesOfFreedom = denominator > 0 ? (vb + vh) * (vb + vh) / denominator : nb + nh - 2
        }
        ratio = exp(mean)
        meanLogRatio = mean
        self.standardError = standardError
        self.degreesOfFreedom = degreesOfFreedom
        interval = Bootstrap.Interval(low: ratio, high: ratio)
        pValue = mean == 0 ? 1 : 0
        if standardError == 0 { return }
        interval = self.interval(confidence: confidence)
        pValue = StudentT.twoSidedPValue(mean / standardError, degreesOfFreedom: degreesOfFreedom)
    }

    /// An upper confidence bound of `processSpread`: a standard deviation from few repetitions can
    /// fall far below the truth (from five pairs, a quarter of the time below 0.69 of it), so a
    /// row widened by its spread is widened by what its processes may plausibly spread.
    /// s · √(ν / χ²(1 − confidence, ν)), ν = `spreadDegreesOfFreedom` (of the pairs, or of the side whose
    /// spread it is).
    package func processSpreadBound(confidence: Double) -> Double {
        let nu = Swift.max(1, spreadDegreesOfFreedom)
        let lower = ChiSquare.quantile(1 - confidence, degreesOfFreedom: nu)
        guard lower > 0 else { return processSpread }
        return processSpread * (nu / lower).squareRoot()
    }

    /// The t interval of the ratio at another confidence (the same mean, standard error and degrees
    /// of freedom).
    package func interval(confidence: Double) -> Bootstrap.Interval {
        guard standardError > 0 else { return Bootstrap.Interval(low: ratio, high: ratio) }
        let tail = 1 - min(max(confidence, 0.5), 0.999_999)
        // Whole degrees of freedom, rounded down: the interval errs on the wide side.
        let nu = max(1, degreesOfFreedom.rounded(.down))
        let half = StudentT.quantile(twoSidedTail: tail, degreesOfFreedom: nu) * standardError
        return Bootstrap.Interval(low: exp(meanLogRatio - half), high: exp(meanLogRatio + half))
    }

    /// Index pairs (base, head) by repetition number when each side lists each number once and both
    /// list the same numbers; else nil.
    static func pairs(baseNumbers: [Int], headNumbers: [Int], count: (Int, Int)) -> [(base: Int, head: Int)]? {
        guard baseNumbers.count == count.0, headNumbers.count == count.1, count.0 == count.1 else { return nil }
        var headIndex: [Int: Int] = [:]
        for (index, number) in headNumbers.enumerated() {
            if headIndex.updateValue(index, forKey: number) != nil { return nil }
        }
        guard headIndex.count == baseNumbers.count else { return nil }
        var seen = Set<Int>()
        var result: [(base: Int, head: Int)] = []
        for (index, number) in baseNumbers.enumerated() {
            guard seen.insert(number).inserted, let other = headIndex[number] else { return nil }
            result.append((index, other))
        }
        return result
    }

    static func standardDeviation(_ values: [Double]) -> Double { RunToRunInterval.standardDeviation(values) }

    /// Pairs from which the mean is trimmed, and the fraction set aside at each end.
    package static let trimmingFrom = 10
    package static let trimmedFraction = 0.2

    /// How many of `count` pairs a trimmed mean sets aside at each end (0 below `trimmingFrom`).
    static func trimmedCount(_ count: Int) -> Int {
        count >= trimmingFrom ? Int((Double(count) * trimmedFraction).rounded(.down)) : 0
    }
}

/// Student's t distribution: the two-sided tail probability, through the regularised incomplete
/// beta function (continued fraction, after Numerical Recipes §6.4).
package enum StudentT {
    /// P(|T| ≥ |t|) for T with ν degrees of freedom (ν may be fractional).
    package static func twoSidedPValue(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        guard t.isFinite else { return t.isNaN ? .nan : 0 }
        guard nu > 0 else { return .nan }
        let x = nu / (nu + t * t)
        return min(1, max(0, incompleteBeta(x, a: nu / 2, b: 0.5)))
    }

    /// The t > 0 with P(|T| ≥ t) = `tail`: the two-sided tail inverted by bisection (exact to
    /// 1e-12 relative; the tail falls monotonically in t).
    package static func quantile(twoSidedTail tail: Double, degreesOfFreedom nu: Double) -> Double {
        guard tail > 0, tail < 1, nu > 0 else { return tail <= 0 ? .infinity : 0 }
        var low = 0.0, high = 1.0
        while twoSidedPValue(high, degreesOfFreedom: nu) > tail { low = high; high *= 2 }
        for _ in 0..<200 where high - low > 1e-12 * high {
            let middle = (low + high) / 2
            if twoSidedPValue(middle, degreesOfFreedom: nu) > tail { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// I_x(a, b).
    static func incompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // In two typed steps (Foundation's CGFloat overloads make the one expression too slow to
        // type-check); the operations and their order are the same.
        let gammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let front = exp(gammas + a * log(x) + b * log(1 - x))
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a: a, b: b) / a }
        return 1 - front * continuedFraction(1 - x, a: b, b: a) / b
    }

    private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m)
            var numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + numerator * d; if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c; if abs(c) < tiny { c = tiny }
            d = 1 / d; h *= d * c
            numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + numerator * d; if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-14 { break }
        }
        return h
    }
}
