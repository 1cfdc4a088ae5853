import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
import BenchWorkloads

/// A count of a batchable operation is a mean per operation over the prefix of its trace that each
/// run covered (run.json's `coverage`): two runs of one binary that covered 64 and 32 operations
/// read 62.265625 and 62.53125 `allocs` of `cell-measure-feed-text fresh-engine measure`, and
/// `compare` called it `regressed` (docs/experiments/2026-12-02-exact-track-against-the-issue-50-base.md).
/// Such a row is left unjudged and named; over the same prefix a count stays exact.
@Suite struct TracePrefixTests {
    static let scenario = "cell-measure-feed-text", mode = "fresh-engine", items = 1_000, operation = "measure"

    /// One row of `metric`: per repetition, its values in order.
    static func rows(_ metric: String, _ repetitions: [[Double]], unit: String = "count", operation: String = operation) -> [[String]] {
        var rows: [[String]] = []
        for (repetition, values) in repetitions.enumerated() {
            for (index, value) in values.enumerated() {
                rows.append(["2", "run", "abc1234", scenario, "cell-measure", mode, String(items), operation,
                             String(repetition + 1), String(index + 1), metric, unit, CSVWriter.format(value)])
            }
        }
        return rows
    }

    /// A coverage entry of the operation: `operations` of a trace of 2,000.
    static func entry(_ operations: Int, steps: OperationCoverage.Steps? = .passes, operation: String = operation) -> OperationCoverage {
        OperationCoverage(scenario: scenario, mode: mode, items: items, operation: operation, operations: operations,
                          traceLength: 2_000, steps: steps)
    }

    /// A run.json to copy (its probes run once).
    static let metadata = RunMetadata.begin(runID: "run", commandLine: ["layout-bench", "run"], directory: "/")

    /// A side: the rows and a run.json whose `coverage` is `coverage` (nil: not recorded).
    static func side(_ rows: [[String]], coverage: [OperationCoverage]?, file: String) throws -> ResultSet {
        var set = try ResultSet.parse(ResultsFixtures.csv(rows), file: file)
        var metadata = Self.metadata
        metadata.coverage = coverage
        set.metadata = metadata
        return set
    }

    static func report(_ base: [[String]], _ head: [[String]], base baseCoverage: [OperationCoverage]?,
                       head headCoverage: [OperationCoverage]?) throws -> ComparisonReport {
        ResultsFixtures.installDeclaredMetrics()
        return try ComparisonReport(base: side(base, coverage: baseCoverage, file: "base.csv"),
                                    head: side(head, coverage: headCoverage, file: "head.csv"))
    }

    static func row(_ report: ComparisonReport, _ metric: String) throws -> RowComparison {
        try #require(report.rows.first { $0.key.metric == metric })
    }

    /// Five passes of the prefix, each its mean per operation (a batchable trace's `allocs`).
    static func passes(_ mean: Double) -> [[Double]] { [Array(repeating: mean, count: 5)] }

    /// The same prefix on both sides: a count stays exact, and one allocation more per operation
    /// is `regressed`, exit 2.
    @Test func theSamePrefixIsJudgedExactly() throws {
        let report = try Self.report(Self.rows("allocs", Self.passes(62.265625)), Self.rows("allocs", Self.passes(63.265625)),
                                     base: [Self.entry(64)], head: [Self.entry(64)])
        let row = try Self.row(report, "allocs")
        #expect(row.judgement == .exact && row.verdict == .regressed && row.prefixes == nil)
        #expect(report.exitStatus == 2)
        #expect(report.unjudged.isEmpty)
        // Both sides over the whole trace (no entry): exact too.
        let whole = try Self.report(Self.rows("allocs", Self.passes(62)), Self.rows("allocs", Self.passes(63)), base: [], head: [])
        #expect(try Self.row(whole, "allocs").verdict == .regressed && whole.exitStatus == 2)
    }

