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
public final class CompareCommits: @unchecked Sendable {
    public let arguments: CompareCommitsArguments
    /// The comparison's own results folder while it runs (`<final>.tmp-PID`).
    private(set) var work = ""
    private var final = ""
    private var machineBefore: RunMetadata.MachineLoad?
    private var base: Side!
    private var head: Side!
    private var ownProcesses = 1
    /// The processes of its own the run.json's load counts (`ownProcesses`, each duet's two).
    private var loadProcesses = 1
    private var judgedRounds = 0
    private var judgeSeconds = 0
    private var judgement: Judge.Outcome?
    private let logLock = NSLock()
    /// Each group's duration (both sides of its duet) in the round that last measured it,
    /// written by the lanes.
    private let groupSeconds = Locked<[ScenarioGroup: Double]>([:])
    /// Per side ("base", "head"), the groups whose mode failed its verification (failures.csv of
    /// its verification run), written by the verifying threads.
    private let verificationFailures = Locked<[String: [FailureRow]]>([:])

    struct Side {
        var name: String
        var hash: String
        var short: String
        var harness: ChildHarness
        /// The binary the timed rounds run: the round's fresh copy of the harness's (CodePlacement).
        var runBinary: String
    }

    /// The exact track's timed part need not run counts its callgrind pass does not count.
    static let exactMaxItems = 30_000

    /// The repository's root, where results/ and .build-commits/ are (nil: the working directory).
    public let root: String?
    private var prefix: String { root.map { $0 + "/" } ?? "" }

    public init(arguments: CompareCommitsArguments, root: String? = nil) {
        self.arguments = arguments
        self.root = root
    }

