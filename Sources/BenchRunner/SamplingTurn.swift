/// How long one operation samples before the next takes its turn (at least one sample).
///
/// Alone, turns of 5 ms, not single samples: an operation sampled right after another mode's
/// operation starts in caches that operation has just filled with its own data. One sample each in
/// turn made a fast height change at a million items measure several times slower when the scenario
/// also timed inserts that move megabytes: how fast an operation measured depended on which others
/// the scenario listed. In turns of about 5 ms, a fast operation runs hundreds of samples back to
/// back and only the first of each turn starts cold, while every operation still gets dozens of
/// turns spread over its sampling time, so slow drift of the machine reaches all.
///
/// In a duet (`DuetTurns`) a turn is shorter: 16 samples or 1 ms, whichever ends first. The partner
/// runs the same operation between two turns, so the caches argument does not apply, and what
/// matters is that the two sides sample through the same spells of the core: its speed moves
/// between states that last a few milliseconds. A fast operation takes all of its brief samples in
/// a few milliseconds; in 5 ms turns that was one turn a side, one after the other, and pairs of one
/// binary then differed widely (docs/experiments/2026-11-26-duet-turn-length.md). Turns of 16
/// samples or 1 ms give such an operation dozens of alternations, and a slower one alternates
/// sample by sample.
struct SamplingTurn: Equatable {
    var nanoseconds: UInt64
    var samples: Int

    static let alone = SamplingTurn(nanoseconds: 5_000_000, samples: .max)
    static let duet = SamplingTurn(nanoseconds: 1_000_000, samples: 16)

    /// Whether a turn that has lasted `elapsedNanoseconds` and taken `samples` samples is over.
    func isOver(elapsedNanoseconds: UInt64, samples taken: Int) -> Bool {
        elapsedNanoseconds >= nanoseconds || taken >= samples
    }
}
