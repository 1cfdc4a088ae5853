import Foundation
import Testing
@testable import BenchResults
@testable import BenchDriver
@testable import LayoutTestSupport

/// What a comparison runs (`ComparisonPlan`), decided from its arguments and the two harnesses'
/// listings, without a process.
@Suite struct ComparisonPlanTests {
    static let head: ComparisonPlan.Listing = [("a", [100, 1000]), ("b", [10]), ("new", [5])]
    static let base: ComparisonPlan.Listing = [("b", [10]), ("a", [100, 1000]), ("gone", [1])]

    static func plan(_ line: [String], base: ComparisonPlan.Listing? = Self.base, head: ComparisonPlan.Listing? = Self.head,
                     asked: inout [String]) throws(DriverError) -> ComparisonPlan {
        var seen: [String] = []
        defer { asked = seen }
        let arguments: CompareCommitsArguments
        do { arguments = try CompareCommitsArguments.parse(line) } catch { throw DriverError(error.message) }
        return try ComparisonPlan.make(arguments, base: { seen.append("base"); return base }, head: { seen.append("head"); return head })
    }

    @Test func theWholeSuiteIsTheScenariosBothCommitsHave() throws {
        var asked: [String] = []
        let plan = try Self.plan(["A", "B"], asked: &asked)
        #expect(plan.scenarios == ["a", "b"])
        // Each count of a sweep is a group of its own, in the head's order.
        #expect(plan.groups.map(\.description) == ["a 100", "a 1000", "b 10"])
        #expect(plan.notes == ["left out 2 scenario(s) only one of the commits has: new, gone"])
        // The head's listing is asked once, for the common scenarios and the groups both.
        #expect(asked == ["base", "head"])
    }

    @Test func scenariosChosenAreRunWithoutAskingTheBase() throws {
        var asked: [String] = []
        let plan = try Self.plan(["A", "B", "b", "new", "--items", "7"], asked: &asked)
        #expect(plan.scenarios == ["b", "new"] && plan.notes.isEmpty)
        // run's options choose the counts: one group per scenario.
        #expect(plan.groups == [ScenarioGroup(scenario: "b", items: nil), ScenarioGroup(scenario: "new", items: nil)])
        #expect(asked == ["head"])
    }

    @Test func aListingMissingLeavesNothingOut() throws {
        var asked: [String] = []
        let plan = try Self.plan(["A", "B"], base: nil, asked: &asked)
        #expect(plan.scenarios.isEmpty && plan.notes.isEmpty)
        #expect(plan.groups.map(\.description) == ["a 100", "a 1000", "b 10", "new 5"])
    }

    @Test func aShareIsDealtGroupByGroup() throws {
        var asked: [String] = []
        let first = try Self.plan(["A", "B", "--shard", "1/2"], asked: &asked)
        let second = try Self.plan(["A", "B", "--shard", "2/2"], asked: &asked)
        #expect(first.share == ["a 100", "b 10"] && second.share == ["a 1000"])
        #expect(first.groups == [ScenarioGroup(scenario: "a", items: 100), ScenarioGroup(scenario: "b", items: 10)])
        #expect(first.scenarios == ["a", "b"] && second.scenarios == ["a"])
        #expect(first.notes.last == "shard 1 of 2: 2 of 3 scenario groups")
    }

    @Test func theExactTrackSharesWholeScenarios() throws {
        var asked: [String] = []
        let plan = try Self.plan(["A", "B", "--instructions", "--shard", "2/2"], asked: &asked)
        #expect(plan.groups.isEmpty && plan.share == ["b"] && plan.scenarios == ["b"])
        #expect(plan.notes.last == "shard 2 of 2: 1 of 2 scenarios")
    }

    @Test func moreSharesThanGroupsIsOneError() {
        var asked: [String] = []
        #expect(throws: DriverError("--shard 4/4: there are only 3 scenario groups to share; give fewer shares")) {
            try Self.plan(["A", "B", "--shard", "4/4"], asked: &asked)
        }
    }
}

/// How the rounds end (`RoundsEnding`): which groups the next round measures, and the lines
/// compare.txt ends with.
@Suite struct RoundsEndingTests {
    typealias Row = RoundSchedule.JudgedRow
    static let groups = [ScenarioGroup(scenario: "a", items: 1), ScenarioGroup(scenario: "b", items: 1), ScenarioGroup(scenario: "c", items: 1)]

    static func ending(_ line: [String] = ["A", "B"]) throws -> RoundsEnding {
        RoundsEnding(arguments: try CompareCommitsArguments.parse(line), machineBefore: nil)
    }