    /// The false verdict of the experiment: 64 against 32 operations, one binary. Not judged,
    /// named with both prefixes in compare.txt, counted in the summary and the `judged:` lines,
    /// `not-judged` in compare.csv, exit 0. The instructions of the operation (one value, a mean
    /// over the prefix) likewise; its workload's own count (over the whole trace) stays exact.
    @Test func differentPrefixesAreNotJudgedExactly() throws {
        let base = Self.rows("allocs", Self.passes(62.265625)) + Self.rows("instructions", [[51_000]])
            + Self.rows("pivots", [[3, 4, 5]])
        let head = Self.rows("allocs", Self.passes(62.53125)) + Self.rows("instructions", [[52_000]])
            + Self.rows("pivots", [[3, 4, 6]])
        let report = try Self.report(base, head, base: [Self.entry(64)], head: [Self.entry(32)])
        let allocs = try Self.row(report, "allocs")
        #expect(allocs.judgement == .differentPrefixes && allocs.verdict == nil)
        #expect(allocs.prefixes == TracePrefixes(base: [64], head: [32], traceLength: 2_000))
        #expect(try Self.row(report, "instructions").judgement == .differentPrefixes)
        let pivots = try Self.row(report, "pivots")
        #expect(pivots.judgement == .exact && pivots.verdict == .regressed)
        #expect(report.unjudged.count == 2)
        let text = ComparisonTable.text(report, showUnchanged: true)
        #expect(text.contains("  allocs of cell-measure-feed-text fresh-engine 1000 measure over 64 vs 32 operations: "
            + "different prefixes of the trace, not judged exactly (62.3 → 62.5)"), "\(text)")
        #expect(text.contains("allocs: 1 row not judged exactly"), "\(text)")
        #expect(text.contains(", 2 not-judged (different prefixes of the trace)\n"), "\(text)")
        #expect(!text.contains("where the counts moved (steps both sides counted, each side's first repetition):\n  cell-measure-feed-text fresh-engine 1000 measure allocs"))
        let csv = ComparisonTable.csv(report)
        #expect(csv.contains(",not-judged,different-prefixes\n"), "\(csv)")
        // Only the workload's own count moves the exit status; without it, 0.
        #expect(report.exitStatus == 2)
        let counts = try Self.report(Self.rows("allocs", Self.passes(62.265625)), Self.rows("allocs", Self.passes(62.53125)),
                                     base: [Self.entry(64)], head: [Self.entry(32)])
        #expect(counts.exitStatus == 0 && counts.count(.regressed) == 0)
        #expect(counts.geometricMeans.isEmpty)
    }

    /// A side without an entry for the operation covered its whole trace (2,000 operations); a side
    /// whose run.json records no `coverage` at all (written before it) tells nothing, and the row
    /// is judged exactly as before.
    @Test func anAbsentEntryIsTheWholeTrace() throws {
        let base = Self.rows("allocs", Self.passes(62.36)), head = Self.rows("allocs", Self.passes(62.53125))
        let report = try Self.report(base, head, base: [], head: [Self.entry(32)])
        let row = try Self.row(report, "allocs")
        #expect(row.judgement == .differentPrefixes && report.exitStatus == 0)
        #expect(row.prefixes?.baseWords == "the whole trace (2000)" && row.prefixes?.headWords == "32")
        #expect(ComparisonTable.text(report, showUnchanged: false).contains("over the whole trace (2000) vs 32 operations"))
        let unrecorded = try Self.report(base, head, base: nil, head: [Self.entry(32)])
        #expect(try Self.row(unrecorded, "allocs").judgement == .exact && unrecorded.exitStatus == 2)
    }

    /// A consuming operation counts one value per operation: `ExactTotals` aligns the operations
    /// both sides counted, so different prefixes keep the exact judgement, and a real allocation
    /// more on an operation of the shared prefix is `regressed`.
    @Test func countsPerOperationKeepTheirAlignment() throws {
        let trace = (0..<64).map { Double($0 % 7) }
        let consuming = { (operations: Int) in [Self.entry(operations, steps: .operations)] }
        let same = try Self.report(Self.rows("allocs", [trace]), Self.rows("allocs", [Array(trace.prefix(32))]),
                                   base: consuming(64), head: consuming(32))
        let row = try Self.row(same, "allocs")
        #expect(row.judgement == .exact && row.verdict == .unchanged && row.totals?.steps == 32)
        var dearer = Array(trace.prefix(32))
        dearer[3] += 1
        let moved = try Self.report(Self.rows("allocs", [trace]), Self.rows("allocs", [dearer]), base: consuming(64), head: consuming(32))
        #expect(try Self.row(moved, "allocs").verdict == .regressed && moved.exitStatus == 2)
        // One value a side of a consuming operation is a mean over its prefix (the instruction split).
        let split = try Self.report(Self.rows("solve_instructions", [[900]]), Self.rows("solve_instructions", [[910]]),
                                    base: consuming(64), head: consuming(32))
        #expect(try Self.row(split, "solve_instructions").judgement == .differentPrefixes)
    }

    /// Callgrind counts at most 4,096 operations of a prefix: two prefixes beyond it count the same.
    @Test func prefixesBeyondTheCallgrindLimitCountAlike() throws {
        let report = try Self.report(Self.rows("instructions", [[51_000]]), Self.rows("instructions", [[52_000]]),
                                     base: [Self.entry(8_192)], head: [Self.entry(16_384)])
        #expect(try Self.row(report, "instructions").verdict == .regressed)
        // allocs count every operation of the prefix.
        let allocs = try Self.report(Self.rows("allocs", Self.passes(2)), Self.rows("allocs", Self.passes(3)),
                                     base: [Self.entry(8_192)], head: [Self.entry(16_384)])
        #expect(try Self.row(allocs, "allocs").judgement == .differentPrefixes)
        // Every metric of the callgrind child's split declares that it follows the prefix as callgrind counts it.
        #expect(Metric.instructionSplit.allSatisfy { $0.counted == .callgrind })
    }

    /// Which operations a metric's values cover is its own declaration (`Metric.counted`), written
    /// into run.json's `metrics`; a description written before it was recorded takes the reading
    /// binary's declaration of that name, and a metric nobody declares is taken for samples.
    @Test func aMetricDeclaresWhatItsValuesCover() throws {
        ResultsFixtures.installDeclaredMetrics()
        #expect(Metric.allocs.counted == .prefix && Metric.instructions.counted == .callgrind)
        #expect(Metric.time.counted == .samples && Metric.allocBytes.counted == .samples)
        #expect(Metric.named("solve_instructions")?.counted == .callgrind)
        var metadata = Self.metadata
        let ours = Metric("tiles", unit: "count", .lowerIsBetter, .exact, counted: .prefix, about: "tiles per operation")
        metadata.metrics = [Metric.allocs, Metric.time, ours]
        let text = try metadata.jsonText()
        #expect(text.contains("\"counted\" : \"prefix\"") && text.contains("\"counted\" : \"samples\""), "\(text)")
        #expect(try RunMetadata.decode(text).metrics == metadata.metrics)
        // Written before `counted`: allocs as this binary declares it, an unknown metric as samples.
        let old = try RunMetadata.decode(text.replacingOccurrences(of: "\"counted\" : \"prefix\",", with: "")
            .replacingOccurrences(of: "\"counted\" : \"samples\",", with: ""))
        #expect(old.metrics?.map(\.counted) == [.prefix, .samples, .samples])
        #expect(throws: DecodingError.self) { try RunMetadata.decode(text.replacingOccurrences(of: "\"counted\" : \"prefix\"", with: "\"counted\" : \"passes\"")) }
        // A metric of the user's that counts over the prefix is left unjudged over different prefixes.
        let key = RowKey(scenario: Self.scenario, mode: Self.mode, items: Self.items, operation: Self.operation, metric: "tiles")
        #expect(TracePrefixes.differing(key: key, counting: ours.counted, base: [Self.entry(64)], head: [Self.entry(32)],
                                        baseValues: 5, headValues: 5) != nil)
        #expect(TracePrefixes.differing(key: key, counting: .samples, base: [Self.entry(64)], head: [Self.entry(32)],
                                        baseValues: 5, headValues: 5) == nil)
    }

    /// run.json as it is written and read: `steps` round-trips; an entry of a run before it was
    /// recorded reads as nil and is told by its number of values (at least the smaller prefix's
    /// operations, and more than five: per operation; else passes); a `steps` that is neither
    /// `operations` nor `passes` makes the file no run.json.
    @Test func runJSONRecordsSteps() throws {
        var metadata = Self.metadata
        metadata.coverage = [Self.entry(32, steps: .passes), Self.entry(64, steps: .operations, operation: "scroll")]
        let text = try metadata.jsonText()
        #expect(text.contains("\"steps\" : \"passes\"") && text.contains("\"steps\" : \"operations\""), "\(text)")
        #expect(try RunMetadata.decode(text) == metadata)
        func edited(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var entries = try #require(object["coverage"] as? [[String: Any]])
            edit(&entries[0])
            object["coverage"] = entries
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        let old = try RunMetadata.decode(try edited { $0["steps"] = nil })
        #expect(old.coverage?.first?.steps == nil && old.coverage?.first?.operations == 32)
        #expect(old.coverage?.first?.traceLength == 2_000)
        #expect(throws: DecodingError.self) { try RunMetadata.decode(try edited { $0["steps"] = "bytes" }) }
        #expect(throws: DecodingError.self) { try RunMetadata.decode(try edited { $0["steps"] = 2 }) }

        let key = RowKey(scenario: Self.scenario, mode: Self.mode, items: Self.items, operation: Self.operation, metric: "allocs")
        let oldEntries = { (operations: Int) in [Self.entry(operations, steps: nil)] }
        // 64 and 32 values: one per operation; 5 passes: a mean per pass.
        #expect(TracePrefixes.differing(key: key, counting: .prefix, base: oldEntries(64), head: oldEntries(32), baseValues: 64, headValues: 32) == nil)
        #expect(TracePrefixes.differing(key: key, counting: .prefix, base: oldEntries(64), head: oldEntries(32), baseValues: 5, headValues: 5) != nil)
        // A prefix of five: five passes and five operations look alike, taken for passes.
        #expect(TracePrefixes.differing(key: key, counting: .prefix, base: oldEntries(8), head: oldEntries(5), baseValues: 8, headValues: 5) != nil)
        // A time row, or a metric of the workload's own, never.
        var time = key
        time.metric = "time"
        #expect(TracePrefixes.differing(key: time, counting: Metric.time.counted, base: oldEntries(64), head: oldEntries(32), baseValues: 5, headValues: 5) == nil)
    }

    /// A results directory whose run.json holds a bad `steps` is read without it, and says so.
    @Test func aBadStepsValueIsRefusedWithTheRunJSON() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-prefix-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try ResultsFixtures.csv(Self.rows("allocs", Self.passes(62))).write(toFile: directory + "/samples.csv", atomically: true, encoding: .utf8)
        var metadata = Self.metadata
        metadata.coverage = [Self.entry(32)]
        let text = try metadata.jsonText().replacingOccurrences(of: "\"steps\" : \"passes\"", with: "\"steps\" : \"pass\"")
        try text.write(toFile: directory + "/run.json", atomically: true, encoding: .utf8)
        let set = try ResultSet.load(directory)
        #expect(set.metadata == nil)
        #expect(set.metadataProblem?.contains("cannot be read as run.json") == true, "\(set.metadataProblem ?? "")")
    }
}
