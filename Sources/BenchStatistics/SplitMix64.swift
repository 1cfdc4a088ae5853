/// SplitMix64 (Steele, Lea, Flood 2014; the seeding generator of xoshiro): a tiny, fast PRNG
/// whose output is defined by 64-bit integer arithmetic only, so every platform produces the
/// same sequence for the same seed. Not for cryptography.
package struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// A stream derived from `seed` and a stream number, for independent sequences
    /// (heights, widths, …) from one scenario seed.
    package init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` by multiply-high (Lemire) without rejection: the bias is
    /// below bound / 2^64, irrelevant for bootstrap resampling, and the algorithm is fixed here.
    package mutating func next(below bound: Int) -> Int {
        precondition(bound > 0)
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A double in [0, 1) from the top 53 bits (exact, no rounding).
    package mutating func nextDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A double in [lower, upper] (`lower + (upper - lower) * u`, u in [0, 1)); `upper` itself
    /// only when `lower == upper`.
    package mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextDouble()
    }

    /// An integer in the closed range, without modulo bias (rejection sampling).
    package mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if span == 0 { return Int(bitPattern: UInt(next())) }  // the whole Int range
        let limit = UInt64.max - UInt64.max % span
        var x = next()
        while x >= limit { x = next() }
        return range.lowerBound &+ Int(x % span)
    }
}
