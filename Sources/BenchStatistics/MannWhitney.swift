import Foundation  // exp, log, lgamma, erfc: the C library's math, the same symbols on every OS

/// Mann-Whitney U (Wilcoxon rank-sum) test, two-sided, normal approximation with tie correction and
/// continuity correction — the same as `scipy.stats.mannwhitneyu(a, b, alternative="two-sided",
/// method="asymptotic")` (use_continuity=True).
package enum MannWhitney {
    /// U statistic of `a` (number of pairs with a > b, ties counting 1/2).
    package static func u(_ a: [Double], _ b: [Double]) -> Double {
        let ranks = midranks(a + b)
        let rankSumA = ranks[0..<a.count].reduce(0, +)
        let n1 = Double(a.count)
        return rankSumA - n1 * (n1 + 1) / 2
    }

    /// Two-sided p-value; 1 when either sample is empty or all values are tied.
    package static func pValue(_ a: [Double], _ b: [Double]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 1 }
        let n1 = Double(a.count), n2 = Double(b.count), n = n1 + n2
        let combined = a + b
        let ranks = midranks(combined)
        let u1 = ranks[0..<a.count].reduce(0, +) - n1 * (n1 + 1) / 2
        let u2 = n1 * n2 - u1
        let u = Swift.max(u1, u2)
        // Tie correction: Σ (t³ - t) over groups of tied values.
        var tieTerm = 0.0
        let sorted = combined.sorted()
        var i = 0
        while i < sorted.count {
            var j = i + 1
            while j < sorted.count && sorted[j] == sorted[i] { j += 1 }
            let t = Double(j - i)
            tieTerm += t * t * t - t
            i = j
        }
        let mu = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return 1 }
        let z = (u - mu - 0.5) / variance.squareRoot()
        // Two-sided: 2 · P(Z > z), clipped to [0, 1] as scipy does.
        return Swift.min(1, Swift.max(0, erfc(z / 2.0.squareRoot())))
    }

    /// Ranks 1...n with ties given their average rank.
    static func midranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var i = 0
        while i < order.count {
            var j = i + 1
            while j < order.count && values[order[j]] == values[order[i]] { j += 1 }
            let rank = Double(i + j + 1) / 2  // average of ranks i+1 ... j
            for k in i..<j { ranks[order[k]] = rank }
            i = j
        }
        return ranks
    }
}
