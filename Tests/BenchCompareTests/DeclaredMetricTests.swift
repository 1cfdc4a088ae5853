import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare

/// A metric carries its polarity: `compare` judges a metric no list names (declared by a test
/// workload, as a workload's `<Workload>Metrics.swift` declares its own) by the description the
/// results carry in run.json, both ways.
@Suite struct DeclaredMetricTests {
    /// Declared here only: neither BenchResults nor any workload knows these names.
    static let cost = Metric("test_cost", unit: "count", .lowerIsBetter, .exact, about: "a test workload's cost")
    static let score = Metric("test_score", unit: "count", .higherIsBetter, .exact, about: "a test workload's score")

    /// A results directory as `run` writes it: samples.csv and a run.json describing `described`
    /// (nil: a run.json of a version before `metrics` was recorded).
    static func directory(_ rows: [[String]], described: [Metric]?) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("declared-metric-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ResultsFixtures.csv(rows).write(toFile: directory + "/samples.csv", atomically: true, encoding: .utf8)
        var metadata = RunMetadata.begin(runID: "run", commandLine: ["layout-bench", "run"], directory: directory)
        metadata.metrics = described
        try metadata.jsonText().write(toFile: directory + "/run.json", atomically: true, encoding: .utf8)
        return directory
    }

    static func rows(_ metric: Metric, _ value: Double, spread: Double = 0) -> [[String]] {
        // Enough repetitions a side for a timed change to be claimed (`defaultRepetitionsForChange`).
        ResultsFixtures.samples(metric: metric.name, unit: metric.unit, center: value, spread: spread,
                                repetitions: RowComparison.defaultRepetitionsForChange + 1, count: 20, seed: 7)
    }

    /// The verdict of `metric` going from `base` to `head`, each side's run.json describing it as `described`.
    static func verdict(_ metric: Metric, _ base: Double, _ head: Double, described: Metric? = nil, spread: Double = 0) throws -> Verdict? {
        let description = described ?? metric
        let baseDirectory = try directory(rows(metric, base, spread: spread), described: [description])
        let headDirectory = try directory(rows(metric, head, spread: spread), described: [description])
        defer {
            try? FileManager.default.removeItem(atPath: baseDirectory)
            try? FileManager.default.removeItem(atPath: headDirectory)
        }
        let report = try ComparisonReport(base: try ResultSet.load(baseDirectory), head: try ResultSet.load(headDirectory))
        let row = try #require(report.rows.first { $0.key.metric == metric.name })
        #expect(row.policy.isKnown, "\(metric.name) is described by the results")
        #expect(row.policy.direction == description.direction && row.policy.kind == description.kind)
        return row.verdict
    }

    @Test func aLowerIsBetterMetricOfATestWorkloadIsJudgedBothWays() throws {
        #expect(try Self.verdict(Self.cost, 100, 200) == .regressed)
        #expect(try Self.verdict(Self.cost, 200, 100) == .improved)
        #expect(try Self.verdict(Self.cost, 100, 100) == .unchanged)
    }

    @Test func aHigherIsBetterMetricOfATestWorkloadIsJudgedBothWays() throws {
        #expect(try Self.verdict(Self.score, 100, 200) == .improved)
        #expect(try Self.verdict(Self.score, 200, 100) == .regressed)
    }

    /// The same values under the opposite polarity get the opposite verdict: the rule is the
    /// description's, not the name's.
    @Test func theDescriptionDecidesNotTheName() throws {
        var flipped = Self.cost
        flipped.direction = .higherIsBetter
        #expect(try Self.verdict(Self.cost, 100, 200, described: flipped) == .improved)
        var looser = Self.cost
        looser.defaultThreshold = 2  // a 100% change is within a 200% threshold
        #expect(try Self.verdict(Self.cost, 100, 200, described: looser) == .unchanged)
    }

    /// Results of a harness before run.json carried `metrics` are judged as this binary's
    /// workloads declare their metrics (here: the harness-wide `allocs`); a metric nobody
    /// describes is judged like time and flagged.
    @Test func oldResultsAreJudgedByThisBinarysDeclarations() throws {
        let base = try Self.directory(Self.rows(.allocs, 3) + Self.rows(Self.cost, 100), described: nil)
        let head = try Self.directory(Self.rows(.allocs, 4) + Self.rows(Self.cost, 200), described: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base)
            try? FileManager.default.removeItem(atPath: head)
        }
        let report = try ComparisonReport(base: try ResultSet.load(base), head: try ResultSet.load(head))
        let allocs = try #require(report.rows.first { $0.key.metric == "allocs" })
        #expect(allocs.policy.kind == .exact && allocs.verdict == .regressed)
        let unknown = try #require(report.rows.first { $0.key.metric == Self.cost.name })
        #expect(!unknown.policy.isKnown && unknown.policy.kind == .statistical)
        #expect(report.warnings.contains { $0.contains("test_cost") })
    }

    /// Two harnesses that describe a metric differently: judged as the head's says, and warned.
    @Test func differentDescriptionsAreWarnedOf() throws {
        var flipped = Self.cost
        flipped.direction = .higherIsBetter
        let base = try Self.directory(Self.rows(Self.cost, 100), described: [Self.cost])
        let head = try Self.directory(Self.rows(Self.cost, 200), described: [flipped])
        defer {
            try? FileManager.default.removeItem(atPath: base)
            try? FileManager.default.removeItem(atPath: head)
        }
        let report = try ComparisonReport(base: try ResultSet.load(base), head: try ResultSet.load(head))
        #expect(report.rows.first?.verdict == .improved)
        #expect(report.warnings.contains { $0.contains("test_cost is judged differently") })
    }

    /// A value outside what the results' own description allows is refused at its line; inside, read.
    @Test func valuesAreCheckedAgainstTheResultsDescription() throws {
        var signed = Self.cost
        signed.lowest = Metric.anyValue
        let rows = Self.rows(Self.cost, -5)
        let allowed = try Self.directory(rows, described: [signed])
        let refused = try Self.directory(rows, described: [Self.cost])
        defer {
            try? FileManager.default.removeItem(atPath: allowed)
            try? FileManager.default.removeItem(atPath: refused)
        }
        #expect(try ResultSet.load(allowed).series.count == 1)
        #expect(throws: CompareError.self) { try ResultSet.load(refused) }
    }
}
