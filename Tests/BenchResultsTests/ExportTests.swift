import Foundation
import Testing
import HarnessTestSupport
@testable import BenchStatistics
@testable import BenchPlatform
@testable import BenchResults

/// `layout-bench export` against the shapes the two services document: Bencher's BMF JSON schema
/// (an object of benchmarks, each an object of measures, each an object with a number `value` and
/// optional numbers `lower_value`, `upper_value`) and github-action-benchmark's custom tools (a
/// non-empty array of objects with strings `name` and `unit`, a number `value`, optional strings
/// `range` and `extra`).
@Suite struct ExportTests {
    /// Problems of `json` as BMF; empty when it has the documented shape.
    static func bmfProblems(_ json: Any) -> [String] {
        guard let benchmarks = json as? [String: Any], !benchmarks.isEmpty else { return ["not a non-empty object"] }
        var problems: [String] = []
        for (name, value) in benchmarks {
            guard let measures = value as? [String: Any], !measures.isEmpty else { problems.append("\(name): not an object of measures"); continue }
            for (measure, metric) in measures {
                guard let fields = metric as? [String: Any] else { problems.append("\(name).\(measure): not an object"); continue }
                if !(fields["value"] is NSNumber) { problems.append("\(name).\(measure): value is not a number") }
                for (key, field) in fields where key != "value" {
                    if !["lower_value", "upper_value"].contains(key) { problems.append("\(name).\(measure): unknown key \(key)") }
                    if !(field is NSNumber) { problems.append("\(name).\(measure).\(key): not a number") }
                }
            }
        }
        return problems
    }

    /// Problems of `json` as github-action-benchmark's custom tool input.
    static func githubProblems(_ json: Any) -> [String] {
        guard let entries = json as? [[String: Any]], !entries.isEmpty else { return ["not a non-empty array of objects"] }
        var problems: [String] = []
        for (index, entry) in entries.enumerated() {
            for key in ["name", "unit"] where !(entry[key] is String) { problems.append("[\(index)].\(key) is not a string") }
            if !(entry["value"] is NSNumber) || entry["value"] is String { problems.append("[\(index)].value is not a number") }
            for key in ["range", "extra"] where entry[key] != nil && !(entry[key] is String) { problems.append("[\(index)].\(key) is not a string") }
            for key in entry.keys where !["name", "unit", "value", "range", "extra"].contains(key) { problems.append("[\(index)]: unknown key \(key)") }
        }
        return problems
    }

    /// The checkers accept documents shaped like the services' published examples and refuse others.
    @Test func theShapeCheckersAcceptThePublishedShapes() throws {
        let bmfExample = #"{"my_bench": {"latency": {"value": 12.5, "lower_value": 12.0, "upper_value": 13.25}}, "size": {"file-size": {"value": 7}}}"#
        #expect(Self.bmfProblems(try JSONSerialization.jsonObject(with: Data(bmfExample.utf8))).isEmpty)
        let githubExample = #"[{"name": "parse 1k", "unit": "ms", "value": 1.5, "range": "± 0.2", "extra": "median of 9 runs"}, {"name": "b", "unit": "MB", "value": 3}]"#
        #expect(Self.githubProblems(try JSONSerialization.jsonObject(with: Data(githubExample.utf8))).isEmpty)
        #expect(!Self.bmfProblems(try JSONSerialization.jsonObject(with: Data(#"{"b": {"latency": {"value": "12"}}}"#.utf8))).isEmpty)
        #expect(!Self.githubProblems(try JSONSerialization.jsonObject(with: Data("[]".utf8))).isEmpty)
        #expect(!Self.githubProblems(try JSONSerialization.jsonObject(with: Data(#"[{"name": "a", "value": 1}]"#.utf8))).isEmpty)
    }

    /// A query workload's metrics as its run.json describes them: BenchResults knows none of them.
    static let recall = Metric("recall", unit: "fraction", .higherIsBetter, .exact, highest: 1, about: "fraction of the exact answer")
    static let elements = Metric("elements", unit: "count", .neither, .exact, about: "elements a query returned")