    /// Runs the comparison; returns compare's exit status (0, 2, 3, 4). Bad input and failures
    /// throw, after removing the comparison's folder.
    public func run() throws(DriverError) -> Int32 {
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
        base = Side(name: "base", hash: baseHash, short: baseShort, harness: baseHarness, runBinary: baseBinary)
        head = Side(name: "head", hash: headHash, short: headShort, harness: headHarness, runBinary: headBinary)
        let instructions = arguments.instructions
        // A harness without the duet never meets its partner: back to back.
        let duet = arguments.duet && !instructions && baseHarness.duet != .none && headHarness.duet != .none

        // The groups of the timed track (all, or this shard's share) and, for a shard, the
        // scenarios its verification and the exact track run.
        var scenarios = arguments.scenarios
        if scenarios.isEmpty {
            // The whole suite: only the scenarios both commits have can be compared; running
            // the others would cost time (a new real-text scenario takes minutes under
            // callgrind) and give rows with nothing beside them.
            let common = HarnessListing.common(base: listing(base.harness), head: listing(head.harness))
            if !common.leftOut.isEmpty && !common.names.isEmpty {
                scenarios = common.names
                DriverLog.say("left out \(common.leftOut.count) scenario(s) only one of the commits has: "
                    + common.leftOut.joined(separator: ", "))
            }
        }
        var groupsAll = instructions ? [] : listGroups(scenarios)
        var share: [String] = []
        if let shard = arguments.shard {
            // Dealt in turn, group by group (scenario by scenario for the exact track, whose run
            // takes whole scenarios), so that each share holds scenarios of every size.
            let what = instructions ? "scenarios" : "scenario groups"
            let dealt: [String] = instructions
                ? listGroups(scenarios).map(\.scenario).uniqued()
                : groupsAll.map(\.description)
            share = Shards.share(dealt, index: shard.index, count: shard.count)
            if share.isEmpty {
                throw DriverError("--shard \(shard.index)/\(shard.count): there are only \(dealt.count) \(what) to share; give fewer shares")
            }
            if instructions {
                scenarios = share
            } else {
                groupsAll = share.compactMap(ScenarioGroup.init)
                scenarios = groupsAll.map(\.scenario).uniqued()
            }
            DriverLog.say("shard \(shard.index) of \(shard.count): \(share.count) of \(dealt.count) \(what)")
        }

        let measureStart = monotonicSeconds()
        func elapsed() -> Int { Int(monotonicSeconds() - measureStart) }
        if !instructions && (baseHarness.verifiesApart || headHarness.verifiesApart) {
            DriverLog.say("verifying both commits at once ...")
            let verifyStart = monotonicSeconds()
            var sides: [Side] = []
            if baseHarness.verifiesApart { sides.append(base) }
            // One commit against itself (an A/A check) verifies once.
            if headHarness.verifiesApart && headHash != baseHash { sides.append(head) }
            let failures = Failures()
            // A shard verifies its own groups (each count of a scenario it holds), not the whole
            // sweep of every scenario it holds: dealt group by group, every share held nearly
            // every scenario and verified nearly the whole suite.
            let batches = RoundSchedule.verificationBatches(arguments.shard == nil ? nil : groupsAll, scenarios: scenarios)
            concurrently(sides.map { side in { [self] in
                for batch in batches {
                    if let error = verify(side, batch: batch, apart: batches.count > 1) { failures.add(error); return }
                }
            } })
            if let error = failures.first { throw error }
            DriverLog.say("verification took \(minutesSeconds(Int(monotonicSeconds() - verifyStart)))")
            var failed = verificationFailures.withLock { $0 }
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
        var groups = groupsAll
        var round = 0
        var stoppedByBudget = false
        var confirmingRounds = 0
        var confirmedGroups = Set<ScenarioGroup>()
        var endedByMaxRounds = false
        var overrunMinutes: Int?
        while true {
            round += 1
            let roundStart = monotonicSeconds()
            if instructions {
                // Counts do not depend on load: the two sides run at once, one per core.
                let failures = Failures()
                let current = round
                let scenarios = scenarios
                concurrently([base!, head!].map { side in { [self] in
                    if let error = runWhole(side, round: current, scenarios: scenarios) { failures.add(error) }
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
                try runRound(round, groups: groups, duet: duet, extra: round > rounds)
            }
            let roundSeconds = Int(monotonicSeconds() - roundStart)
            DriverLog.say("round \(round) took \(minutesSeconds(roundSeconds)) (\(elapsed() / 60) min so far)")
            if round == 1, !instructions, let end = RoundSchedule.mandatoryRoundsOverrun(
                budgetMinutes: arguments.budgetMinutes, elapsedSeconds: elapsed(), roundSeconds: roundSeconds, rounds: rounds) {
                overrunMinutes = end
                DriverLog.say("the first \(rounds) rounds will end at about \(end) min, past the budget of \(arguments.budgetMinutes) min, "
                              + "which bounds only the rounds after them (--rounds sets how many always run)")
            }
            if round < rounds { continue }
            // What ends the rounds is what compare.txt reports: the last round's budget cut
            // counts only when the budget, not --max-rounds or settled rows, ended them.
            stoppedByBudget = false
            if round >= maxRounds { endedByMaxRounds = true; break }
            try judge(rounds: round)
            let judged = RoundSchedule.judgedRows(judgement!.report)
            let unsettled = RoundSchedule.unsettled(groupsAll, rows: judged)
            if unsettled.isEmpty { break }
            // The next round measures only the unsettled groups, those with a row still noisy
            // first, then the cheapest first, as many as end, with the judgement after them,
            // within the budget.
            let remaining = arguments.budgetMinutes > 0
                ? Double(arguments.budgetMinutes * 60 - elapsed() - judgeSeconds) : nil
            // Groups whose row looks changed, or is noisy, at too few pairs run past the budget (a
            // few rounds at most): no row is left undecided before it has the pairs a change is
            // claimed from.
            let seconds = groupSeconds.withLock { $0 }
            let undecided = RoundSchedule.undecided(groupsAll, rows: judged)
            let confirming = RoundSchedule.confirming(groupsAll, rows: judged, pairsForNoisy: arguments.pairsForNoisy)
            let next = RoundSchedule.nextRound(unsettled, seconds: seconds, remainingSeconds: remaining, lanes: ownProcesses,
                                               undecided: undecided, confirming: confirming)
            stoppedByBudget = next.count < unsettled.count
            let withinBudget = RoundSchedule.nextRound(unsettled, seconds: seconds, remainingSeconds: remaining,
                                                       lanes: ownProcesses, undecided: undecided)
            if !confirming.isSubset(of: withinBudget) {
                confirmingRounds += 1
                confirmedGroups.formUnion(confirming.subtracting(withinBudget))
            }
            if next.isEmpty { break }
            groups = next
        }
        let roundsRun = round
        Paths.remove(work + "/code")
        Paths.remove(work + "/duet")
        if judgedRounds != roundsRun { try judge(rounds: roundsRun) }
        let outcome = judgement!
        for side in ["base", "head"] { try keepRunRecords(side, rounds: roundsRun) }

        let measured = elapsed()
        var text = outcome.text
        text += "\nmeasured in \(roundsRun) rounds, \(measured / 60) min \(measured % 60) s\n"
        if let machineBefore { text += MachineLoad.summary(machineBefore) + "\n" }
        if overrunMinutes != nil {
            text += "the first \(rounds) rounds alone took past the budget of \(arguments.budgetMinutes) min: it bounds only the rounds "
                + "after them (--rounds sets how many always run; --shard splits a comparison across machines)\n"
        }
        if endedByMaxRounds, maxRounds > rounds {
            let unsettled = RoundSchedule.unsettled(groupsAll, rows: RoundSchedule.judgedRows(outcome.report))
            if !unsettled.isEmpty {
                text += "--max-rounds \(maxRounds) ended the rounds with \(unsettled.count) scenario group(s) that more rounds would have "
                    + "helped: rows still noisy, or judged at a θ their spread widened\n"
            }
        }
        if confirmingRounds > 0 {
            text += "\(confirmingRounds) round(s) past the budget measured \(confirmedGroups.count) scenario group(s) whose rows looked changed "
                + "at fewer than \(arguments.repetitionsForChange) pairs, the fewest a change is claimed from (--change-repetitions), "
                + "or were still noisy at fewer than \(arguments.pairsForNoisy)\n"
        }
        if stoppedByBudget {
            text += "the budget of \(arguments.budgetMinutes) min left groups unmeasured that more rounds would have helped: rows still "
                + "noisy, or judged at a θ their spread widened (--budget, --max-rounds)\n"
        }
        text = text.replacingOccurrences(of: work, with: final)
        try Paths.write(text, to: work + "/compare.txt")
        if let shard = arguments.shard {
            // What --merge checks: one comparison (commits, options), every share once.
            try Shards.Record(
                base: baseHash, head: headHash, shard: shard.index, shards: shard.count, options: arguments.recordedOptions,
                scenarios: arguments.scenarios, compareArguments: arguments.compareArguments, share: share,
                measured: "\(roundsRun) rounds, \(measured / 60) min \(measured % 60) s").write(to: work + "/shard.json")
        }
        try publish(text: text)
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
        func side(_ side: Side) -> ResultSet {
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
        for side in ["base", "head"] { try keepRunRecords(side, rounds: 0) }
        var text = ComparisonTable.text(report, showUnchanged: false)
        text += "\nthe verification failed, so no round was run: a mode that fails has no numbers to compare "
            + "(fix it, or leave it out with --mode in the run options)\n"
        if let machineBefore { text += MachineLoad.summary(machineBefore) + "\n" }
        text = text.replacingOccurrences(of: work, with: final)
        try Paths.write(text, to: work + "/compare.txt")
        try publish(text: text)
        return report.exitStatus
    }

    /// The folder renamed into place, compare.txt on stdout, the chart, and where it all is.
    private func publish(text: String) throws(DriverError) {
        try Paths.replace(final, with: work)
        try DriverLog.output(text)
        var drawn = false
        if arguments.plot, let plot = arguments.plotCommand ?? DriverScripts.plot {
            let result = ChildRun(executable: plot, arguments: ["--out", final + "/report", final + "/compare.csv"]).run(log: nil)
            StandardError.write(result.output)
            if result.status != 0 {
                DriverLog.say("warning: the chart could not be drawn (scripts/plot); the comparison above stands")
            }
            drawn = true
        }
        DriverLog.say("results: \(final) (compare.csv, compare.txt\(drawn ? ", report/index.html" : ""))")
    }

    // MARK: Groups

    /// The scenario groups a timed round runs: each scenario at each count of its sweep, or one
    /// group per scenario when run's options choose the counts (--items, --quick).
    func listGroups(_ scenarios: [String]) -> [ScenarioGroup] {
        let options = arguments.runOptions
        let expand = !options.contains("--items") && !options.contains("--max-items") && !options.contains("--quick")
        return RoundSchedule.groups(listing: listing(head.harness) ?? [], chosen: scenarios, expand: expand)
    }

    /// A harness's scenarios and their sweeps, from its `list --json` (nil when that fails).
    func listing(_ harness: ChildHarness) -> [(name: String, items: [Int])]? { HarnessListing.entries(of: harness) }

    // MARK: Verification

    /// A verification that passed is remembered beside the build
    /// (.build-commits/<commit>.verified-KEY, KEY a hash of the binary, the options and the content
    /// of the scenarios verified): verifying the same binary on the same input would find the same.
    func verifiedMarker(_ side: Side, scenarios: [String], items: Int? = nil) -> String? {
        VerifiedMarker.path(root: root, commit: side.hash, binary: side.harness.binary, scenarios: scenarios,
                            options: arguments.runOptions + (items.map { ["--items", String($0)] } ?? []),
                            directory: side.harness.directory)
    }

    /// Verifies `batch`'s scenarios (at its count, when it names one); `apart`: one of several
    /// batches, each in a folder and a log of its own.
    private func verify(_ side: Side, batch: RoundSchedule.VerificationBatch, apart: Bool) -> DriverError? {
        let marker = verifiedMarker(side, scenarios: batch.scenarios, items: batch.items)
        let what = batch.items.map { " at \($0) items" } ?? ""
        if let marker, Paths.exists(marker) {
            DriverLog.say("\(side.name) (\(side.short)): verified earlier on these scenarios\(what) (\(marker))")
            return nil
        }
        let suffix = apart ? "-items-\(batch.items.map(String.init) ?? "chosen")" : ""
        let log = "\(work)/\(side.name)-verify\(suffix).log"
        Paths.remove(log)
        let out = "\(work)/\(side.name)/verify" + (apart ? "/\(suffix.dropFirst())" : "")
        let child = ChildRun(
            executable: side.harness.binary,
            arguments: ["run"] + batch.scenarios + arguments.runOptions + (batch.items.map { ["--items", String($0)] } ?? [])
                + ["--verify-only", "--repetitions", "1", "--out", Paths.absolute(out)],
            directory: side.harness.directory)
        if child.run(log: log).status != 0 {
            // A mode that failed is recorded in the run's failures.csv, and judged `failed`; a
            // run that failed otherwise (bad input, a full disk) is an error.
            if let failed = try? FailureRow.load(besideIn: out), !failed.isEmpty {
                for failure in failed { DriverLog.say("\(side.name) (\(side.short)): \(failure.message)") }
                verificationFailures.withLock { $0[side.name, default: []] += failed }
                return nil
            }
            return DriverError("\(side.name) (\(side.short)) failed its verification:",
                               details: lastLines(of: log, 5) { $0.contains("FAILED") || $0.contains("error") })
        }
        VerifiedMarker.write(marker)
        return nil
    }

    // MARK: Rounds

    /// A round of the exact track: the side's whole selection in one run, which verifies every
    /// mode itself and counts its allocations (nothing verified it before, and `--verified` would
    /// skip the allocation counts and recall the exact track judges).
    private func runWhole(_ side: Side, round: Int, scenarios: [String]) -> DriverError? {
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
    private func runGroup(_ side: Side, round: Int, index: Int, group: ScenarioGroup, duet: String?, core: Int?) -> DriverError? {
        TimedGroup(binary: side.runBinary, harness: side.harness, group: group, runOptions: arguments.runOptions,
                   verified: side.harness.verifiesOnce && (round > 1 || side.harness.verifiesApart), duet: duet, core: core)
            .run(out: Paths.absolute("\(work)/\(side.name)/round-\(round)/g-\(index)"), log: "\(work)/\(side.name)-round-\(round).log",
                 lock: logLock, failure: "layout-bench run of \(side.name) (\(side.short)) failed in round \(round) on")
    }

    /// Every group of `groups`, base and head as duets (a lane of duets per core, each lane taking
    /// the next group as its last one ends; the two sides of a group share their core and take
    /// their sampling turns in alternation) or back to back (which side first alternates).
    private func runRound(_ round: Int, groups: [ScenarioGroup], duet: Bool, extra: Bool) throws(DriverError) {
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
            let lanes = ownProcesses
            concurrently((0..<lanes).map { lane in { [self] in
                while failures.first == nil, let (index, group) = queue.withLock({ $0.popFirst() }) {
                    let barrier = Paths.absolute("\(work)/duet/r\(round)-g\(index)")
                    do throws(DriverError) { try Paths.makeDirectory(barrier) } catch { failures.add(error); return }
                    let names = RoundSchedule.duetNames(round: round, index: index)
                    let core = pin ? lane : nil
                    let start = monotonicSeconds()
                    // The side that takes the first turn is also started first.
                    let pair = [(base!, names.base, names.head), (head!, names.head, names.base)]
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
                let order = RoundSchedule.baseFirst(round: round, index: index) ? [base!, head!] : [head!, base!]
                let start = monotonicSeconds()
                for side in order {
                    if let error = runGroup(side, round: round, index: index, group: group, duet: nil, core: nil) { throw error }
                }
                let seconds = monotonicSeconds() - start
                groupSeconds.withLock { $0[group] = seconds }
            }
        }
    }

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

    /// Keeps each round's run.json (the first group's stands for a timed round) in
    /// SIDE/rounds/, and the verification's as verify.json; the rounds' folders go.
    private func keepRunRecords(_ side: String, rounds: Int) throws(DriverError) {
        let folder = "\(work)/\(side)"
        try Paths.makeDirectory(folder + "/rounds")
        if Paths.isFile(folder + "/verify/run.json") { try Paths.move(folder + "/verify/run.json", to: folder + "/rounds/verify.json") }
        // A shard's verification by item count: verify/items-N/run.json.
        for part in Paths.entries(folder + "/verify") where Paths.isFile("\(folder)/verify/\(part)/run.json") {
            try Paths.move("\(folder)/verify/\(part)/run.json", to: "\(folder)/rounds/verify-\(part).json")
        }
        Paths.remove(folder + "/verify")
        for round in 1...max(rounds, 1) {
            let directory = "\(folder)/round-\(round)"
            let parts = RoundMerge.parts(of: directory).parts
            if let first = parts.first, Paths.isFile(first + "/run.json") {
                try Paths.move(first + "/run.json", to: "\(folder)/rounds/round-\(round).json")
            }
            Paths.remove(directory)
        }
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
            let text = (outcome.text + shares).replacingOccurrences(of: work, with: final)
            try Paths.write(text, to: work + "/compare.txt")
            try publish(text: text)
            return outcome.status
        } catch {
            Paths.remove(work)
            throw error
        }
    }
}
