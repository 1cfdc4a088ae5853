import BenchResults

/// How the timed rounds end: after each judgement, which groups the next round measures
/// (`nextRound`), and at the end the lines compare.txt says it with: how many rounds and minutes,
/// the machine before the comparison, and what left rows undecided (the first rounds alone past
/// the budget, `--max-rounds`, rounds past the budget to confirm a change, the budget). A value
/// the round loop keeps, so its decisions and its text are tested without a process.
struct RoundsEnding: Equatable {
    var rounds = 0
    var seconds = 0
    /// The rounds that always run (`--rounds`) and the limits the text names.
    var mandatoryRounds: Int
    var maxRounds: Int
    var budgetMinutes: Int
    var repetitionsForChange: Int
    var pairsForNoisy: Int
    var machineBefore: RunMetadata.MachineLoad?
    /// The first rounds alone ended past the budget.
    var overran = false
    /// `--max-rounds` ended the rounds with this many groups more rounds would have helped.
    var unsettledAtMaxRounds = 0
    /// Rounds run past the budget for groups whose rows looked changed at too few pairs, and how
    /// many groups they measured.
    var confirmingRounds = 0
    var confirmedGroups = Set<ScenarioGroup>()
    /// The budget left groups unmeasured.
    var stoppedByBudget = false

    init(arguments: CompareCommitsArguments, machineBefore: RunMetadata.MachineLoad?) {
        (mandatoryRounds, maxRounds) = arguments.roundLimits
        budgetMinutes = arguments.budgetMinutes
        repetitionsForChange = arguments.repetitionsForChange
        pairsForNoisy = arguments.pairsForNoisy
        self.machineBefore = machineBefore
    }

    /// The groups the next round measures after a judgement whose rows are `rows` (none: the
    /// rounds end): only the unsettled groups, those with a row still noisy first, then the
    /// cheapest first (`seconds`, each group's last duration), as many as end, with the judgement
    /// after them, within `remainingSeconds` of the budget (nil: none). Groups whose row looks
    /// changed, or is noisy, at too few pairs run past the budget (a few rounds at most): no row
    /// is left undecided before it has the pairs a change is claimed from. Records whether the
    /// budget left groups out, and the rounds and groups past it.
    mutating func nextRound(_ groups: [ScenarioGroup], rows: [RoundSchedule.JudgedRow], seconds: [ScenarioGroup: Double],
                            remainingSeconds: Double?, lanes: Int) -> [ScenarioGroup] {
        let unsettled = RoundSchedule.unsettled(groups, rows: rows)
        guard !unsettled.isEmpty else { return [] }
        let undecided = RoundSchedule.undecided(groups, rows: rows)
        let confirming = RoundSchedule.confirming(groups, rows: rows, pairsForNoisy: pairsForNoisy)
        let next = RoundSchedule.nextRound(unsettled, seconds: seconds, remainingSeconds: remainingSeconds, lanes: lanes,
                                           undecided: undecided, confirming: confirming)
        stoppedByBudget = next.count < unsettled.count
        let withinBudget = RoundSchedule.nextRound(unsettled, seconds: seconds, remainingSeconds: remainingSeconds,
                                                   lanes: lanes, undecided: undecided)
        if !confirming.isSubset(of: withinBudget) {
            confirmingRounds += 1
            confirmedGroups.formUnion(confirming.subtracting(withinBudget))
        }
        return next
    }

    /// "measured in N rounds, M min S s", then each reason that applies, one line each.
    var text: String {
        var text = "\nmeasured in \(rounds) rounds, \(measured)\n"
        if let machineBefore { text += MachineLoad.summary(machineBefore) + "\n" }
        if overran {
            text += "the first \(mandatoryRounds) rounds alone took past the budget of \(budgetMinutes) min: it bounds only the rounds "
                + "after them (--rounds sets how many always run; --shard splits a comparison across machines)\n"
        }
        if unsettledAtMaxRounds > 0 {
            text += "--max-rounds \(maxRounds) ended the rounds with \(unsettledAtMaxRounds) scenario group(s) that more rounds would have "
                + "helped: rows still noisy, or judged at a θ their spread widened\n"
        }
        if confirmingRounds > 0 {
            text += "\(confirmingRounds) round(s) past the budget measured \(confirmedGroups.count) scenario group(s) whose rows looked changed "
                + "at fewer than \(repetitionsForChange) pairs, the fewest a change is claimed from (--change-repetitions), "
                + "or were still noisy at fewer than \(pairsForNoisy)\n"
        }
        if stoppedByBudget {
            text += "the budget of \(budgetMinutes) min left groups unmeasured that more rounds would have helped: rows still "
                + "noisy, or judged at a θ their spread widened (--budget, --max-rounds)\n"
        }
        return text
    }

    /// "M min S s", as shard.json's `measured` says it too.
    var measured: String { "\(seconds / 60) min \(seconds % 60) s" }
}