    /// `summaryText()` read as `export` reads a results directory: with its run.json's descriptions.
    static func parsed() throws -> RunSummaryFile {
        var run = try RunSummaryFile.parse(Self.summaryText(), path: "summary.csv")
        run.described = Metric.byName([recall, elements])
        return run
    }

    static func summaryText() -> String {
        var writer = CSVWriter(header: CSVSchema.summaryHeader)
        func row(_ mode: String, _ operation: String, _ metric: Metric, _ values: [[Double]]?) {
            writer.append(SummaryRow(runID: "R1", commit: "abc1234", scenario: "list-query", workload: "query", mode: mode,
                                     items: 30_000, operation: operation, metric: metric,
                                     summary: values.map { Summary(repetitions: $0) }).fields)
        }
        row("binary", "query", .time, [[100, 110, 90], [105, 95, 100]])
        row("binary", "query", .allocs, [[0, 0]])
        row("binary", "query", .instructions, nil)
        row("binary-probe", "query", Self.recall, [[0.9, 0.95], [1, 0.9]])
        row("binary-probe", "query", Self.elements, [[8, 9]])
        row("", "", .peakRSS, [[5e7], [5.1e7]])
        return writer.text
    }

    @Test func everyFormatHasTheDocumentedShape() throws {
        let run = try Self.parsed()
        #expect(run.entries.count == 5)  // the unsupported instructions row is left out
        let bmf = try JSONSerialization.jsonObject(with: Data(ResultsExport.json(run, format: .bmf).utf8))
        #expect(Self.bmfProblems(bmf).isEmpty, "\(Self.bmfProblems(bmf))")
        let benchmarks = try #require(bmf as? [String: [String: [String: Double]]])
        #expect(benchmarks["list-query/binary/30000/query"]?["latency"]?["value"] == 100)
        #expect(benchmarks["list-query/binary/30000/query"]?["latency"]?["lower_value"] != nil)
        #expect(benchmarks["list-query/30000"]?["peak-rss"]?["value"] != nil)
        #expect(benchmarks["list-query/binary/30000/query"]?["instructions"] == nil)

        let smaller = try JSONSerialization.jsonObject(with: Data(ResultsExport.json(run, format: .githubSmaller).utf8))
        #expect(Self.githubProblems(smaller).isEmpty, "\(Self.githubProblems(smaller))")
        let smallerNames = try #require(smaller as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(smallerNames.contains("list-query/binary/30000/query time"))
        #expect(!smallerNames.contains { $0.hasSuffix(" recall") || $0.hasSuffix(" elements") })

        let bigger = try JSONSerialization.jsonObject(with: Data(ResultsExport.json(run, format: .githubBigger).utf8))
        #expect(Self.githubProblems(bigger).isEmpty)
        #expect(try #require(bigger as? [[String: Any]]).compactMap { $0["name"] as? String } == ["list-query/binary-probe/30000/query recall"])
    }

