import BenchStatistics

/// The one seeded generator of the tests, so every random layout, rect, offset and change
/// sequence can be replayed from the seed a failing test prints. It draws from the harness's
/// `SplitMix64` (the same sequence for the same seed) and adds the helpers tests use.
struct SeededRandom: RandomNumberGenerator {
    private var source: SplitMix64

    init(seed: UInt64) { source = SplitMix64(seed: seed) }

    var state: UInt64 { source.state }

    mutating func next() -> UInt64 { source.next() }

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
