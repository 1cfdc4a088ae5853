import Foundation
import BenchPlatform
import BenchResults
import BenchCompare

/// `compare-commits BASE HEAD [SCENARIO …]`: did HEAD make anything slower than BASE, by how
/// much, with what confidence?
///
/// The machine's load is recorded first (`MachineLoad`), then both commits are built (each in
/// its own worktree, `Commits.build`), both verify every mode at once, one per core, and the
/// timed rounds run: every scenario group as one fresh process per commit, the two as a duet on
/// one core (a lane of duets per core), rounds alternating which side starts; more rounds only for
/// the groups with a row still `noisy` or judged at a θ its spread widened (the noisy ones first,
/// then the cheapest), within the time budget. Each side's rounds are merged into one results
/// directory (`RoundMerge`) and judged in this process (`Judge`). Everything
/// is written into `<final>.tmp-PID` and renamed into place at the end: an interrupted or failed
/// comparison leaves no partial results and earlier ones intact. The exact track
/// (`--instructions`) runs the two commits at once under callgrind, one round each.
package final class CompareCommits: @unchecked Sendable {
    package let arguments: CompareCommitsArguments
    /// The comparison's own results folder while it runs (`<final>.tmp-PID`).
    private(set) var work = ""
    private var final = ""
    private var machineBefore: RunMetadata.MachineLoad?
    private var base: ComparedSide!
    private var head: ComparedSide!
    private var ownProcesses = 1
    /// The processes of its own the run.json's load counts (`ownProcesses`, each duet's two).
    private var loadProcesses = 1
    private var judgedRounds = 0
    private var judgeSeconds = 0
    private var judgement: Judge.Outcome?

    /// The repository's root, where results/ and .build-commits/ are (nil: the working directory).
    package let root: String?
    private var prefix: String { root.map { $0 + "/" } ?? "" }
    /// The comparison's folder, once `work` and `final` are known.
    private var folder: ComparisonFolder {
        ComparisonFolder(work: work, final: final, plot: arguments.plot ? arguments.plotCommand ?? DriverScripts.plot : nil)
    }

    package init(arguments: CompareCommitsArguments, root: String? = nil) {
        self.arguments = arguments
        self.root = root
    }

    /// Runs the comparison; returns compare's exit status (0, 2, 3, 4). Bad input and failures
    /// throw, after removing the comparison's folder.
    package func run() throws(DriverError) -> Int32 {
        if arguments.merge { return try merge() }
        if !arguments.instructions && arguments.roundLimits.maxRounds < arguments.repetitionsForChange {
            DriverLog.say("warning: --max-rounds \(arguments.roundLimits.maxRounds) allows fewer rounds than the "
                + "\(arguments.repetitionsForChange) pairs a timed change is claimed from (--change-repetitions): a change will stay noisy")
        }
        // What can be known before anything is built or measured is checked first: a binary
        // given that cannot run, or the exact track without callgrind (whose counts would be
        // `unsupported`, judging only allocations and recall).
        for (option, binary) in [("--base-binary", arguments.baseBinary), ("--head-binary", arguments.headBinary)] {
            if let binary { try Commits.checkBinary(binary, what: arguments.builds ? binary : "\(option) \(binary)") }
        }
        if arguments.instructions { try Self.checkValgrind() }
        // Two builds are named by their binaries' contents; two commits by git.
        let baseHash = arguments.builds ? try Self.buildHash(arguments.positional[0]) : try Commits.resolve(arguments.positional[0], in: root)
        let headHash = arguments.builds ? try Self.buildHash(arguments.positional[1]) : try Commits.resolve(arguments.positional[1], in: root)
        // The machine as the comparison found it, before it builds or runs anything: every load
        // average a run records later includes the comparison's own processes.
        machineBefore = MachineLoad.measure()
        var baseBinary = arguments.baseBinary ?? "", headBinary = arguments.headBinary ?? ""
        if arguments.baseBinary == nil { baseBinary = try Commits.build(baseHash, with: try buildCommand()) }
        if arguments.headBinary == nil { headBinary = try Commits.build(headHash, with: try buildCommand()) }
        let baseShort = arguments.builds ? String(baseHash.prefix(7)) : Commits.short(baseHash, in: root)
        let headShort = arguments.builds ? String(headHash.prefix(7)) : Commits.short(headHash, in: root)
        final = "\(prefix)results/compare/\(baseShort)..\(headShort)"
        if let shard = arguments.shard { final += "-shard-\(shard.index)-of-\(shard.count)" }
        work = "\(final).tmp-\(getpid())"
        Paths.remove(work)
        try Paths.makeDirectory(work)
        SignalCleanup.register(tree: Paths.absolute(work))
        defer { SignalCleanup.unregister(tree: Paths.absolute(work)) }
        do {
            let status = try compare(baseHash: baseHash, headHash: headHash, baseShort: baseShort, headShort: headShort,
                                     baseBinary: baseBinary, headBinary: headBinary)
            return status
        } catch {
            Paths.remove(work)
            throw error
        }
    }

    /// The name of a build (`compare-builds`): its binary's SHA-256, so that two builds of the same
    /// source are the same side and the results folder says which builds it compared.
    static func buildHash(_ binary: String) throws(DriverError) -> String {
        guard let hash = sha256(file: binary) else {
            throw DriverError("\(binary): cannot compute its SHA-256 (no sha256sum on PATH, or the file cannot be read)")
        }
        return hash
    }

    /// The exact track counts under callgrind: off Linux, or without valgrind on PATH, it is one
    /// error, before anything is built or measured.
    static func checkValgrind() throws(DriverError) {
        if let refusal = PlatformCapabilities.instructionsRefusal { throw DriverError(refusal) }
        guard findOnPath("valgrind") == nil else { return }
        throw DriverError("--instructions counts under callgrind, and valgrind is not on PATH: install it "
            + "(apt-get install valgrind; scripts/compare-commits does), or compare without --instructions")
    }

    private func buildCommand() throws(DriverError) -> String {
        guard let command = arguments.buildCommand ?? DriverScripts.build else {
            throw DriverError("no scripts/build-commit here: run it from the repository's root, or give --base-binary and --head-binary")
        }
        return command
    }

    private func compare(
        baseHash: String, headHash: String, baseShort: String, headShort: String, baseBinary: String, headBinary: String
    ) throws(DriverError) -> Int32 {
        let baseHarness = ChildHarness.probe(binary: baseBinary, directory: ChildHarness.tree(of: baseBinary))
        let headHarness = ChildHarness.probe(binary: headBinary, directory: ChildHarness.tree(of: headBinary))
        // The timed rounds run fresh copies (CodePlacement), made at each round's start.
        base = ComparedSide(name: "base", hash: baseHash, short: baseShort, harness: baseHarness, runBinary: baseBinary)
        head = ComparedSide(name: "head", hash: headHash, short: headShort, harness: headHarness, runBinary: headBinary)
        let instructions = arguments.instructions
        // A harness without the duet never meets its partner: back to back.
        let duet = arguments.duet && !instructions && baseHarness.duet != .none && headHarness.duet != .none

        // The groups of the timed track (all, or this shard's share) and, for a shard, the
        // scenarios its verification and the exact track run.
        let plan = try ComparisonPlan.make(arguments, base: { listing(baseHarness) }, head: { listing(headHarness) })
        for note in plan.notes { DriverLog.say(note) }
        let scenarios = plan.scenarios, groupsAll = plan.groups, share = plan.share

        let measureStart = monotonicSeconds()
        func elapsed() -> Int { Int(monotonicSeconds() - measureStart) }
        if !instructions && (baseHarness.verifiesApart || headHarness.verifiesApart) {
            DriverLog.say("verifying both commits at once ...")
            let verifyStart = monotonicSeconds()
            var sides: [ComparedSide] = []
            if baseHarness.verifiesApart { sides.append(base) }
            // One commit against itself (an A/A check) verifies once.
            if headHarness.verifiesApart && headHash != baseHash { sides.append(head) }
            let failures = Failures()
            // A shard verifies its own groups (each count of a scenario it holds), not the whole
            // sweep of every scenario it holds: dealt group by group, every share held nearly
            // every scenario and verified nearly the whole suite.
            let batches = RoundSchedule.verificationBatches(arguments.shard == nil ? nil : groupsAll, scenarios: scenarios)
            let verification = Verification(arguments: arguments, root: root, work: work)
            concurrently(sides.map { side in {
                for batch in batches {
                    if let error = verification.verify(side, batch: batch, apart: batches.count > 1) { failures.add(error); return }
                }
            } })
            if let error = failures.first { throw error }
            DriverLog.say("verification took \(minutesSeconds(Int(monotonicSeconds() - verifyStart)))")
            var failed = verification.failures.withLock { $0 }
            if headHash == baseHash, let same = failed["base"] { failed["head"] = same }
            if !failed.isEmpty { return try endAtFailedVerification(failed) }
        }

        let (rounds, maxRounds) = arguments.roundLimits
        // The processes the comparison keeps running at once: a duet per core (its two sides take
        // turns, the waiting one sleeps), or both sides of the exact track at once; else one.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        ownProcesses = (duet || instructions) ? (cores >= 2 ? 2 : 1) : 1
        // What its run.json records as its own load: both processes of each duet, which run at
        // once while they build their fixtures (whole-suite comparisons here, nothing else
        // running, read load averages of 2.69–3.58 on 2 cores with 2 lanes).
        loadProcesses = duet ? 2 * ownProcesses : ownProcesses
        let runner = RoundRunner(arguments: arguments, work: work, lanes: ownProcesses)
        var groups = groupsAll
        var round = 0
        var ending = RoundsEnding(arguments: arguments, machineBefore: machineBefore)
        var endedByMaxRounds = false
        while true {
            round += 1
            let roundStart = monotonicSeconds()
            if instructions {
                // Counts do not depend on load: the two sides run at once, one per core.
                let failures = Failures()
                let current = round
                let scenarios = scenarios
                concurrently([base!, head!].map { side in {
                    if let error = runner.runWhole(side, round: current, scenarios: scenarios) { failures.add(error) }
                } })
                if let error = failures.first { throw error }
            } else {
                // Both sides' code on new pages every round; the copies of one binary in an A/A
                // share no pages either (the side whose turn followed the other's found shared
                // code warm in the core's caches, and an A/A called a row 8% faster).
                // Which side is copied first alternates by round, as which side starts does: in an
                // A/A whose base was always copied and started first, the base's processes of one
                // row read 125–172 ns in all eight rounds and the head's 208–242 ns (`regressed`, 1.61).
                let sides = [("base", base!.harness.binary), ("head", head!.harness.binary)]
                let copies = try CodePlacement.copies(forRound: round, of: RoundSchedule.copyOrder(sides, round: round),
                                                      under: Paths.absolute(work) + "/code")
                // copyOrder puts them back: it reverses or keeps two.
                let copied = RoundSchedule.copyOrder(copies, round: round)
                base!.runBinary = copied[0]
                head!.runBinary = copied[1]
                try runner.runRound(round, base: base, head: head, groups: groups, duet: duet, extra: round > rounds)
            }
            let roundSeconds = Int(monotonicSeconds() - roundStart)
            DriverLog.say("round \(round) took \(minutesSeconds(roundSeconds)) (\(elapsed() / 60) min so far)")
            if round == 1, !instructions, let end = RoundSchedule.mandatoryRoundsOverrun(
                budgetMinutes: arguments.budgetMinutes, elapsedSeconds: elapsed(), roundSeconds: roundSeconds, rounds: rounds) {
                ending.overran = true
                DriverLog.say("the first \(rounds) rounds will end at about \(end) min, past the budget of \(arguments.budgetMinutes) min, "
                              + "which bounds only the rounds after them (--rounds sets how many always run)")
            }
            if round < rounds { continue }
            // What ends the rounds is what compare.txt reports: the last round's budget cut
            // counts only when the budget, not --max-rounds or settled rows, ended them.
            ending.stoppedByBudget = false
            if round >= maxRounds { endedByMaxRounds = true; break }
            try judge(rounds: round)
            let judged = RoundSchedule.judgedRows(judgement!.report)
            let remaining = arguments.budgetMinutes > 0
                ? Double(arguments.budgetMinutes * 60 - elapsed() - judgeSeconds) : nil
            let next = ending.nextRound(groupsAll, rows: judged, seconds: runner.groupSeconds.withLock { $0 }, remainingSeconds: remaining,
                                        lanes: ownProcesses)
            if next.isEmpty { break }
            groups = next
        }
        let roundsRun = round
        Paths.remove(work + "/code")
        Paths.remove(work + "/duet")
        if judgedRounds != roundsRun { try judge(rounds: roundsRun) }
        let outcome = judgement!
        for side in ["base", "head"] { try folder.keepRunRecords(side, rounds: roundsRun) }

        ending.rounds = roundsRun
        ending.seconds = elapsed()
        if endedByMaxRounds, maxRounds > rounds {
            ending.unsettledAtMaxRounds = RoundSchedule.unsettled(groupsAll, rows: RoundSchedule.judgedRows(outcome.report)).count
        }
        let text = try folder.writeText(outcome.text + ending.text)
        if let shard = arguments.shard {
            // What --merge checks: one comparison (commits, options), every share once.
            try Shards.Record(
                base: baseHash, head: headHash, shard: shard.index, shards: shard.count, options: arguments.recordedOptions,
                scenarios: arguments.scenarios, compareArguments: arguments.compareArguments, share: share,
                measured: "\(roundsRun) rounds, \(ending.measured)").write(to: work + "/shard.json")
        }
        try folder.publish(text: text)
        return outcome.status
    }

    /// A mode failed its verification on a side: the comparison ends before its rounds, its
    /// verdict the failed groups (`failed`, exit 2; docs/command-line.md). Timing a mode that
    /// gives wrong answers, or dies, measures nothing worth judging, and the gate fails either way;
    /// compare.txt lists the groups first, with each failure's line. Shares of a sharded
    /// comparison cannot be merged without their rounds, so a share's failed verification
    /// stays an error.
    private func endAtFailedVerification(_ failed: [String: [FailureRow]]) throws(DriverError) -> Int32 {
        if arguments.shard != nil {
            let first = (failed["base"] ?? failed["head"] ?? []).first
            throw DriverError("\(failed["base"] != nil ? "base" : "head") failed its verification:", details: first.map { [$0.message] } ?? [])
        }
        // Each side's failures stay in its folder (SIDE/failures.csv), as a merged side's do.
        for side in [base!, head!] {
            try Paths.makeDirectory("\(work)/\(side.name)")
            try Paths.write(FailureRow.csv(failed[side.name] ?? [], runID: "", commit: side.short),
                            to: "\(work)/\(side.name)/\(FailureRow.fileName)")
        }
        func side(_ side: ComparedSide) -> ResultSet {
            var set = ResultSet(samplesPath: "\(work)/\(side.name)", series: [:], commits: [side.short])
            set.failures = failed[side.name] ?? []
            return set
        }
        let report: ComparisonReport
        do { report = try ComparisonReport(base: side(base), head: side(head), options: try Judge.options(arguments.compareArguments)) } catch {
            throw DriverError("\(error)")
        }
        do { try AtomicFile.write(ComparisonTable.files(report, csvPath: work + "/compare.csv"), option: "--out") } catch {
            throw DriverError("\(error)")
        }
        for side in ["base", "head"] { try folder.keepRunRecords(side, rounds: 0) }
        var text = ComparisonTable.text(report, showUnchanged: false)
        text += "\nthe verification failed, so no round was run: a mode that fails has no numbers to compare "
            + "(fix it, or leave it out with --mode in the run options)\n"
        if let machineBefore { text += MachineLoad.summary(machineBefore) + "\n" }
        try folder.publish(text: try folder.writeText(text))
        return report.exitStatus
    }

    // MARK: Groups

    /// A harness's scenarios and their sweeps, from its `list --json` (nil when that fails).
    func listing(_ harness: ChildHarness) -> [(name: String, items: [Int])]? { HarnessListing.entries(of: harness) }

    // MARK: Judgement

    /// Merges each side's rounds 1…`rounds` (the two sides at once) and judges them.
    private func judge(rounds: Int) throws(DriverError) {
        let start = monotonicSeconds()
        let load = RoundMerge.Load(before: machineBefore, ownProcesses: loadProcesses)
        let failures = Failures()
        let work = self.work
        concurrently(["base", "head"].map { side in {
            do throws(DriverError) {
                try RoundMerge.merge(rounds: (1...rounds).map { "\(work)/\(side)/round-\($0)" }, into: "\(work)/\(side)", load: load)
            } catch {
                failures.add(error)
            }
        } })
        if let error = failures.first { throw error }
        judgement = try Judge.run(base: "\(work)/base", head: "\(work)/head", csv: "\(work)/compare.csv", arguments: arguments.compareArguments)
        judgedRounds = rounds
        judgeSeconds = Int(monotonicSeconds() - start)
    }

    // MARK: Merge

    /// `--merge DIR …`: the shares checked, merged and judged together, in a folder renamed
    /// into place.
    private func merge() throws(DriverError) -> Int32 {
        let (records, defaultOut) = try Shards.check(arguments.positional)
        final = try Shards.checkOut(arguments.mergeOut ?? defaultOut, shares: arguments.positional)
        work = "\(final).tmp-\(getpid())"
        Paths.remove(work)
        try Paths.makeDirectory(work)
        SignalCleanup.register(tree: Paths.absolute(work))
        defer { SignalCleanup.unregister(tree: Paths.absolute(work)) }
        do {
            let shares = try Shards.merge(records, into: work)
            let outcome = try Judge.run(base: "\(work)/base", head: "\(work)/head", csv: "\(work)/compare.csv",
                                        arguments: records[0].0.compareArguments)
            try folder.publish(text: try folder.writeText(outcome.text + shares))
            return outcome.status
        } catch {
            Paths.remove(work)
            throw error
        }
    }
}
