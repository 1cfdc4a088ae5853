import Foundation  // exp, log, lgamma, erfc: the C library's math, the same symbols on every OS

/// The χ² distribution: its distribution function through the regularised lower incomplete gamma
/// function (series below a + 1, continued fraction above; after Numerical Recipes §6.2), and its
/// quantiles by bisection. `RowComparison` bounds a row's process spread with it: a standard
/// deviation s from ν degrees of freedom lies below σ·√(χ²(p, ν)/ν) with probability p.
package enum ChiSquare {
    /// P(X ≤ x) for X ~ χ²(ν).
    package static func cdf(_ x: Double, degreesOfFreedom nu: Double) -> Double {
        guard x > 0, nu > 0 else { return 0 }
        return regularizedLowerGamma(nu / 2, x / 2)
    }

    /// The x with P(X ≤ x) = p (exact to 1e-12 relative).
    package static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        guard p > 0, nu > 0 else { return 0 }
        guard p < 1 else { return .infinity }
        var low = 0.0, high = Swift.max(1, nu)
        while cdf(high, degreesOfFreedom: nu) < p { low = high; high *= 2 }
        for _ in 0..<200 where high - low > 1e-12 * high {
            let middle = (low + high) / 2
            if cdf(middle, degreesOfFreedom: nu) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// P(a, x) = γ(a, x) / Γ(a).
    static func regularizedLowerGamma(_ a: Double, _ x: Double) -> Double {
        let front = exp(a * log(x) - x - lgamma(a))
        if x < a + 1 {
            var term = 1 / a, sum = term, n = a
            for _ in 0..<1000 {
                n += 1
                term *= x / n
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return Swift.min(1, sum * front)
        }
        // Q(a, x) by Lentz's continued fraction.
        let tiny = 1e-300
        var b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d
        for i in 1...1000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b; if abs(d) < tiny { d = tiny }
            c = b + an / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return Swift.max(0, 1 - front * h)
    }
}
