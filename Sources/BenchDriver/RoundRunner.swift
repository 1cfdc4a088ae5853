import Foundation
import BenchPlatform
import BenchResults

/// The round runner of `compare-commits`: the processes of one round, in the comparison's folder
/// `work`. A timed round runs every group of both sides, as duets (a lane of duets per core) or
/// back to back, each group's duration kept in `groupSeconds` for the next round's plan; a round
/// of the exact track runs each side's whole selection once.
/// Unchecked: what the lanes share is under a lock (`groupSeconds`, the log); the rest is read only.
struct RoundRunner: @unchecked Sendable {
    var arguments: CompareCommitsArguments
    var work: String
    /// As many lanes as the processes the comparison keeps running (and the budget plans for).
    var lanes: Int
    /// Each group's duration (both sides of its duet) in the round that last measured it,
    /// written by the lanes.
    let groupSeconds = Locked<[ScenarioGroup: Double]>([:])
    private let logLock = NSLock()

    /// The exact track's timed part need not run counts its callgrind pass does not count.
    static let exactMaxItems = 30_000

    /// A round of the exact track: the side's whole selection in one run, which verifies every
    /// mode itself and counts its allocations (nothing verified it before, and `--verified` would
    /// skip the allocation counts and recall the exact track judges).
    func runWhole(_ side: ComparedSide, round: Int, scenarios: [String]) -> DriverError? {
        var extra = ["--repetitions", "1"]
        if side.harness.capsItems { extra += ["--max-items", String(Self.exactMaxItems)] }
        DriverLog.say("round \(round): \(side.name) (\(side.short))")
        let log = "\(work)/\(side.name)-round-\(round).log"
        Paths.remove(log)
        let child = ChildRun(
            executable: side.harness.binary,
            arguments: ["run"] + scenarios + arguments.runOptions + extra + ["--out", Paths.absolute("\(work)/\(side.name)/round-\(round)")],
            directory: side.harness.directory)
        if child.run(log: log).status != 0 {
            // A mode that failed is in the round's failures.csv, which the merge carries into the
            // side's and the judgement calls `failed`; a run that failed otherwise is an error.
            if let failed = try? FailureRow.load(besideIn: "\(work)/\(side.name)/round-\(round)"), !failed.isEmpty {
                for failure in failed { DriverLog.say("\(side.name) (\(side.short)): \(failure.message)") }
                return nil
            }
            return DriverError("layout-bench run of \(side.name) (\(side.short)) failed in round \(round):", details: lastLines(of: log, 5))
        }
        return nil
    }

    /// One group of one side in a timed round; `duet` its duet specification, `core` its pin.
    private func runGroup(_ side: ComparedSide, round: Int, index: Int, group: ScenarioGroup, duet: String?, core: Int?) -> DriverError? {
        TimedGroup(binary: side.runBinary, harness: side.harness, group: group, runOptions: arguments.runOptions,
                   verified: side.harness.verifiesOnce && (round > 1 || side.harness.verifiesApart), duet: duet, core: core)
            .run(out: Paths.absolute("\(work)/\(side.name)/round-\(round)/g-\(index)"), log: "\(work)/\(side.name)-round-\(round).log",
                 lock: logLock, failure: "layout-bench run of \(side.name) (\(side.short)) failed in round \(round) on")
    }

    /// Every group of `groups`, base and head as duets (a lane of duets per core, each lane taking
    /// the next group as its last one ends; the two sides of a group share their core and take
    /// their sampling turns in alternation) or back to back (which side first alternates).
    func runRound(_ round: Int, base: ComparedSide, head: ComparedSide, groups: [ScenarioGroup], duet: Bool, extra: Bool) throws(DriverError) {
        // At once on two cores, the two cores ran at different speeds (a whole-suite A/A widened
        // every time row's threshold, median 68%); without a barrier, one process built fixtures
        // while the other timed.
        DriverLog.say("round \(round): \(groups.count) scenario groups\(extra ? " still unsettled" : ""), base and head "
                      + (duet ? "as duets, each on one core" : "back to back"))
        let pin = ProcessInfo.processInfo.activeProcessorCount >= 2
        let indexed = Array(groups.enumerated().map { ($0.offset + 1, $0.element) })
        if duet {
            // Lanes, not batches of two: a batch waited for its slower group, and a lane beside
            // a group of two minutes stood idle for most of them. The round's groups in order,
            // handed to the lanes one at a time.
            let queue = Locked(indexed[...])
            let failures = Failures()
            // As many lanes as the processes the comparison keeps running (and the budget plans for).
            concurrently((0..<lanes).map { lane in { [self] in
                while failures.first == nil, let (index, group) = queue.withLock({ $0.popFirst() }) {
                    let barrier = Paths.absolute("\(work)/duet/r\(round)-g\(index)")
                    do throws(DriverError) { try Paths.makeDirectory(barrier) } catch { failures.add(error); return }
                    let names = RoundSchedule.duetNames(round: round, index: index)
                    let core = pin ? lane : nil
                    let start = monotonicSeconds()
                    // The side that takes the first turn is also started first.
                    let pair = [(base, names.base, names.head), (head, names.head, names.base)]
                    let started = RoundSchedule.baseFirst(round: round, index: index) ? pair : pair.reversed()
                    concurrently(started.map { side, mine, theirs in { [self] in
                        if let error = runGroup(side, round: round, index: index, group: group, duet: "\(barrier):\(mine):\(theirs)", core: core) {
                            failures.add(error)
                        }
                    } })
                    let seconds = monotonicSeconds() - start
                    groupSeconds.withLock { $0[group] = seconds }
                    Paths.remove(barrier)
                }
            } })
            if let error = failures.first { throw error }
        } else {
            for (index, group) in indexed {
                let order = RoundSchedule.baseFirst(round: round, index: index) ? [base, head] : [head, base]
                let start = monotonicSeconds()
                for side in order {
                    if let error = runGroup(side, round: round, index: index, group: group, duet: nil, core: nil) { throw error }
                }
                let seconds = monotonicSeconds() - start
                groupSeconds.withLock { $0[group] = seconds }
            }
        }
    }
}
