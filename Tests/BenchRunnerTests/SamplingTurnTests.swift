import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// `SamplingTurn`: how many turns a side gets in a duet, simulated on a clock that advances by each
/// sample's duration, with the brief policy of `scripts/compare-commits`' rounds.
@Suite struct SamplingTurnTests {
    /// Turns one operation takes under `policy` when each sample lasts `sampleNanoseconds`.
    static func turns(_ turn: SamplingTurn, policy: SamplingPolicy, sampleNanoseconds: UInt64) -> Int {
        var count = 0, elapsed: UInt64 = 0, finished = false, turnCount = 0
        while !finished {
            turnCount += 1
            var inTurn: UInt64 = 0, samples = 0
            repeat {
                count += 1; samples += 1
                elapsed += sampleNanoseconds; inTurn += sampleNanoseconds
                finished = policy.isDone(count: count, elapsedNanoseconds: elapsed, coversTrace: true)
            } while !finished && !turn.isOver(elapsedNanoseconds: inTurn, samples: samples)
        }
        return turnCount
    }

    /// A fast operation (batches of 10 µs) alternates dozens of times; in 5 ms turns it took all
    /// of its brief samples in one turn a side, one after the other.
    @Test func aFastOperationAlternatesDozensOfTimesInADuet() {
        #expect(Self.turns(.duet, policy: .brief, sampleNanoseconds: 10_000) >= 25)
        #expect(Self.turns(.alone, policy: .brief, sampleNanoseconds: 10_000) <= 2)
    }

    /// An operation of 0.4 ms takes turns of two or three samples; a slow one alternates sample by sample.
    @Test func slowerOperationsTakeTurnsOfAFewSamplesOrOne() {
        #expect(Self.turns(.duet, policy: .brief, sampleNanoseconds: 400_000) >= 15)
        #expect(Self.turns(.duet, policy: .brief, sampleNanoseconds: 20_000_000) == 3)
    }

    @Test func aTurnEndsAtItsSamplesOrItsTime() {
        #expect(SamplingTurn.duet.isOver(elapsedNanoseconds: 1, samples: 16))
        #expect(!SamplingTurn.duet.isOver(elapsedNanoseconds: 999_999, samples: 15))
        #expect(SamplingTurn.duet.isOver(elapsedNanoseconds: 1_000_000, samples: 1))
        #expect(!SamplingTurn.alone.isOver(elapsedNanoseconds: 4_999_999, samples: 10_000))
    }
}
