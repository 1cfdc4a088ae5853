/// A small seeded generator (PCG-XSH-RR over a 64-bit LCG, two steps per 64-bit value) so that
/// every random layout of these tests can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 0x5851_F42D_4C95_7F2D &+ 0x1405_7B7E_F767_814F
    }

    private mutating func next32() -> UInt32 {
        let old = state
        state = old &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let shifted = UInt32(truncatingIfNeeded: ((old >> 18) ^ old) >> 27)
        let rotation = UInt32(truncatingIfNeeded: old >> 59)
        return (shifted >> rotation) | (shifted << ((~rotation &+ 1) & 31))
    }

    mutating func next() -> UInt64 { UInt64(next32()) << 32 | UInt64(next32()) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    /// Uniform in 0...1.
    mutating func fraction() -> Double { Double.random(in: 0...1, using: &self) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
}
