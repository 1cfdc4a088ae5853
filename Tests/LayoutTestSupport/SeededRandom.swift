/// The one seeded generator of the tests: SeededRandom, so every random layout, rect, offset and
/// change sequence can be replayed from the seed a failing test prints. (The harness has its own
/// `SeededRandom` for scenario data, with a fixed public algorithm; this one serves the tests.)
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform in 0...1.
    mutating func fraction() -> Double { Double.random(in: 0...1, using: &self) }
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
}
