/// SplitMix64 (Steele, Lea, Flood 2014; the constants of Vigna's reference `splitmix64.c`): a small,
/// fast, seedable generator. Deterministic on every platform and Swift version, which
/// `SystemRandomNumberGenerator` is not, so bootstrap intervals repeat for a given seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` by multiply-high (Lemire) without rejection: the bias is below
    /// bound / 2^64, irrelevant for resampling. Unlike `Int.random(in:using:)` its algorithm is fixed here.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0)
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }
}
