@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
import BenchWorkloads

/// `compare` on synthetic samples whose truth is known.
@Suite struct CompareTests {
    @Test func identicalSamplesAreUnchanged() throws {
        let rows = ResultsFixtures.samples(center: 1000, spread: 0.02, seed: 1)
        let report = try ResultsFixtures.report(rows, rows)
        #expect(report.rows.count == 1)
        #expect(report.rows[0].verdict == .unchanged)
        #expect(report.rows[0].ratio == 1)
        #expect(report.exitStatus == 0)
    }

    @Test func tenPercentSlowerWithTightNoiseIsRegressed() throws {
        let report = try ResultsFixtures.report(ResultsFixtures.samples(center: 1000, spread: 0.01, seed: 1),
                                     ResultsFixtures.samples(center: 1100, spread: 0.01, seed: 2))
        let row = try #require(report.rows.first)
        #expect(row.verdict == .regressed)
        #expect(abs(row.ratio - 1.10) < 0.01)
        #expect(row.interval.low > 1.05 && row.interval.high < 1.15)
        #expect(row.pValue < 0.001)
        #expect(report.exitStatus == 2)
    }

    @Test func tenPercentFasterIsImproved() throws {
        let report = try ResultsFixtures.report(ResultsFixtures.samples(center: 1000, spread: 0.01, seed: 1),
                                     ResultsFixtures.samples(center: 900, spread: 0.01, seed: 2))
        #expect(report.rows.first?.verdict == .improved)
        #expect(report.exitStatus == 4)
    }

    @Test func veryNoisySamplesAreNoisy() throws {
        let report = try ResultsFixtures.report(ResultsFixtures.samples(center: 1000, spread: 0.9, repetitions: 1, count: 8, seed: 1),
                                     ResultsFixtures.samples(center: 1100, spread: 0.9, repetitions: 1, count: 8, seed: 2))
        #expect(report.rows.first?.verdict == .noisy)
        #expect(report.exitStatus == 3)
    }

    @Test func aSmallSignificantChangeWithinTheThresholdIsUnchanged() throws {
        let report = try ResultsFixtures.report(ResultsFixtures.samples(center: 1000, spread: 0.002, count: 200, seed: 1),
                                     ResultsFixtures.samples(center: 1010, spread: 0.002, count: 200, seed: 2))
        let row = try #require(report.rows.first)
        #expect(row.pValue < 0.001)
        #expect(row.verdict == .unchanged)
    }

    @Test func thresholdOverrideDecides() throws {
        let base = ResultsFixtures.samples(center: 1000, spread: 0.005, seed: 1), head = ResultsFixtures.samples(center: 1030, spread: 0.005, seed: 2)
        #expect(try ResultsFixtures.report(base, head).rows.first?.verdict == .unchanged)
        var strict = ThresholdOverrides()
        try strict.add("time=2%")
        #expect(try ResultsFixtures.report(base, head, options: .init(thresholds: strict)).rows.first?.verdict == .regressed)
    }

    /// Each process runs a few percent faster or slower as a whole: with several repetitions the
    /// interval must cover that, so an A/A comparison is not called a regression. The same samples
    /// pooled as one repetition are (wrongly) called regressed: judging by repetitions is what
    /// prevents it.
    @Test func betweenProcessShiftsAreNotRegressions() throws {
        var falseRegressions = 0, pooledRegressions = 0
        for seed in UInt64(1)...20 {
            let base = ResultsFixtures.samples(center: 1000, spread: 0.01, shift: 0.08, repetitions: 5, count: 40, seed: seed)
            let head = ResultsFixtures.samples(center: 1000, spread: 0.01, shift: 0.08, repetitions: 5, count: 40, seed: seed + 100)
            let options = RowComparison.Options(resamples: 500)
            if try ResultsFixtures.report(base, head, options: options).rows.first?.verdict == .regressed { falseRegressions += 1 }
            let pooled = { (rows: [[String]]) in
                rows.enumerated().map { index, row in var row = row; row[8] = "1"; row[9] = String(index + 1); return row }
            }
            if try ResultsFixtures.report(pooled(base), pooled(head), options: options).rows.first?.verdict == .regressed { pooledRegressions += 1 }
        }
        #expect(falseRegressions == 0)
        #expect(pooledRegressions > 0)
    }

