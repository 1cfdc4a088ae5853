import Foundation
import Testing
import HarnessTestSupport
@testable import BenchResults
@testable import BenchWorkloads
@testable import BenchRunner

/// A metric a workload declares (`QueryMetrics.swift`: `recall`, higher is better) reaches the
/// results with its rule: summary.csv's rows in its unit, run.json's `metrics` with its
/// polarity, and the results read back with that description.
@Suite struct DeclaredMetricsRunTests {
    @Test func aWorkloadsMetricReachesTheResultsWithItsPolarity() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-metrics-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var session = try RunSession(
            plans: [try plan(mixedScenario, items: [300], quick: true)], quick: true, instructions: false, outDirectory: directory,
            repetition: 1, commandLine: ["layout-bench", "run"], executable: CommandLine.arguments[0], progress: { _ in })
        let result = try session.run()
        #expect(result.failures.isEmpty, "\(result.failures)")

        let summary = try CSVParser.parseTable(String(contentsOfFile: directory + "/summary.csv", encoding: .utf8))
        let recall = summary.records.filter { $0["metric"] == "recall" }
        #expect(!recall.isEmpty && recall.allSatisfy { $0["unit"] == Metric.recall.unit })

        let described = try ResultSet.load(directory).described
        #expect(described["recall"] == Metric.recall)
        #expect(described["recall"]?.direction == .higherIsBetter && described["recall"]?.kind == .exact)
        #expect(described["elements"]?.direction == .neither)
        #expect(described["time"] == Metric.time)
        // Every metric the run wrote is described, and so is every one this binary declares.
        for record in summary.records where record["metric"] != "failed" {
            #expect(described[record["metric"]!] != nil, "\(record["metric"]!)")
        }
        #expect(Set(described.keys) == Set(WorkloadCatalog.metrics.map(\.name)))
        // As JSON: the polarity in words.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/run.json"))) as? [String: Any]
        let entry = (json?["metrics"] as? [[String: Any]])?.first { $0["name"] as? String == "recall" }
        #expect(entry?["direction"] as? String == "higher" && entry?["kind"] as? String == "exact")
    }
}
