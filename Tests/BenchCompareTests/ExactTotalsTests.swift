import Foundation
import Testing
import HarnessTestSupport
@testable import BenchStatistics
@testable import BenchResults
@testable import BenchCompare
import BenchWorkloads

/// An exact row is judged by its total over the steps both sides counted (`ExactTotals`), never by
/// a test over its steps (issue 48, hole 3: a whole-suite `compare-commits --instructions` exited 3
/// on exact rows whose steps differ one by one): the exact track answers 0, 2 or 4, and an exact
/// A/A is 0 by construction.
@Suite struct ExactTotalsTests {
    /// One row of `metric`: per repetition, its steps in order (samples 1, 2, …).
    static func steps(_ metric: Metric, _ repetitions: [[Double]], operation: String = "insert") -> [[String]] {
        var rows: [[String]] = []
        for (repetition, values) in repetitions.enumerated() {
            for (index, value) in values.enumerated() {
                rows.append(["2", "run", "abc1234", "offsets-insert", "offsets", "fenwick", "30000", operation,
                             String(repetition + 1), String(index + 1), metric.rawValue, metric.unit, CSVWriter.format(value)])
            }
        }
        return rows
    }

    /// A trace whose steps cost from 1,000 to 40,000 instructions (seeded).
    static func trace(_ count: Int, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in (1_000 + Double(generator.next() % 39_000)).rounded() }
    }

    /// Every step 1% dearer: the total moves by 1%, beyond instructions' 0.5%, and the row is
    /// `regressed` (a rank test over steps that differ fortyfold saw nothing: `noisy` before);
    /// compare.txt names the steps that moved.
    @Test func aChangeOfEveryStepIsJudgedByTheTotal() throws {
        let base = Self.trace(40, seed: 1)
        let head = base.map { ($0 * 1.01).rounded() }
        let report = try ResultsFixtures.report(Self.steps(.instructions, [base]), Self.steps(.instructions, [head]))
        let row = try #require(report.rows.first)
        #expect(row.judgement == .exact)
        #expect(row.verdict == .regressed)
        #expect(abs(row.ratio - head.reduce(0, +) / base.reduce(0, +)) < 1e-12)
        #expect(report.exitStatus == 2)
        #expect(row.pValue.isNaN && row.interval.low == row.ratio && row.interval.high == row.ratio)
        let totals = try #require(row.totals)
        #expect(totals.steps == 40 && totals.differingSteps == 40)
        #expect(totals.moved.map(\.number) == [1, 2, 3])
        #expect(row.baseMedian == base.reduce(0, +) / 40 && row.headMedian == head.reduce(0, +) / 40)
        let text = ComparisonTable.text(report, showUnchanged: false)
        let line = "  offsets-insert fenwick 30000 insert instructions: total \(ComparisonTable.format(base.reduce(0, +), unit: "count")) → "
            + "\(ComparisonTable.format(head.reduce(0, +), unit: "count")) over 40 steps; 40 differ; step 1 "
            + "\(ComparisonTable.format(base[0], unit: "count")) → \(ComparisonTable.format(head[0], unit: "count"))"
        #expect(text.contains("where the counts moved") && text.contains(line), "\(text)")
        // The same 1% cheaper: improved.
        #expect(try ResultsFixtures.report(Self.steps(.instructions, [head]), Self.steps(.instructions, [base])).rows.first?.verdict == .improved)
    }

    /// Steps that differ one by one with the same total: `unchanged` (the medians differ by a quarter,
    /// and this was `noisy`); a total within the threshold is `unchanged` too.
    @Test func stepsThatDifferWithTheSameTotalAreUnchanged() throws {
        let moved = try ResultsFixtures.report(Self.steps(.instructions, [[100, 200, 900]]), Self.steps(.instructions, [[150, 150, 900]]))
        let row = try #require(moved.rows.first)
        #expect(row.verdict == .unchanged && row.ratio == 1)
        #expect(row.totals?.differingSteps == 2)
        #expect(moved.exitStatus == 0)
        let within = try ResultsFixtures.report(Self.steps(.instructions, [[10_000, 20_000, 70_000]]),
                                             Self.steps(.instructions, [[10_300, 20_000, 70_100]]))
        #expect(within.rows.first?.verdict == .unchanged)
    }

    /// An exact A/A: the same counts, in any number of repetitions, and with one side counting
    /// fewer steps of the trace (time covered a shorter prefix) give a ratio of exactly 1; so do
    /// 200 random traces of every exact metric, whatever their steps.
    @Test func anExactAAIsUnchangedByConstruction() throws {
        let trace = Self.trace(32, seed: 7)
        let same = try ResultsFixtures.report(Self.steps(.allocs, [trace, trace, trace]), Self.steps(.allocs, [trace]))
        #expect(same.rows.first?.ratio == 1 && same.exitStatus == 0)
        let prefix = try ResultsFixtures.report(Self.steps(.instructions, [trace]), Self.steps(.instructions, [Array(trace.prefix(16))]))
        let row = try #require(prefix.rows.first)
        #expect(row.totals?.steps == 16)
        #expect(row.ratio == 1 && row.verdict == .unchanged)
        for seed in UInt64(0)..<200 {
            let metric = [Metric.instructions, .estimatedCycles, .allocs, .recall][Int(seed % 4)]
            var values = Self.trace(1 + Int(seed % 50), seed: seed)
            if metric == .recall { values = values.map { $0 / 40_000 } }
            let report = try ResultsFixtures.report(Self.steps(metric, [values]), Self.steps(metric, [values]))
            #expect(report.rows.first?.ratio == 1 && report.exitStatus == 0, "seed \(seed)")
        }
    }

    /// The exact track of a whole suite: rows whose steps differ one by one, some changed beyond
    /// their threshold, some within it: no row is `noisy`, and the exit status is 0, 2 or 4.
    @Test func theExactTrackAnswersZeroTwoOrFour() throws {
        var exits: Set<Int32> = []
        for seed in UInt64(0)..<100 {
            var generator = SplitMix64(seed: seed)
            let base = Self.trace(2 + Int(seed % 30), seed: seed)
            // Each step scaled by its own factor, 0.9 to 1.1: the total moves by anything within that.
            let head = base.map { ($0 * (0.9 + 0.2 * Double(generator.next() >> 11) / Double(1 << 53))).rounded() }
            let report = try ResultsFixtures.report(Self.steps(.instructions, [base]), Self.steps(.instructions, [head]))
            let row = try #require(report.rows.first)
            #expect(row.verdict != .noisy, "seed \(seed): ratio \(row.ratio)")
            exits.insert(report.exitStatus)
        }
        #expect(exits.isSubset(of: [0, 2, 4]) && exits.contains(2) && exits.contains(4), "\(exits)")
    }

    /// The floor of the cache simulation's counts holds per step: 26 estimated cycles a step more
    /// (2.7%) is placement, 36 is a change; a hot path that allocated nothing and now allocates 5
    /// times a step is a regression.
    @Test func theFloorAndZeroStillHold() throws {
        let base: [Double] = [964, 1_200, 730, 1_010]
        let placement = try ResultsFixtures.report(Self.steps(.estimatedCycles, [base]), Self.steps(.estimatedCycles, [base.map { $0 + 26 }]))
        #expect(placement.rows.first?.verdict == .unchanged)
        let dearer = try ResultsFixtures.report(Self.steps(.estimatedCycles, [base]), Self.steps(.estimatedCycles, [base.map { $0 + 36 }]))
        #expect(dearer.rows.first?.verdict == .regressed)
        let allocating = try ResultsFixtures.report(Self.steps(.allocs, [[0, 0, 0, 0]]), Self.steps(.allocs, [[5, 5, 5, 5]]))
        #expect(allocating.rows.first?.verdict == .regressed && allocating.rows.first?.ratio == .infinity)
        #expect(allocating.exitStatus == 2)
        let one = try ResultsFixtures.report(Self.steps(.allocs, [[0, 0, 0, 0]]), Self.steps(.allocs, [[0, 0, 5, 0]]))
        #expect(one.rows.first?.verdict == .regressed)
        #expect(one.rows.first?.totals?.moved == [ExactTotals.Step(number: 3, base: 0, head: 5)])
    }
}