    @Test func oneRepetitionFallsBackToThePlainBootstrap() {
        let base = (1...50).map { Double($0) }, head = (1...50).map { Double($0) * 1.2 }
        let plain = Bootstrap.medianRatioInterval(base: base, head: head, seed: 9)
        let hierarchical = HierarchicalBootstrap.medianRatioInterval(base: [base], head: [head], seed: 9)
        #expect(plain == hierarchical)
    }

    @Test func hierarchicalIntervalIsWiderWhenRepetitionsDisagree() {
        let agreeing = [[Double]](repeating: (1...30).map { 100 + Double($0 % 5) }, count: 4)
        let disagreeing = (0..<4).map { shift in (1...30).map { 100 + Double($0 % 5) + Double(shift) * 6 } }
        let narrow = HierarchicalBootstrap.medianRatioInterval(base: agreeing, head: agreeing)
        let wide = HierarchicalBootstrap.medianRatioInterval(base: disagreeing, head: disagreeing)
        #expect(wide.high - wide.low > 2 * (narrow.high - narrow.low))
        #expect(wide.contains(1) && narrow.contains(1))
    }

    /// The table is read by people wherever it goes (stdout, compare.txt, compare-commits'
    /// verification-failure report): a mode name carrying a terminal escape comes out escaped.
    @Test func theTableEscapesNamesFromTheResults() throws {
        let base = ResultsFixtures.samples(mode: "a\u{1B}[2J", center: 100, spread: 0.01, seed: 1)
        let head = ResultsFixtures.samples(mode: "a\u{1B}[2J", center: 100, spread: 0.01, seed: 2)
        let text = ComparisonTable.text(try ResultsFixtures.report(base, head), showUnchanged: true)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("a\\u001B[2J"))
    }

    @Test func rowsOnOneSideAreListedNotFatal() throws {
        let base = ResultsFixtures.samples(mode: "a", center: 100, spread: 0.01, seed: 1) + ResultsFixtures.samples(mode: "gone", center: 100, spread: 0.01, seed: 2)
        let head = ResultsFixtures.samples(mode: "a", center: 100, spread: 0.01, seed: 3) + ResultsFixtures.samples(mode: "new", center: 100, spread: 0.01, seed: 4)
        let report = try ResultsFixtures.report(base, head)
        #expect(report.rows.map(\.key.mode) == ["a"])
        #expect(report.oneSided.map(\.key.mode).sorted() == ["gone", "new"])
        #expect(report.oneSided.first { $0.key.mode == "gone" }?.presentIn == .base)
        let csv = ComparisonTable.csv(report)
        #expect(csv.contains("only-in-base") && csv.contains("only-in-head"))
        #expect(ComparisonTable.text(report, showUnchanged: true).contains("s new 1000 query time: only in head"))
    }

    @Test func unsupportedOnOneSideIsListed() throws {
        var head = ResultsFixtures.samples(metric: "instructions", unit: "count", center: 500, spread: 0, repetitions: 1, count: 1, seed: 1)
        head[0][12] = "unsupported"
        let base = ResultsFixtures.samples(metric: "instructions", unit: "count", center: 500, spread: 0, repetitions: 1, count: 1, seed: 1)
        let both = ResultsFixtures.samples(center: 100, spread: 0.01, seed: 5)
        let report = try ResultsFixtures.report(base + both, head + both)
        #expect(report.oneSided.count == 1)
        #expect(report.oneSided[0].reason == "unsupported")
    }

    @Test func exactMetricsAreComparedExactly() throws {
        func allocs(_ value: Double, metric: String = "allocs") -> [[String]] {
            ResultsFixtures.samples(metric: metric, unit: Metric.named(metric, in: Metric.byName(WorkloadCatalog.metrics))!.unit, center: value, spread: 0, repetitions: 1, count: 5, seed: 1)
        }
        #expect(try ResultsFixtures.report(allocs(3), allocs(3)).rows[0].verdict == .unchanged)
        let more = try ResultsFixtures.report(allocs(3), allocs(4))
        #expect(more.rows[0].verdict == .regressed)
        #expect(more.rows[0].pValue.isNaN)            // no test needed: the counts are exact
        #expect(try ResultsFixtures.report(allocs(4), allocs(3)).rows[0].verdict == .improved)
        #expect(try ResultsFixtures.report(allocs(0), allocs(1)).rows[0].verdict == .regressed)   // 0 → 1: ratio infinite
        #expect(try ResultsFixtures.report(allocs(0), allocs(0)).rows[0].verdict == .unchanged)
        // Within the 5% tolerance of alloc_bytes (batch-averaged, so amortised growth moves it a
        // little from run to run), then beyond it.
        #expect(try ResultsFixtures.report(allocs(100_000, metric: "alloc_bytes"), allocs(104_000, metric: "alloc_bytes")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(allocs(100_000, metric: "alloc_bytes"), allocs(106_000, metric: "alloc_bytes")).rows[0].verdict == .regressed)
        // Instructions: 0.5%.
        #expect(try ResultsFixtures.report(allocs(100_000, metric: "instructions"), allocs(100_400, metric: "instructions")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(allocs(100_000, metric: "instructions"), allocs(100_600, metric: "instructions")).rows[0].verdict == .regressed)
        // Recall: higher is better.
        #expect(try ResultsFixtures.report(allocs(1, metric: "recall"), allocs(0.8, metric: "recall")).rows[0].verdict == .regressed)
        #expect(try ResultsFixtures.report(allocs(0.8, metric: "recall"), allocs(1, metric: "recall")).rows[0].verdict == .improved)
    }

    /// The cache simulation's counts claim no change below their floor per operation, whatever its
    /// relative size (heap placement moves a few misses), and beyond it their threshold holds.
    @Test func cacheCountsClaimNoChangeBelowTheirFloor() throws {
        func count(_ value: Double, _ metric: String) -> [[String]] {
            ResultsFixtures.samples(metric: metric, unit: "count", center: value, spread: 0, repetitions: 1, count: 5, seed: 1)
        }
        // The fenwick update of offsets-per-identifier: 964 -> 990 estimated cycles (2.7%, 26 cycles).
        #expect(try ResultsFixtures.report(count(964, "estimated_cycles"), count(990, "estimated_cycles")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(count(990, "estimated_cycles"), count(964, "estimated_cycles")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(count(964, "estimated_cycles"), count(1_000, "estimated_cycles")).rows[0].verdict == .regressed)
        // A large operation: the 1% threshold, not the floor, decides (waterfall-edit stable-lanes
        // height-change: 10,429 -> 10,483 with the same instructions, placement alone).
        #expect(try ResultsFixtures.report(count(10_429, "estimated_cycles"), count(10_483, "estimated_cycles")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(count(100_000, "estimated_cycles"), count(100_900, "estimated_cycles")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(count(100_000, "estimated_cycles"), count(101_100, "estimated_cycles")).rows[0].verdict == .regressed)
        // Misses: a change of less than one a operation never counts.
        #expect(try ResultsFixtures.report(count(0.9, "l1_misses"), count(1.8, "l1_misses")).rows[0].verdict == .unchanged)
        #expect(try ResultsFixtures.report(count(28, "ll_misses"), count(30, "ll_misses")).rows[0].verdict == .regressed)
        // Instructions do not depend on placement: no floor.
        #expect(try ResultsFixtures.report(count(296, "instructions"), count(298, "instructions")).rows[0].verdict == .regressed)
        let text = ComparisonTable.text(try ResultsFixtures.report(count(964, "estimated_cycles"), count(990, "estimated_cycles")), showUnchanged: true)
        #expect(text.contains("estimated_cycles 1% and 35 an operation"))
    }

    /// callgrind measures a non-batched operation in 3 regions whose counts differ a little (the first
    /// pays for lazy state): the row is judged by the regions' total, however the regions overlap.
    @Test func exactMetricsThatVaryAreJudgedByTheirTotal() throws {
        func regions(_ values: [Double]) -> [[String]] {
            values.enumerated().map { index, value in
                ["1", "run", "abc1234", "s", "prepare", "m", "1000", "prepare", "1", String(index + 1),
                 "instructions", "count", CSVWriter.format(value)]
            }
        }
        let base = regions([37_229, 37_100, 37_250])
        let slower = try ResultsFixtures.report(base, regions([38_810, 38_700, 38_820])).rows[0]
        #expect(slower.pValue.isNaN)
        #expect(slower.verdict == .regressed)
        #expect(try ResultsFixtures.report(base, regions([36_000, 35_900, 36_020])).rows[0].verdict == .improved)
        // Overlapping regions whose total is 2.2% larger: a regression (it was `noisy`).
        #expect(try ResultsFixtures.report(base, regions([37_000, 38_000, 39_000])).rows[0].verdict == .regressed)
        // The same regions in another order: the same total, unchanged.
        #expect(try ResultsFixtures.report(base, regions([37_250, 37_229, 37_100])).rows[0].verdict == .unchanged)
    }

    @Test func elementsAreNotJudgedButAChangeIsWarned() throws {
        let time = ResultsFixtures.samples(center: 100, spread: 0.01, seed: 5)
        let base = time + ResultsFixtures.samples(metric: "elements", unit: "count", center: 12, spread: 0, repetitions: 1, count: 3, seed: 1)
        let head = time + ResultsFixtures.samples(metric: "elements", unit: "count", center: 14, spread: 0, repetitions: 1, count: 3, seed: 1)
        let report = try ResultsFixtures.report(base, head)
        #expect(report.rows.map(\.key.metric) == ["time"])
        #expect(report.warnings.contains { $0.contains("the work itself differs") })
    }

    @Test func geometricMeanPerScenario() throws {
        let base = ResultsFixtures.samples(mode: "a", center: 100, spread: 0, seed: 1) + ResultsFixtures.samples(mode: "b", center: 100, spread: 0, seed: 1)
        let head = ResultsFixtures.samples(mode: "a", center: 200, spread: 0, seed: 1) + ResultsFixtures.samples(mode: "b", center: 50, spread: 0, seed: 1)
        let mean = try #require(try ResultsFixtures.report(base, head).geometricMeans.first)
        #expect(mean.rows == 2)
        #expect(abs(mean.ratio - 1) < 1e-12)
    }

    @Test func worstRowsComeFirst() throws {
        let base = ["a", "b", "c"].flatMap { ResultsFixtures.samples(mode: $0, center: 1000, spread: 0.005, seed: 1) }
        let head = ResultsFixtures.samples(mode: "a", center: 900, spread: 0.005, seed: 2) + ResultsFixtures.samples(mode: "b", center: 1300, spread: 0.005, seed: 3)
            + ResultsFixtures.samples(mode: "c", center: 1100, spread: 0.005, seed: 4)
        #expect(try ResultsFixtures.report(base, head).rows.map(\.key.mode) == ["b", "c", "a"])
    }

    /// Rows are judged on every core; each row must still be its own: the same verdict, ratio and
    /// interval as that row judged alone.
    @Test func rowsJudgedInParallelAreTheRowsJudgedAlone() throws {
        let modes = (0..<40).map { "m\($0)" }
        let base = modes.enumerated().flatMap { i, mode in
            ResultsFixtures.samples(mode: mode, center: 1000, spread: 0.01, shift: 0.01, seed: UInt64(i)) }
        let head = modes.enumerated().flatMap { i, mode in
            ResultsFixtures.samples(mode: mode, center: 1000 + 10 * Double(i), spread: 0.01, shift: 0.01, seed: UInt64(100 + i)) }
        let report = try ResultsFixtures.report(base, head)
        #expect(report.rows.count == modes.count)
        for (i, mode) in modes.enumerated() {
            let alone = try ResultsFixtures.report(base.filter { $0[5] == mode }, head.filter { $0[5] == mode })
            let row = try #require(report.rows.first { $0.key.mode == mode })
            #expect(row.ratio == alone.rows[0].ratio, "row \(i)")
            #expect(row.interval.low == alone.rows[0].interval.low && row.interval.high == alone.rows[0].interval.high)
            #expect(row.verdict == alone.rows[0].verdict)
        }
    }

    // MARK: Bad input

    @Test func summaryCSVIsRefusedWithAHint() {
        let text = CSVSchema.summaryHeader.joined(separator: ",") + "\n"
        #expect(throws: CompareError.self) { try ResultSet.parse(text, file: "x.csv") }
        do { _ = try ResultSet.parse(text, file: "x.csv") } catch { #expect(error.description.contains("summary.csv")) }
    }

    /// Schema 1 copied a group's peak_rss under every mode; read, the copies become the one
    /// group-level row schema 2 writes, so a version-1 base pairs with a version-2 head.
    @Test func schemaOnePeakRSSCopiesBecomeOneGroupRow() throws {
        func peaks(schema: String, modes: [String], operation: String) -> [[String]] {
            modes.flatMap { mode in (1...3).map { repetition in
                [schema, "run", "abc1234", "s", "query", mode, "1000", operation, String(repetition), "1", "peak_rss", "bytes",
                 String(1_000_000 + repetition)]
            } }
        }
        let times = ResultsFixtures.samples(center: 1000, spread: 0.02, seed: 1)
        var old = times.map { ["1"] + $0.dropFirst() }
        old += peaks(schema: "1", modes: ["m", "other"], operation: "query")
        let new = times.map { ["2"] + $0.dropFirst() } + peaks(schema: "2", modes: [""], operation: "")
        let base = try ResultSet.parse(ResultsFixtures.csv(old), file: "base.csv")
        let group = RowKey(scenario: "s", mode: "", items: 1000, operation: "", metric: "peak_rss")
        #expect(base.series[group]?.repetitions == [[1_000_001], [1_000_002], [1_000_003]])
        #expect(!base.series.keys.contains { $0.metric == "peak_rss" && $0.mode != "" })
        let report = try ComparisonReport(base: base, head: try ResultSet.parse(ResultsFixtures.csv(new), file: "head.csv"), options: .init())
        #expect(report.rows.contains { $0.key == group })
        #expect(report.rows.count == 2)
    }

    @Test func wrongHeaderAndSchemaVersionAreRefused() {
        #expect(throws: CompareError.self) { try ResultSet.parse("a,b,c\n1,2,3\n", file: "x.csv") }
        var rows = ResultsFixtures.samples(center: 1, spread: 0, repetitions: 1, count: 2, seed: 1)
        rows[1][0] = "3"
        do {
            _ = try ResultSet.parse(ResultsFixtures.csv(rows), file: "x.csv")
            Issue.record("schema 3 accepted")
        } catch {
            #expect(error.description == "x.csv: line 3: schema version 3; this layout-bench reads versions 1 to 2 (compare results written by a CSV schema it knows)")
        }
        rows = ResultsFixtures.samples(center: 1, spread: 0, repetitions: 1, count: 2, seed: 1)
        rows[0][12] = "fast"
        do { _ = try ResultSet.parse(ResultsFixtures.csv(rows), file: "x.csv"); Issue.record("accepted") } catch {
            #expect(error.description.contains("line 2: value: expected a number"))
        }
        #expect(throws: CompareError.self) { try ResultSet.parse(CSVSchema.samplesHeader.joined(separator: ",") + "\n", file: "x.csv") }
    }

    @Test func nothingInCommonIsAnError() {
        #expect(throws: CompareError.self) {
            try ResultsFixtures.report(ResultsFixtures.samples(scenario: "x", center: 1, spread: 0, seed: 1), ResultsFixtures.samples(scenario: "y", center: 1, spread: 0, seed: 1))
        }
    }

    @Test func missingFilesAreNamed() {
        do { _ = try ResultSet.load("/nonexistent/results"); Issue.record("accepted") } catch {
            #expect(error.description.hasPrefix("/nonexistent/results: no such file"))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("compare-empty-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do { _ = try ResultSet.load(directory); Issue.record("accepted") } catch {
            #expect(error.description.contains("samples.csv: missing"))
        }
    }

    @Test func thresholdParsing() throws {
        var overrides = ThresholdOverrides()
        try overrides.add("time=3%")
        try overrides.add("instructions=0.5")
        try overrides.add("7%")
        #expect(overrides.byMetric == ["time": 0.07, "instructions": 0.005])
        #expect(throws: CompareError.self) { try overrides.add("time=fast") }
        #expect(throws: CompareError.self) { try overrides.add("time=-1%") }
        #expect(throws: CompareError.self) { try overrides.add("=3%") }
    }

    @Test func formatting() {
        #expect(ComparisonTable.format(1234, unit: "ns") == "1.23 µs")
        #expect(ComparisonTable.format(95.04, unit: "ns") == "95.0 ns")
        #expect(ComparisonTable.format(42_000_000, unit: "bytes") == "42 MB")
        #expect(ComparisonTable.format(0.8412, unit: "fraction") == "0.841")
        #expect(ComparisonTable.format(17, unit: "count") == "17")
    }
}
