@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchResults
@testable import BenchCompare

/// A timed change beyond anything the recorded load and the processes of one build can explain
/// (`NoiseBound`) is called, whatever the repetitions a side or the busy-machine rule withhold
/// (issue 48, hole 2: a query 718 ns → 89.7 µs, ratio 134 [110, 164], was left `noisy`), and an
/// A/A comparison is still never a change.
@Suite struct NoiseBoundTests {
    /// Two plain runs on 2 cores at load averages 0.5 and `headLoad`.
    static func report(_ base: [[String]], _ head: [[String]], baseLoad: Double = 0.5, headLoad: Double,
                       options: RowComparison.Options = .init()) throws -> ComparisonReport {
        try ComparisonReport(base: BusyMachineTimedChangeTests.run(base, load: baseLoad, own: nil),
                             head: BusyMachineTimedChangeTests.run(head, load: headLoad, own: nil), options: options)
    }

    /// The row: five processes a side, the head on a machine at load 11.5 on 2 cores (F =
    /// 5.75, a bound of 23×). The slowdown is called and said; the same query sped up is
    /// `improved`; a 3× slowdown (what a load can do: feed-heights-fd read 2–3× slower) stays
    /// withheld, and so does a 20× one, inside the bound.
    @Test func aHundredfoldChangeOnABusyMachineIsCalled() throws {
        let fast = ResultsFixtures.samples(center: 718, spread: 0.05, shift: 0.05, seed: 1)
        let slow = ResultsFixtures.samples(center: 89_700, spread: 0.05, shift: 0.05, seed: 2)
        let slower = try Self.report(fast, slow, headLoad: 11.5)
        let row = try #require(slower.rows.first)
        #expect(row.judgement == .processes)
        #expect(abs(row.noiseBound - 23) < 1e-9, "\(row.noiseBound)")
        #expect(row.changeInterval.low > 100)
        #expect(row.verdict == .regressed && row.beyondNoise && !row.changeWithheld)
        #expect(slower.exitStatus == 2)
        #expect(slower.warnings.contains { $0.hasPrefix("1 timed change lies beyond anything the recorded load (a load factor of 5.75)") })
        #expect(!slower.warnings.contains { $0.contains("cannot be told from the load") })
        let faster = try Self.report(slow, fast, headLoad: 11.5)
        #expect(faster.rows.first?.verdict == .improved)
        #expect(faster.exitStatus == 4)
        for factor in [3.0, 20.0] {
            let within = try Self.report(fast, ResultsFixtures.samples(center: 718 * factor, spread: 0.05, shift: 0.05, seed: 2), headLoad: 11.5)
            let row = try #require(within.rows.first)
            #expect(row.verdict == .noisy && row.changeWithheld && !row.beyondNoise, "\(factor)×")
            #expect(within.exitStatus == 3)
        }
    }

    /// The bound follows the busier side's load: at load 60 on 2 cores (F = 30, a bound of at least
    /// 120×) a 125× slowdown whose interval reaches below the bound stays withheld, where at load
    /// 11.5 it would be called.
    @Test func theBoundGrowsWithTheLoad() throws {
        let fast = ResultsFixtures.samples(center: 718, spread: 0.05, shift: 0.3, seed: 1)
        let slow = ResultsFixtures.samples(center: 89_700, spread: 0.05, shift: 0.3, seed: 2)
        let report = try Self.report(fast, slow, baseLoad: 60, headLoad: 0.5)
        let row = try #require(report.rows.first)
        #expect(row.noiseBound >= 120)
        #expect(row.changeInterval.low < row.noiseBound && row.changeInterval.low > 23)
        #expect(row.verdict == .noisy && row.changeWithheld)
    }

