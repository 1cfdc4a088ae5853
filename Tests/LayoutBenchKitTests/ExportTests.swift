import Foundation
import Testing
@testable import BenchStatistics
@testable import LayoutBenchKit

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
        row("binary-probe", "query", .recall, [[0.9, 0.95], [1, 0.9]])
        row("binary-probe", "query", .elements, [[8, 9]])
        row("", "", .peakRSS, [[5e7], [5.1e7]])
        return writer.text
    }

    @Test func everyFormatHasTheDocumentedShape() throws {
        let run = try RunSummaryFile.parse(Self.summaryText(), path: "summary.csv")
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

    @Test func namesAreEscaped() {
        #expect(ResultsExport.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }
}