    @Test func settledRowsEndTheRounds() throws {
        var ending = try Self.ending()
        let rows = Self.groups.map { Row(scenario: $0.scenario, items: 1, verdict: "unchanged") }
        #expect(ending.nextRound(Self.groups, rows: rows, seconds: [:], remainingSeconds: 100, lanes: 1).isEmpty)
        #expect(!ending.stoppedByBudget && ending.confirmingRounds == 0)
    }

    @Test func theBudgetLeavesGroupsOutAndSaysSo() throws {
        var ending = try Self.ending()
        let rows = Self.groups.map { Row(scenario: $0.scenario, items: 1, verdict: "noisy", pairs: 20) }
        let seconds = Dictionary(uniqueKeysWithValues: Self.groups.map { ($0, 60.0) })
        let next = ending.nextRound(Self.groups, rows: rows, seconds: seconds, remainingSeconds: 90, lanes: 1)
        #expect(next.count < Self.groups.count && !next.isEmpty)
        #expect(ending.stoppedByBudget && ending.confirmingRounds == 0)
        #expect(ending.text.contains("the budget of 20 min left groups unmeasured"))
    }

    @Test func aChangeAtTooFewPairsRunsPastTheBudget() throws {
        var ending = try Self.ending()
        var rows = Self.groups.map { Row(scenario: $0.scenario, items: 1, verdict: "unchanged") }
        rows[2] = Row(scenario: "c", items: 1, verdict: "noisy", awaitsRepetitions: true, pairs: 3)
        let next = ending.nextRound(Self.groups, rows: rows, seconds: [Self.groups[2]: 600], remainingSeconds: 0, lanes: 1)
        #expect(next == [Self.groups[2]])
        // Every unsettled group runs: the budget left none out, though it was spent.
        #expect(!ending.stoppedByBudget)
        #expect(ending.confirmingRounds == 1 && ending.confirmedGroups == [Self.groups[2]])
        #expect(ending.text.contains("1 round(s) past the budget measured 1 scenario group(s) whose rows looked changed at fewer than 8 pairs"))
    }

    @Test func theTextSaysHowTheRoundsEnded() throws {
        var ending = try Self.ending(["A", "B", "--rounds", "2", "--max-rounds", "4", "--budget", "5"])
        ending.rounds = 4
        ending.seconds = 125
        #expect(ending.text == "\nmeasured in 4 rounds, 2 min 5 s\n")
        ending.machineBefore = RunMetadata.MachineLoad(average: [1, 2, 3], running: 0, busiest: [])
        ending.overran = true
        ending.unsettledAtMaxRounds = 2
        let lines = ending.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("the machine before the comparison started: load average 1.0 2.0 3.0, 0 processes"))
        #expect(lines[2].hasPrefix("the first 2 rounds alone took past the budget of 5 min"))
        #expect(lines[3].hasPrefix("--max-rounds 4 ended the rounds with 2 scenario group(s)"))
    }
}

/// The comparison's folder (`ComparisonFolder`): compare.txt names the final place, and each
/// side keeps its rounds' run records while the rounds' folders go.
@Suite struct ComparisonFolderTests {
    @Test func compareTextNamesTheFinalFolder() throws {
        let root = try makeScratchDirectory("folder")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = ComparisonFolder(work: "\(root)/c.tmp-1", final: "\(root)/c", plot: nil)
        try FileManager.default.createDirectory(atPath: folder.work, withIntermediateDirectories: true)
        let text = try folder.writeText("see \(folder.work)/base/samples.csv.gz\n")
        #expect(text == "see \(root)/c/base/samples.csv.gz\n")
        #expect(try String(contentsOfFile: "\(folder.work)/compare.txt", encoding: .utf8) == text)
    }

    @Test func theRunRecordsAreKeptAndTheRoundsGo() throws {
        let root = try makeScratchDirectory("folder")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = ComparisonFolder(work: root, final: root + "-final", plot: nil)
        let manager = FileManager.default
        for directory in ["base/verify", "base/round-1/g-1", "base/round-1/g-2", "base/round-2"] {
            try manager.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
            try "{\"run\": \"\(directory)\"}".write(toFile: "\(root)/\(directory)/run.json", atomically: true, encoding: .utf8)
        }
        try folder.keepRunRecords("base", rounds: 2)
        #expect(Paths.entries("\(root)/base") == ["rounds"])
        #expect(Paths.entries("\(root)/base/rounds") == ["round-1.json", "round-2.json", "verify.json"])
        // A timed round's first group stands for it.
        #expect(try String(contentsOfFile: "\(root)/base/rounds/round-1.json", encoding: .utf8).contains("round-1/g-1"))
    }
}
