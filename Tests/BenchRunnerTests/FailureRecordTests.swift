import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
@testable import BenchDriver

/// A failed run never looks like a good one: the runner records every failed group
/// (failures.csv, summary.csv's `failed` rows), the readers read the record back strictly,
/// `compare` calls the group `failed` (exit 2, listed first) and `export` refuses the run.
@Suite struct FailureRecordTests {
    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-failures-\(UUID().uuidString)").path
    }

    /// A run of `FlakyWorkload` (one mode verifies, one disagrees with the reference, one fails
    /// while sampled) into `directory`.
    static func flakyRun(into directory: String, modes: [FlakyWorkload.Mode] = FlakyWorkload.Mode.allCases) throws -> RunSession.Result {
        var plan = try RunnerFailureTests().flakyPlan()
        plan.modes = modes
        var session = try RunSession(
            plans: [plan], quick: true, instructions: false, outDirectory: directory, repetition: 1,
            repetitions: 2, isolation: .inProcess, commandLine: ["layout-bench", "run"],
            executable: CommandLine.arguments[0], progress: { _ in })
        return try session.run()
    }

    // MARK: The runner writes the record

    @Test func runRecordsEveryFailedGroup() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.flakyRun(into: directory)
        #expect(result.failures.count == 2)

        let failures = try FailureRow.load(besideIn: directory)
        #expect(failures.map(\.mode) == ["wrong", "failing"])
        let wrong = try #require(failures.first)
        #expect(wrong.check == .verification && wrong.step == .build && wrong.operation == "")
        #expect(wrong.scenario == "test" && wrong.items == 100 && wrong.message.contains("off by 0.5 pt"))
        let failing = try #require(failures.last)
        // Its 40th call fails: in the warm-up, the sampling or the allocation count, by the policy.
        #expect(failing.check == .error && [.warmUp, .sampling, .allocations].contains(failing.step) && failing.operation == "step")

        // summary.csv: one `failed` row per failed group, which export's reader reads back.
        let summary = try RunSummaryFile.load(directory)
        #expect(summary.failed.map(\.group.mode) == ["wrong", "failing"])
        #expect(Set(summary.entries.map(\.mode)) == ["good", ""])
        // compare's reader finds them beside the samples.
        let set = try ResultSet.load(directory)
        #expect(set.failures == failures)
    }

    @Test func aRunWithoutFailuresWritesTheHeaderAlone() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.flakyRun(into: directory, modes: [.good])
        let text = try String(contentsOfFile: directory + "/" + FailureRow.fileName, encoding: .utf8)
        #expect(text == FailureRow.header.joined(separator: ",") + "\n")
        #expect(try ResultSet.load(directory).failures.isEmpty)
        #expect(try RunSummaryFile.load(directory).failed.isEmpty)
    }

    // MARK: The readers read it strictly

    static let header = FailureRow.header.joined(separator: ",")
    static let row = "2,run,abc1234,s,query,m,1000,,build,verification,s: mode m at 1000 items disagrees with the reference: off"

    @Test func theRecordReadsBack() throws {
        let rows = try FailureRow.parse(Self.header + "\n" + Self.row + "\n", file: "failures.csv")
        #expect(rows == [FailureRow(scenario: "s", workload: "query", mode: "m", items: 1000, step: .build, check: .verification,
                                    message: "s: mode m at 1000 items disagrees with the reference: off")])
        // What the writer writes, the reader reads (quotes, commas and line ends in a message).
        let written = FailureRow(scenario: "s,\"x\"", workload: "w", mode: "m", items: 3, operation: "query", step: .warmUp,
                                 check: .crash, message: "died\nsignal 4, SIGILL")
        #expect(try FailureRow.parse(FailureRow.csv([written], runID: "r", commit: "c"), file: "f") == [written])
    }

    @Test func aMalformedRecordIsRefusedNamingTheLine() {
        let cases: [(String, String)] = [
            ("schema,run_id\n", "not a failures.csv"),
            (Self.header + "\n2,run,abc1234,s,query,m,1000,,build,verification\n", "line 2: expected 11 fields"),
            (Self.header + "\n9" + Self.row.dropFirst() + "\n", "line 2: schema 9"),
            (Self.header + "\n" + Self.row.replacingOccurrences(of: ",1000,", with: ",-1,") + "\n", "line 2: items"),
            (Self.header + "\n" + Self.row.replacingOccurrences(of: ",verification,", with: ",nosuch,") + "\n", "line 2: check"),
            (Self.header + "\n" + Self.row.replacingOccurrences(of: ",build,", with: ",later,") + "\n", "line 2: step"),
            (Self.header + "\n" + Self.row.replacingOccurrences(of: ",m,", with: ",,") + "\n", "line 2: mode: empty"),
            (Self.header + "\n" + Self.row + "\n" + Self.row + "\n", "line 3: a second row"),
            (Self.header + "\n" + Self.row + "\n\n", "a blank line"),
        ]
        for (text, expected) in cases {
            do {
                _ = try FailureRow.parse(text, file: "failures.csv")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description) (expected \(expected))")
                #expect(error.description.hasPrefix("failures.csv"))
            }
        }
    }

    @Test func summaryFailedRowsAreReadStrictly() throws {
        let failure = FailureRow(scenario: "s", workload: "query", mode: "m", items: 1000, step: .build, check: .verification, message: "x")
        var writer = CSVWriter(header: CSVSchema.summaryHeader)
        writer.append(SummaryRow.failedFields(failure, runID: "r", commit: "c"))
        let good = try RunSummaryFile.parse(writer.text, path: "summary.csv")
        #expect(good.failed.map(\.group) == [failure.group] && good.entries.isEmpty)
        var tampered = SummaryRow.failedFields(failure, runID: "r", commit: "c")
        tampered[13] = "5"
        var bad = CSVWriter(header: CSVSchema.summaryHeader)
        bad.append(tampered)
        #expect(throws: CompareError.self) { try RunSummaryFile.parse(bad.text, path: "summary.csv") }
        writer.append(SummaryRow.failedFields(failure, runID: "r", commit: "c"))
        #expect(throws: CompareError.self) { try RunSummaryFile.parse(writer.text, path: "summary.csv") }
    }

    /// Results of a version before failures.csv still read, with no failures.
    @Test func oldResultsWithoutTheRecordStillRead() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.flakyRun(into: directory)
        try FileManager.default.removeItem(atPath: directory + "/" + FailureRow.fileName)
        #expect(try ResultSet.load(directory).failures.isEmpty)
        // A malformed one beside the samples is an error, not a good run.
        try "nonsense\n".write(toFile: directory + "/" + FailureRow.fileName, atomically: true, encoding: .utf8)
        #expect(throws: CompareError.self) { try ResultSet.load(directory) }
    }

    // MARK: compare calls the group failed

    static func side(_ rows: [[String]], failures: [FailureRow] = []) throws -> ResultSet {
        var set = try ResultSet.parse(ResultsFixtures.csv(rows), file: "side.csv")
        set.failures = failures
        return set
    }

    static func failure(_ mode: String) -> FailureRow {
        FailureRow(scenario: "s", workload: "query", mode: mode, items: 1000, step: .build, check: .verification,
                   message: "s: mode \(mode) at 1000 items disagrees with the reference: off")
    }

    @Test func aGroupThatFailedOnOneSideIsFailedAndExitsTwo() throws {
        let good = ResultsFixtures.samples(mode: "good", center: 1000, spread: 0.01, seed: 1)
        let broken = ResultsFixtures.samples(mode: "broken", center: 1000, spread: 0.01, seed: 2)
        let base = try Self.side(good + broken)
        let head = try Self.side(ResultsFixtures.samples(mode: "good", center: 1000, spread: 0.01, seed: 3), failures: [Self.failure("broken")])
        let report = try ComparisonReport(base: base, head: head)
        #expect(report.exitStatus == 2)
        #expect(report.count(.failed) == 1)
        #expect(report.failed.first?.sides == "failed in head, verified in base")
        // Its rows are not also "on one side only".
        #expect(report.oneSided.isEmpty)
        #expect(report.rows.allSatisfy { $0.key.mode == "good" })

        let text = ComparisonTable.text(report, showUnchanged: false)
        let lines = text.split(separator: "\n")
        let firstRow = try #require(lines.firstIndex { $0.hasPrefix("verdict ") }).advanced(by: 1)
        #expect(lines[firstRow].split(separator: " ") == ["failed", "s", "broken", "1000", "verified", "failed"])
        #expect(text.contains("head: verification failed at build: s: mode broken at 1000 items disagrees with the reference"))
        #expect(text.hasSuffix("1 failed, 0 regressed, 0 noisy, 0 improved, 1 unchanged, 0 on one side only\n"))
        let csv = try CSVParser.parseTable(ComparisonTable.csv(report)).records
        #expect(csv.first?["verdict"] == "failed" && csv.first?["judged"] == "failed-in-head" && csv.first?["mode"] == "broken")
    }

    @Test func aGroupThatFailedOnBothSidesIsFailedToo() throws {
        let rows = ResultsFixtures.samples(mode: "good", center: 1000, spread: 0.01, seed: 1)
        let report = try ComparisonReport(base: try Self.side(rows, failures: [Self.failure("broken")]),
                                          head: try Self.side(rows, failures: [Self.failure("broken")]))
        #expect(report.exitStatus == 2)
        #expect(report.failed.map(\.judged) == ["failed-in-both"])
    }

    /// A run whose only mode failed has nothing in common with the other side: still `failed`
    /// and exit 2, not "nothing to compare".
    @Test func aRunWhoseEveryModeFailedIsFailedNotAnError() throws {
        let base = try Self.side(ResultsFixtures.samples(mode: "broken", center: 1000, spread: 0.01, seed: 1))
        let head = try Self.side(ResultsFixtures.samples(scenario: "other", mode: "x", center: 1, spread: 0, seed: 2),
                                 failures: [Self.failure("broken")])
        let report = try ComparisonReport(base: base, head: head)
        #expect(report.exitStatus == 2 && report.rows.isEmpty && report.count(.failed) == 1)
    }

    /// The driver's merge carries every round's failures into the side, once per group.
    @Test func roundMergeCarriesTheFailures() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try Self.flakyRun(into: root + "/round-1")
        _ = try Self.flakyRun(into: root + "/round-2")
        try RoundMerge.merge(rounds: [root + "/round-1", root + "/round-2"], into: root + "/side")
        #expect(try FailureRow.load(besideIn: root + "/side").map(\.mode) == ["wrong", "failing"])
    }

    // MARK: export refuses a failed run

    @Test func exportRefusesAFailedRun() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.flakyRun(into: directory)
        let run = try RunSummaryFile.load(directory)
        for format in ResultsExport.Format.allCases {
            do {
                _ = try ResultsExport.json(run, format: format)
                Issue.record("\(format) exported a failed run")
            } catch {
                #expect(error.description.contains("test wrong 100 and 1 more group failed in this run"))
            }
        }
    }
}