    @Test func badInputIsOneErrorNamingTheFile() throws {
        #expect(throws: CompareError.self) { try RunSummaryFile.parse("schema,run_id\n2,x\n", path: "s.csv") }
        let samples = CSVSchema.samplesHeader.joined(separator: ",") + "\n"
        #expect { try RunSummaryFile.parse(samples, path: "s.csv") } throws: { ($0 as? CompareError)?.message.contains("a samples file") == true }
        var lines = Self.summaryText().split(separator: "\n").map(String.init)
        lines[1] = String(lines[1].prefix(40))
        #expect { try RunSummaryFile.parse(lines.joined(separator: "\n"), path: "s.csv") } throws: {
            ($0 as? CompareError).map { $0.file == "s.csv" && $0.message.contains("line 2") } == true
        }
        let run = try RunSummaryFile.parse(Self.summaryText(), path: "s.csv")
        #expect(throws: CompareError.self) { try ResultsExport.json(run, format: .bmf, metrics: ["wrong_heights"]) }
        #expect(throws: CompareError.self) { try RunSummaryFile.load("/nonexistent/results") }
    }

    /// summary.csv text with field `column` of data row `row` (0: the time row) replaced.
    static func summary(_ column: String, _ value: String, row: Int = 0) -> String {
        var lines = summaryText().split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        lines[row + 1][CSVSchema.summaryHeader.firstIndex(of: column)!] = value
        return lines.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    static func refusal(_ text: String) -> String? {
        do { _ = try RunSummaryFile.parse(text, path: "summary.csv"); return nil } catch { return error.description }
    }

    /// Issue 34: `export` wrote negative medians, and numbers Swift reads but the harness never
    /// writes. Values obey the rules of samples.csv (docs/csv.md); the interval's bounds may be
    /// negative (a run-to-run interval around a small count can reach below 0).
    @Test func impossibleValuesAreRefusedAtTheirLine() {
        ResultsFixtures.installDeclaredMetrics()
        #expect(Self.refusal(Self.summary("median", "-5")) == "summary.csv: line 2: median: -5 is negative; time is a cost or a count, never below 0")
        #expect(Self.refusal(Self.summary("min", "-1e+308", row: 1)) == "summary.csv: line 3: min: -1e+308 is negative; allocs is a cost or a count, never below 0")
        for bad in ["0x10", "inf", "nan", "+5", " 5", "5.", "1e400"] {
            #expect(Self.refusal(Self.summary("median", bad))
                == "summary.csv: line 2: median: expected a number (a finite decimal such as 12.5 or 1.5e-07), got '\(bad)'")
        }
        #expect(Self.refusal(Self.summary("ci_high", "inf"))
            == "summary.csv: line 2: ci_high: expected a number (a finite decimal such as 12.5 or 1.5e-07), got 'inf'")
        #expect(Self.refusal(Self.summary("samples", "+6")) == "summary.csv: line 2: samples: expected a count >= 0, got '+6'")
        #expect(Self.refusal(Self.summary("items", "3e4")) == "summary.csv: line 2: items: expected a count >= 0, got '3e4'")
        #expect(Self.refusal(Self.summary("median", "1.5", row: 3)) == "summary.csv: line 5: median: 1.5 is not a fraction (0 to 1)")
        #expect(Self.refusal(Self.summary("unit", "ms")) == "summary.csv: line 2: unit: time is written in ns, got 'ms'")
        #expect(Self.refusal(Self.summary("ci_low", "-3")) == nil)
        #expect(Self.refusal(Self.summary("ci_low", "")) == nil)
    }

    /// A row (scenario × mode × items × operation × metric) appears once: a duplicate made a BMF
    /// object with two equal keys. Distinct rows that export under one name are refused too.
    @Test func aRowAppearsOnceAndExportsUnderItsOwnName() throws {
        let text = Self.summaryText()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Self.refusal(text + lines[1] + "\n")
            == "summary.csv: line 8: a second row for list-query binary 30000 query time (each row appears once)")
        #expect(Self.refusal(text + lines[3].replacingOccurrences(of: ",2,R1,", with: ",2,R2,") + "\n")?.contains("line 8: a second row") == true)
        // alloc_bytes and a metric named alloc-bytes are both Bencher's measure "alloc-bytes".
        let clash = text + "2,R1,abc1234,list-query,query,binary,30000,query,alloc_bytes,bytes,2,1,1,1,1,1,1,1,1,0,1,1\n"
            + "2,R1,abc1234,list-query,query,binary,30000,query,alloc-bytes,bytes,2,1,1,1,1,1,1,1,1,0,1,1\n"
        let run = try RunSummaryFile.parse(clash, path: "summary.csv")
        #expect { try ResultsExport.json(run, format: .bmf) } throws: {
            ($0 as? CompareError)?.description
                == "summary.csv: lines 8 and 9 both export as benchmark 'list-query/binary/30000/query', measure 'alloc-bytes'"
        }
        #expect(try ResultsExport.json(run, format: .githubSmaller).contains("alloc_bytes"))
    }

    @Test func namesAreEscaped() {
        #expect(ResultsExport.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }
}
