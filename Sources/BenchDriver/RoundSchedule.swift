import Foundation
import BenchCompare

/// One scenario group of the timed track: a scenario at one item count (nil: the counts run's
/// options select, one process for all), run as one fresh process per commit and round.
package struct ScenarioGroup: Hashable, Sendable, CustomStringConvertible {
    package var scenario: String
    package var items: Int?

    package init(scenario: String, items: Int?) {
        self.scenario = scenario
        self.items = items
    }

    /// "SCENARIO ITEMS" ("SCENARIO " without a count), as shard.json's `share` lists it.
    package var description: String { "\(scenario) \(items.map(String.init) ?? "")" }

    package init?(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { return nil }
        scenario = String(name)
        let count = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        if count.isEmpty { items = nil } else if let value = Int(count) { items = value } else { return nil }
    }
}

/// The decisions of the rounds, apart from running them (tested without a process).
package enum RoundSchedule {
    /// The groups of the scenarios `chosen` (all listed ones when empty), one per item count of
    /// the scenario's sweep when `expand`, else one per scenario; a scenario `listing` does not
    /// name (a path to a JSON file) is one group.
    package static func groups(listing: [(name: String, items: [Int])], chosen: [String], expand: Bool) -> [ScenarioGroup] {
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
    package static func baseFirst(round: Int, index: Int) -> Bool {
        (index + round) % 2 != 0
    }

    /// Whether round `round` copies the base's binary before the head's (`CodePlacement`): odd
    /// rounds do, even ones copy the head's first, so that whatever the order of the copies
    /// brings falls on each side in half the rounds, and pairing cancels it.
    package static func baseCopiedFirst(round: Int) -> Bool {
        round % 2 != 0
    }

    /// The order in which round `round` copies `binaries` (base before head, or oldest commit
    /// first): as given when `baseCopiedFirst(round:)`, reversed otherwise.
    package static func copyOrder<Binary>(_ binaries: [Binary], round: Int) -> [Binary] {
        baseCopiedFirst(round: round) ? binaries : binaries.reversed()
    }

    /// The duet's names of the two sides: the side whose name sorts first takes the first
    /// sampling turn.
    package static func duetNames(round: Int, index: Int) -> (base: String, head: String) {
        baseFirst(round: round, index: index) ? ("1", "2") : ("2", "1")
    }

    /// Of `candidates` (in their order), the groups the next round measures: all of them without a
    /// budget (`remainingSeconds` nil), else, taken in turn, the `undecided` ones cheapest first,
    /// then the others cheapest first (by `seconds`, each group's duration in the round that last
    /// measured it; a group never timed counts as the dearest), each that still lets the round,
    /// run on `lanes` cores at once, end within `remainingSeconds`. A group with a row still
    /// `noisy` leaves the whole comparison undecided (exit 3), where a row unchanged at a widened
    /// θ is decided already and only resolves less: the undecided come first. Within each, cheap
    /// groups first: a round of the whole suite's small groups costs what one large group does,
    /// and each buys a row another pair of processes. The `confirming` groups, whose row looks
    /// changed or is still noisy but has too few pairs for a change to be claimed, are measured
    /// whatever the budget says: at most the few rounds that take them to that many pairs, so that
    /// no verdict found within the budget is left `noisy` for want of them.
    package static func nextRound(
        _ candidates: [ScenarioGroup], seconds: [ScenarioGroup: Double], remainingSeconds: Double?, lanes: Int,
        undecided: Set<ScenarioGroup> = [], confirming: Set<ScenarioGroup> = []
    ) -> [ScenarioGroup] {
        guard let remainingSeconds else { return candidates }
        let dearest = seconds.values.max() ?? 0
        let cost = { (group: ScenarioGroup) in seconds[group] ?? dearest }
        let order = candidates.sorted { a, b in
            let (aFirst, bFirst) = (undecided.contains(a), undecided.contains(b))
            return aFirst != bFirst ? aFirst : cost(a) < cost(b)
        }
        var chosen = Set(candidates.filter(confirming.contains))
        var total = chosen.reduce(0) { $0 + cost($1) }, longest = chosen.map(cost).max() ?? 0
        for group in order where !chosen.contains(group) {
            let newTotal = total + cost(group), newLongest = Swift.max(longest, cost(group))
            // Lanes pull groups as they free: the round lasts about the larger of its share per
            // lane and its longest group. One that does not fit is passed over for cheaper ones.
            guard Swift.max(newTotal / Double(Swift.max(lanes, 1)), newLongest) <= remainingSeconds else { continue }
            chosen.insert(group)
            total = newTotal
            longest = newLongest
        }
        return candidates.filter { chosen.contains($0) }
    }

    /// After round 1 took `roundSeconds` with `elapsedSeconds` of measuring behind it: the minute
    /// the first `rounds` rounds will end at, when that is past the budget (`budgetMinutes`, 0:
    /// none), else nil. The budget bounds only the rounds after them, so a suite that outgrew it
    /// is told so at once rather than after the fact.
    package static func mandatoryRoundsOverrun(
        budgetMinutes: Int, elapsedSeconds: Int, roundSeconds: Int, rounds: Int
    ) -> Int? {
        guard budgetMinutes > 0, rounds > 1 else { return nil }
        let end = elapsedSeconds + roundSeconds * (rounds - 1)
        return end > budgetMinutes * 60 ? (end + 59) / 60 : nil
    }

    /// One judged row as `unsettled` takes it: its group, its verdict, and whether its threshold
    /// was widened by its processes' spread.
    package struct JudgedRow: Sendable {
        package var scenario: String
        package var items: Int
        package var verdict: String
        package var widened = false
        /// Whether the row looks changed but has fewer pairs than a change is claimed from
        /// (`RowComparison.awaitsRepetitions`).
        package var awaitsRepetitions = false
        /// The repetitions of its side with the fewer (nil: not counted).
        package var pairs: Int?
    }

    /// The groups of `groups` that more processes would help: a row the judgement left `noisy`
    /// (its verdict is open), or one judged `unchanged` at a θ its processes' spread widened (it
    /// resolves less than its metric's threshold, and the spread of n processes averages down by
    /// √n). A group without a count stands for every count of its scenario.
    package static func unsettled(_ groups: [ScenarioGroup], rows: [JudgedRow]) -> [ScenarioGroup] {
        var open = Set<ScenarioGroup>()
        var openScenarios = Set<String>()
        for row in rows where row.verdict == "noisy" || (row.verdict == "unchanged" && row.widened) {
            open.insert(ScenarioGroup(scenario: row.scenario, items: row.items))
            openScenarios.insert(row.scenario)
        }
        return groups.filter { group in
            group.items == nil ? openScenarios.contains(group.scenario) : open.contains(group)
        }
    }

    /// The groups of `groups` with a row the judgement left `noisy`: their verdict is open, and
    /// with it the comparison's (`nextRound` measures them first).
    package static func undecided(_ groups: [ScenarioGroup], rows: [JudgedRow]) -> Set<ScenarioGroup> {
        Set(unsettled(groups, rows: rows.filter { $0.verdict == "noisy" }))
    }

    /// The groups of `groups` that have a row that looks changed with too few pairs for a change
    /// to be claimed (`RowComparison.awaitsRepetitions`), or a row still `noisy` at fewer than
    /// `pairsForNoisy` pairs (nil: none for that). `nextRound` measures them past the budget. A comparison then
    /// leaves no row undecided (exit 3) before it has the pairs that could have decided it.
    ///
    /// A row still noisy once it has the pairs a change needs is a row whose interval happened to
    /// land across its threshold: its mean sits some four standard errors from 1 in an A/A, which
    /// more pairs draw back (compare-commits gives it twice the pairs a change needs). Rows whose
    /// processes run at one of two speeds do so most: eight pairs of processes each fast or slow by
    /// chance can lean one way, and agree well enough that the interval cannot close.
    package static func confirming(_ groups: [ScenarioGroup], rows: [JudgedRow], pairsForNoisy: Int? = nil) -> Set<ScenarioGroup> {
        Set(unsettled(groups, rows: rows.filter { row in
            if row.awaitsRepetitions { return true }
            guard row.verdict == "noisy", let limit = pairsForNoisy, let pairs = row.pairs else { return false }
            return pairs < limit
        }))
    }

    /// The rows of a judgement as `unsettled` takes them.
    package static func judgedRows(_ report: ComparisonReport) -> [JudgedRow] {
        report.rows.map {
            JudgedRow(scenario: $0.key.scenario, items: $0.key.items, verdict: $0.verdict?.rawValue ?? "",
                      widened: $0.threshold > $0.policy.threshold, awaitsRepetitions: $0.awaitsRepetitions,
                      pairs: Swift.min($0.baseRepetitions, $0.headRepetitions))
        }
    }

    /// One verification run: `scenarios`, at `items` when it names a count (nil: each at the
    /// counts run's options select).
    package struct VerificationBatch: Equatable, Sendable {
        package var scenarios: [String]
        package var items: Int?
    }

    /// What verifies `groups` (nil: the whole sweep of each of `scenarios`, one run): one run
    /// per item count, of the scenarios that have a group at that count (in the groups' order);
    /// groups without a count are one run of their scenarios.
    package static func verificationBatches(_ groups: [ScenarioGroup]?, scenarios: [String]) -> [VerificationBatch] {
        guard let groups else { return [VerificationBatch(scenarios: scenarios, items: nil)] }
        var batches: [VerificationBatch] = []
        for group in groups {
            if let index = batches.firstIndex(where: { $0.items == group.items }) {
                if !batches[index].scenarios.contains(group.scenario) { batches[index].scenarios.append(group.scenario) }
            } else {
                batches.append(VerificationBatch(scenarios: [group.scenario], items: group.items))
            }
        }
        return batches
    }
}
