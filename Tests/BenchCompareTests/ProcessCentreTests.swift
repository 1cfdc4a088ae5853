@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchResults
@testable import BenchCompare

/// A process's centre (`ProcessCentre`): the geometric midmean against a plainly written one,
/// what it buys a row whose process walks a trace of unequal steps, and the median it falls back
/// to where a sample is zero.
@Suite struct ProcessCentreTests {
    /// The midmean written another way: take the lowest and the highest out of an unsorted copy,
    /// one pair at a time, ⌊n/4⌋ times; then the product of the n-th roots of what is left.
    static func plainMidmean(_ values: [Double]) -> Double {
        var left = values
        for _ in 0..<(values.count / 4) {
            left.remove(at: left.firstIndex(of: left.min()!)!)
            left.remove(at: left.firstIndex(of: left.max()!)!)
        }
        var product = 1.0
        for value in left { product *= pow(value, 1 / Double(left.count)) }
        return product
    }

    @Test func midmeanIsTheGeometricMeanOfTheMiddleHalf() {
        // Hand-computed: nothing set aside below four samples; a quarter at each end from four on.
        #expect(ProcessCentre.midmean([7]) == 7)
        #expect(abs(ProcessCentre.midmean([1, 100, 10]) - 10) < 1e-12)
        #expect(abs(ProcessCentre.midmean([8, 1, 4, 2]) - 8.0.squareRoot()) < 1e-12)
        #expect(abs(ProcessCentre.midmean([1e9, 3, 3, 1e-9, 3]) - 3) < 1e-12)
        #expect(ProcessCentre.midmean([]).isNaN)
        var generator = SplitMix64(seed: 28)
        for _ in 0..<3000 {
            let count = Int(generator.next() % 41) + 1
            // Few distinct values, so that ties at the cut are common.
            let values = (0..<count).map { _ in Double(generator.next() % 9 + 1) * pow(10, Double(generator.next() % 4)) }
            let fast = ProcessCentre.midmean(values), plain = Self.plainMidmean(values)
            #expect(abs(fast - plain) <= 1e-9 * plain, "\(values): \(fast), plainly \(plain)")
        }
    }

    /// samples.csv rows: one process per entry of `speeds`, each walking a trace of 21 steps whose
    /// costs climb 10% a step (100 to 673 ns), each sample off by its own noise (σ 4%).
    static func traceRows(speeds: [Double], seed: UInt64) -> [[String]] {
        var generator = SplitMix64(seed: seed)
        var rows: [[String]] = []
        for (index, speed) in speeds.enumerated() {
            for step in 0..<21 {
                let value = 100 * pow(1.1, Double(step)) * speed * exp(0.04 * RepetitionJudgementTests.normal(&generator))
                rows.append(["1", "run", "abc1234", "s", "heights", "m", "1000", "batch-update", String(index + 1),
                             String(step + 1), "time", "ns", CSVWriter.format(value)])
            }
        }
        return rows
    }

    /// Processes that run at one speed but whose samples each carry their own noise: the median is
    /// one sample, so it moves by that noise and the row's θ widens to three times it; the midmean
    /// averages eleven steps, so the row is judged at the metric's 5%, an A/A is `unchanged` and
    /// an 8% slowdown of every step is `regressed` from eight pairs.
    @Test func aTraceOfUnequalStepsIsJudgedAtTheMetricsThreshold() throws {
        let eight = RowComparison.Options(repetitionsForChange: 8)
        let speeds = Array(repeating: 1.0, count: 8)
        let base = Self.traceRows(speeds: speeds, seed: 1)
        let same = try #require(ResultsFixtures.report(base, Self.traceRows(speeds: speeds, seed: 2), options: eight).rows.first)
        #expect(same.judgement == .processes)
        #expect(same.threshold == 0.05, "θ \(same.threshold)")
        #expect(same.verdict == .unchanged)
        let slower = try #require(ResultsFixtures.report(
            base, Self.traceRows(speeds: Array(repeating: 1.08, count: 8), seed: 2), options: eight).rows.first)
        #expect(slower.verdict == .regressed, "\(slower.ratio) [\(slower.interval.low), \(slower.interval.high)] θ \(slower.threshold)")
        // The same processes reduced to their medians spread three times as far.
        let sides = try [base, Self.traceRows(speeds: speeds, seed: 2)].map {
            try #require(ResultSet.parse(ResultsFixtures.csv($0), file: "x.csv").series.values.first)
        }
        let byMedian = try #require(RepetitionRatio(
            base: sides[0].repetitions.map(Quantile.median), baseNumbers: sides[0].repetitionNumbers,
            head: sides[1].repetitions.map(Quantile.median), headNumbers: sides[1].repetitionNumbers))
        let byMidmean = try #require(RepetitionRatio(
            base: sides[0].repetitions.map(ProcessCentre.midmean), baseNumbers: sides[0].repetitionNumbers,
            head: sides[1].repetitions.map(ProcessCentre.midmean), headNumbers: sides[1].repetitionNumbers))
        #expect(byMedian.processSpread > 2 * byMidmean.processSpread, "\(byMedian.processSpread), \(byMidmean.processSpread)")
    }

    /// A row with a zero sample (an allocation count) reduces every process of both sides to its
    /// median, and its ratio is the geometric mean of the pairs' ratios of medians.
    @Test func aZeroSampleFallsBackToMediansOnBothSides() throws {
        let base: [[Double]] = [[0, 40, 60], [50, 52, 54], [48, 0, 70]]
        let head: [[Double]] = [[44, 46, 90], [0, 60, 61], [55, 56, 57]]
        let centres = ProcessCentre.centres(base: base, head: head)
        #expect(!centres.byMidmean)
        #expect(centres.base == [40, 52, 48] && centres.head == [46, 60, 56])
        let positive = ProcessCentre.centres(base: [[1, 2, 4]], head: [[2, 2, 2]])
        #expect(positive.byMidmean && abs(positive.base[0] - 2) < 1e-12)
        func rows(_ repetitions: [[Double]]) -> [[String]] {
            repetitions.enumerated().flatMap { index, values in
                values.enumerated().map { sample, value in
                    ["1", "run", "abc1234", "s", "reuse", "m", "1000", "scroll-step", String(index + 1), String(sample + 1),
                     "alloc_bytes", "bytes", CSVWriter.format(value)]
                }
            }
        }
        let row = try #require(ResultsFixtures.report(rows(base), rows(head)).rows.first)
        #expect(row.judgement == .processes)
        let expected = exp((log(46.0 / 40) + log(60.0 / 52) + log(56.0 / 48)) / 3)
        #expect(abs(row.ratio - expected) < 1e-12, "\(row.ratio), expected \(expected)")
    }
}