    /// One repetition a side (judged by samples) on a busy machine: the hundredfold slowdown is
    /// called; a 3× one is withheld.
    @Test func aHundredfoldChangeOfOneProcessASideIsCalled() throws {
        let fast = ResultsFixtures.samples(center: 718, spread: 0.05, repetitions: 1, seed: 1)
        let slow = ResultsFixtures.samples(center: 89_700, spread: 0.05, repetitions: 1, seed: 2)
        let row = try #require(try Self.report(fast, slow, headLoad: 11.5).rows.first)
        #expect(row.judgement == .samples)
        #expect(row.verdict == .regressed && row.beyondNoise)
        let three = try #require(try Self.report(fast, ResultsFixtures.samples(center: 2154, spread: 0.05, repetitions: 1, seed: 2),
                                                 headLoad: 11.5).rows.first)
        #expect(three.verdict == .noisy && three.changeWithheld)
    }

    /// Too few repetitions a side for a claim (two, `run --quick`; five where compare-commits asks
    /// eight): a hundredfold slowdown is called all the same; a 20% one still awaits repetitions.
    @Test func aHundredfoldChangeNeedsNoMoreRepetitions() throws {
        let quick = try Self.report(ResultsFixtures.samples(center: 718, spread: 0.05, shift: 0.01, repetitions: 2, seed: 1),
                                    ResultsFixtures.samples(center: 89_700, spread: 0.05, shift: 0.01, repetitions: 2, seed: 2), headLoad: 0.5)
        let row = try #require(quick.rows.first)
        #expect(row.verdict == .regressed && row.beyondNoise && !row.awaitsRepetitions)
        #expect(quick.warnings.contains { $0.hasPrefix("1 timed change lies beyond") })
        #expect(!quick.warnings.contains { $0.contains("looks changed") })
        let eight = RowComparison.Options(repetitionsForChange: 8)
        let five = try #require(try Self.report(ResultsFixtures.samples(center: 718, spread: 0.05, shift: 0.05, seed: 1),
                                                ResultsFixtures.samples(center: 89_700, spread: 0.05, shift: 0.05, seed: 2),
                                                headLoad: 0.5, options: eight).rows.first)
        #expect(five.verdict == .regressed && !five.awaitsRepetitions)
        let small = try #require(try Self.report(ResultsFixtures.samples(center: 1000, spread: 0.01, repetitions: 2, seed: 1),
                                                 ResultsFixtures.samples(center: 1200, spread: 0.01, repetitions: 2, seed: 2),
                                                 headLoad: 0.5).rows.first)
        #expect(small.verdict == .noisy && small.awaitsRepetitions && !small.beyondNoise)
    }

    /// A/A: quick runs of one build (two processes a side), each process at full or half speed
    /// (the widest the processes of one build were seen apart), on a quiet machine and at the
    /// loads of the plain A/A experiment (7 and 13 on 2 cores). 100 pairs each: none a change;
    /// and a comparison of a run with itself is unchanged at any load.
    @Test(arguments: [(0.5, 0.5), (7.0, 13.0)])
    func anAAComparisonIsNeverAChange(baseLoad: Double, headLoad: Double) throws {
        var alarms: [String] = []
        for seed in UInt64(0)..<100 {
            var generator = SplitMix64(seed: seed)
            func side(_ seed: UInt64) -> [[String]] {
                let levels = (0..<2).map { _ in ProcessBoundMetricTests.uniform(&generator) < 0.5 ? 1.0 : 2.0 }
                return RepetitionJudgementTests.rows(center: 1000, factors: levels, seed: seed)
            }
            let report = try Self.report(side(seed * 2), side(seed * 2 + 1), baseLoad: baseLoad, headLoad: headLoad)
            if let row = report.rows.first, row.verdict == .regressed || row.verdict == .improved {
                alarms.append("seed \(seed): \(row.verdict!) ratio \(row.ratio)")
            }
        }
        #expect(alarms.isEmpty, "\(alarms.count) false alarms: \(alarms.prefix(5))")
        let run = ResultsFixtures.samples(center: 718, spread: 0.3, shift: 0.3, repetitions: 2, seed: 3)
        let same = try Self.report(run, run, baseLoad: baseLoad, headLoad: headLoad)
        #expect(same.rows.allSatisfy { $0.verdict == .unchanged })
        #expect(same.exitStatus == 0)
    }

    /// F is the busier side's load average over its cores, at least 1, and 1 without run.json or
    /// with a load that is no number; the bound is 2 · F · max(2, 1 + θ).
    @Test func theLoadFactorIsTheBusierSidesLoadPerCore() throws {
        func metadata(_ start: Double, _ end: Double?, cores: Int) -> RunMetadata {
            var metadata = RunMetadata.begin(runID: "r", commandLine: ["layout-bench"], directory: "/")
            metadata.machine.activeCores = cores
            metadata.load = RunMetadata.Load(start: [start, 1, 1], end: end.map { [$0, 1, 1] }, ownProcesses: nil)
            return metadata
        }
        #expect(NoiseBound.loadFactor(base: metadata(0.5, 3, cores: 2), head: metadata(11.5, 2, cores: 2)) == 5.75)
        #expect(NoiseBound.loadFactor(base: metadata(9, nil, cores: 4), head: nil) == 2.25)
        #expect(NoiseBound.loadFactor(base: metadata(1, 1.5, cores: 2), head: metadata(0.2, 0.1, cores: 2)) == 1)
        #expect(NoiseBound.loadFactor(base: nil, head: nil) == 1)
        #expect(NoiseBound.loadFactor(base: metadata(.nan, nil, cores: 2), head: metadata(.infinity, nil, cores: 2)) == 1)
        #expect(NoiseBound.factor(load: 1, threshold: 0.05) == 4)
        #expect(NoiseBound.factor(load: 5.75, threshold: 0.05) == 23)
        #expect(NoiseBound.factor(load: 1, threshold: 1.5) == 5)
        #expect(NoiseBound.factor(load: 3, threshold: 2) == 18)
    }
}
