import Foundation
import BenchCompare

/// One scenario group of the timed track: a scenario at one item count (nil: the counts run's
/// options select, one process for all), run as one fresh process per commit and round.
public struct ScenarioGroup: Hashable, Sendable, CustomStringConvertible {
    public var scenario: String
    public var items: Int?

    public init(scenario: String, items: Int?) {
        self.scenario = scenario
        self.items = items
    }

    /// "SCENARIO ITEMS" ("SCENARIO " without a count), as shard.json's `share` lists it.
    public var description: String { "\(scenario) \(items.map(String.init) ?? "")" }

    public init?(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { return nil }
        scenario = String(name)
        let count = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        if count.isEmpty { items = nil } else if let value = Int(count) { items = value } else { return nil }
    }
}

/// The decisions of the rounds, apart from running them (tested without a process).
public enum RoundSchedule {
    /// The groups of the scenarios `chosen` (all listed ones when empty), one per item count of
    /// the scenario's sweep when `expand`, else one per scenario; a scenario `listing` does not
    /// name (a path to a JSON file) is one group.
    public static func groups(listing: [(name: String, items: [Int])], chosen: [String], expand: Bool) -> [ScenarioGroup] {
        let counts = Dictionary(listing.map { ($0.name, $0.items) }, uniquingKeysWith: { first, _ in first })
        return (chosen.isEmpty ? listing.map(\.name) : chosen).flatMap { name -> [ScenarioGroup] in
            if expand, let items = counts[name], !items.isEmpty {
                return items.map { ScenarioGroup(scenario: name, items: $0) }
            }
            return [ScenarioGroup(scenario: name, items: nil)]
        }
    }

    /// Whether group `index` (1-based) of `round` starts with the base: rounds and groups
    /// alternate AB, BA, … so that slow drift of the machine, and what a turn finds warm after
    /// its partner's, favours neither side.
    public static func baseFirst(round: Int, index: Int) -> Bool {
        (index + round) % 2 != 0
    }

    /// The duet's names of the two sides: the side whose name sorts first takes the first
    /// sampling turn.
    public static func duetNames(round: Int, index: Int) -> (base: String, head: String) {
        baseFirst(round: round, index: index) ? ("1", "2") : ("2", "1")
    }

    /// The core group `index` (1-based) of a round runs on: two duets at a time, one per core.
    public static func core(index: Int) -> Int { index % 2 }

    /// Whether the round after one that took `roundSeconds` for `groupsInRound` groups, running
    /// only the `undecided` ones, and the judgement after it (`judgeSeconds`), would end past the
    /// budget (`budgetMinutes`, 0: none) when `elapsedSeconds` of measuring have passed.
    public static func exceedsBudget(
        budgetMinutes: Int, elapsedSeconds: Int, roundSeconds: Int, undecided: Int, groupsInRound: Int, judgeSeconds: Int
    ) -> Bool {
        guard budgetMinutes > 0 else { return false }
        let estimate = roundSeconds * undecided / Swift.max(groupsInRound, 1)
        return elapsedSeconds + estimate + judgeSeconds > budgetMinutes * 60
    }

    /// After round 1 took `roundSeconds` with `elapsedSeconds` of measuring behind it: the minute
    /// the first `rounds` rounds will end at, when that is past the budget (`budgetMinutes`, 0:
    /// none), else nil. The budget bounds only the rounds after them, so a suite that outgrew it
    /// is told so at once rather than after the fact.
    public static func mandatoryRoundsOverrun(
        budgetMinutes: Int, elapsedSeconds: Int, roundSeconds: Int, rounds: Int
    ) -> Int? {
        guard budgetMinutes > 0, rounds > 1 else { return nil }
        let end = elapsedSeconds + roundSeconds * (rounds - 1)
        return end > budgetMinutes * 60 ? (end + 59) / 60 : nil
    }

    /// The groups of `groups` with a row the judgement left `noisy`: more rounds go where the
    /// verdict is still open. A group without a count stands for every count of its scenario.
    public static func undecided(_ groups: [ScenarioGroup], rows: [(scenario: String, items: Int, verdict: String)]) -> [ScenarioGroup] {
        var noisy = Set<ScenarioGroup>()
        var noisyScenarios = Set<String>()
        for row in rows where row.verdict == "noisy" {
            noisy.insert(ScenarioGroup(scenario: row.scenario, items: row.items))
            noisyScenarios.insert(row.scenario)
        }
        return groups.filter { group in
            group.items == nil ? noisyScenarios.contains(group.scenario) : noisy.contains(group)
        }
    }

    /// The rows of a judgement as `undecided` takes them.
    public static func verdicts(_ report: ComparisonReport) -> [(scenario: String, items: Int, verdict: String)] {
        report.rows.map { ($0.key.scenario, $0.key.items, $0.verdict?.rawValue ?? "") }
    }
}
