import Foundation
import BenchPlatform
import BenchResults
import BenchCompare

/// The command line of `history` (and of scripts/history): the same options and meanings.
package struct HistoryArguments: Equatable {
    package var quick = false
    package var repetitions = 5
    /// Whether --repetitions (or --rounds) was given: it then holds with --quick too.
    package var repetitionsGiven = false
    package var machine: String?
    package var thresholdPercent = 5.0
    package var plot = true
    package var duet = true
    /// Only the commits of the range's first-parent line (a merge is one step).
    package var firstParent = false
    package var positional: [String] = []
    package var buildCommand: String?

    /// Bad arguments, as compare-commits reports them.
    package typealias Problem = CompareCommitsArguments.Problem

    package static func parse(_ arguments: [String]) throws(Problem) -> HistoryArguments {
        var result = HistoryArguments()
        var repetitions = "5", threshold = "5"
        var index = 0
        func value(_ option: String, _ what: String) throws(Problem) -> String {
            guard index + 1 < arguments.count else { throw Problem(message: "\(option) needs \(what)", showsUsage: false) }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quick": result.quick = true
            case "--repetitions", "--rounds":
                repetitions = try value(argument, "a number")
                result.repetitionsGiven = true
            case "--machine": result.machine = try value(argument, "a name")
            case "--threshold": threshold = try value(argument, "a percentage")
            case "--no-plot": result.plot = false
            case "--back-to-back": result.duet = false
            case "--first-parent": result.firstParent = true
            case "--build-command": result.buildCommand = try value(argument, "a path")
            default:
                if argument.hasPrefix("-") && argument != "-" { throw Problem(message: "unknown option '\(argument)'", showsUsage: true) }
                result.positional.append(argument)
            }
            index += 1
        }
        let percent = threshold.hasSuffix("%") ? String(threshold.dropLast()) : threshold
        let parts = percent.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let value = Double(percent) else {
            throw Problem(message: "--threshold expects a percentage, e.g. 5", showsUsage: false)
        }
        result.thresholdPercent = value
        guard let count = CompareCommitsArguments.wholeNumber(repetitions), count >= 1 else {
            throw Problem(message: "--repetitions expects a whole number >= 1, got '\(repetitions)'", showsUsage: false)
        }
        result.repetitions = count
        return result
    }

    package var range: String { positional.first ?? "HEAD~10..HEAD" }
    /// The timed rounds: as given, else 5 (2 with --quick, too few to claim a change).
    package var rounds: Int { repetitionsGiven || !quick ? repetitions : 2 }
    package var scenarios: [String] { Array(positional.dropFirst()) }

    package static let usage = """
        Measures every commit of a range once per machine (as asv does), stores the results by machine and
        commit, finds the commits where a median moved beyond the threshold, says which step between two
        neighbouring commits changed which rows, and draws the history.

        Each commit is built in its own worktree and verified once (every mode, two commits at a time, one
        per core); then rounds run every scenario group as one fresh process per commit, sampling briefly,
        neighbouring commits as duets on one core (which neighbours pair alternates by round), so that a
        step between two commits is measured through the same spells of the machine.

        Usage: scripts/history [options] [RANGE] [SCENARIO ...]
          RANGE              a git revision range, e.g. main~10..main or v1..HEAD (default: the last 10
                             commits of HEAD), or one commit
          --quick            small counts, few samples (default: the whole suite at full size)
          --repetitions N    rounds, each a fresh process per commit and scenario group (default 5;
                             with --quick 2, too few for a step between neighbours to be claimed:
                             a change needs 5 a side); each samples briefly (`run --brief`, where
                             the commit's harness has it). --rounds N is the same option
          --machine NAME     the machine's name (default: hostname -s, or $LAYOUT_BENCH_MACHINE): the name
                             of its folder, 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'
          --threshold PCT    the step detector's threshold (default 5)
          --first-parent     only the commits of the range's first-parent line: a merge is one step
          --back-to-back     run neighbouring commits' processes one after the other, not as duets
          --no-plot          do not draw the history charts
        Commits already stored for this machine (results/history/<machine>/<commit>/samples.csv.gz) are skipped;
        every stored commit is read first as `layout-bench compare` reads results (one refused is an error).
        Commits that do not build, or have no harness, are reported and left out.
        Results: results/history/<machine>/{<commit>/, commits.txt, steps.csv, neighbours.csv,
                 neighbours.txt, report/}
        """
}

/// `history [RANGE] [SCENARIO …]`: every commit of a range measured once per machine, stored by
/// machine and commit, the steps between commits found (scripts/steps.py), each step between
/// neighbouring commits judged as `compare` judges (which rows it changed), and the charts.
///
/// The economy of compare-commits: every commit verifies once (two at a time, one per core, and
/// not again while its binary and the scenarios are the same), then the timed rounds sample
/// briefly, each scenario group one fresh process per commit, and neighbouring commits run as
/// duets on one core: round 1 pairs the 1st and 2nd commit, the 3rd and 4th, …; round 2 the 2nd
/// and 3rd, …, so every neighbouring step is measured side by side every other round.
package final class History: @unchecked Sendable {
    package let arguments: HistoryArguments
    private let logLock = NSLock()
    private var machineBefore: RunMetadata.MachineLoad?
    /// This run's name in each commit it stores (run.json's `history_session`): neighbours of one
    /// session ran in the same rounds, paired by them; neighbours of two did not.
    private let session = "\(utcNow()) \(getpid())"

    struct Commit {
        var hash: String
        var short: String
        var harness: ChildHarness
        var groups: [ScenarioGroup]
        var failed = false
    }

    /// The repository's root, where results/ and .build-commits/ are (nil: the working directory).
    package let root: String?
    private var prefix: String { root.map { $0 + "/" } ?? "" }

    package init(arguments: HistoryArguments, root: String? = nil) {
        self.arguments = arguments
        self.root = root
    }

    package func run() throws(DriverError) -> Int32 {
        let machine = try Self.machine(arguments.machine)
        let commits = try Commits.range(arguments.range, firstParent: arguments.firstParent, in: root)
        guard !commits.isEmpty else { throw DriverError("the range '\(arguments.range)' holds no commits") }
        let store = "\(prefix)results/history/\(machine)"
        // The store's own files are regular files history replaces; anything else there (a FIFO,
        // a symbolic link, a directory) is refused before anything is built.
        for name in Self.storeFiles { try Paths.checkOwnFile("\(store)/\(name)") }
        // Every commit stored earlier is read now, with compare's readers (bounded, strict): a
        // tampered or truncated one is one error before anything is built or measured.
        try StoredCommits.check(store: store)
        // The machine as history found it, before it builds or runs anything (as compare-commits).
        machineBefore = MachineLoad.measure()
        try Paths.makeDirectory(store)
        var failed = 0
        var todo: [Commit] = []
        for hash in commits {
            let short = Commits.short(hash, in: root)
            if Self.isStored(store + "/" + hash) {
                DriverLog.say("\(short): stored, skipped")
                continue
            }
            guard let command = arguments.buildCommand ?? DriverScripts.build else {
                throw DriverError("no scripts/build-commit here: run it from the repository's root")
            }
            let binary: String
            do { binary = try Commits.build(hash, with: command) } catch {
                if !error.isSilent { DriverLog.say(error.description) }
                failed += 1
                continue
            }
            let harness = ChildHarness.probe(binary: binary, directory: ChildHarness.tree(of: binary))
            todo.append(Commit(hash: hash, short: short, harness: harness, groups: groups(harness)))
        }
        if !todo.isEmpty { failed += try measure(todo, store: store) }
        try writeOrder(commits, store: store)
        DriverLog.say("steps (threshold \(percent)%):")
        if let steps = DriverScripts.steps, let python = findOnPath("python3") {
            // The step detector reads the medians this process took from the stored samples with
            // compare's readers, never the samples themselves.
            let medians = "\(store)/.medians.tmp-\(getpid()).csv"
            SignalCleanup.register([Paths.absolute(medians)])
            defer {
                Paths.remove(medians)
                SignalCleanup.unregister([Paths.absolute(medians)])
            }
            try StoredCommits.writeMedians(store: store, to: medians)
            let result = ChildRun(executable: python, arguments: [steps, store, "--medians", medians,
                                                                  "--threshold", "\(arguments.thresholdPercent / 100)"]).run(log: nil)
            try DriverLog.output(result.output)
            if result.status != 0 { throw DriverError("the step detector failed (scripts/steps.py):", details: Array(result.output.split(separator: "\n").map(String.init).suffix(3))) }
        }
        let failedGroups = try judgeNeighbours(store: store)
        var drawn = false
        if arguments.plot, let plot = DriverScripts.plot {
            let result = ChildRun(executable: plot, arguments: ["--out", store + "/report", store]).run(log: nil)
            StandardError.write(result.output)
            if result.status != 0 { DriverLog.say("warning: the history charts could not be drawn") }
            drawn = true
        }
        DriverLog.say("results: \(store) (commits.txt, steps.csv, neighbours.csv\(drawn ? ", report/index.html" : ""))")
        if failed > 0 { throw DriverError("\(failed) commit(s) could not be measured") }
        if failedGroups > 0 { throw DriverError("\(failedGroups) scenario group(s) failed in stored commits (neighbours.txt names them)") }
        return 0
    }

    /// The files history writes in a machine's store besides the commits' folders.
    static let storeFiles = ["commits.txt", "steps.csv", "neighbours.csv", "neighbours.txt"]

    /// The machine's name (`--machine`, else `$LAYOUT_BENCH_MACHINE`, else the host's short name),
    /// the name of a folder of results/history: a name, never a path. Letters, digits, `.`, `_`
    /// and `-`, at most 64, not starting with `.` (no `..`, no hidden folder, nothing empty).
    static func machine(_ given: String?) throws(DriverError) -> String {
        let environment = ProcessInfo.processInfo.environment["LAYOUT_BENCH_MACHINE"]
        let (name, source): (String, String)
        if let given {
            (name, source) = (given, "--machine")
        } else if let environment {
            (name, source) = (environment, "LAYOUT_BENCH_MACHINE")
        } else {
            return machineName(fromHost: ProcessInfo.processInfo.hostName)
        }
        guard isMachineName(name) else {
            throw DriverError("\(source) \(quotedForMessage(name)): a machine's name is the name of its folder in results/history: "
                + "1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        return name
    }

    static func isMachineName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The host's short name as a machine name (what does not fit a name is left out).
    static func machineName(fromHost host: String) -> String {
        let short = String(host.split(separator: ".").first ?? "")
        let kept = String(String.UnicodeScalarView(short.unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }).prefix(64))
        return kept.isEmpty ? "machine" : kept
    }

    /// The threshold as given: "5", "2.5".
    private var percent: String {
        let value = arguments.thresholdPercent
        return value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    static func isStored(_ directory: String) -> Bool {
        Paths.isFile(directory + "/samples.csv.gz") || Paths.isFile(directory + "/samples.csv")
    }

    /// The groups of the scenarios chosen (all of the commit's own by default).
    private func groups(_ harness: ChildHarness) -> [ScenarioGroup] {
        RoundSchedule.groups(listing: HarnessListing.entries(of: harness) ?? [], chosen: arguments.scenarios, expand: !arguments.quick)
    }

    /// Which commits (indices) share a duet in `round`: neighbours, pairs shifted by one every
    /// other round; a commit without a partner runs alone.
    package static func pairs(count: Int, round: Int) -> [[Int]] {
        var units: [[Int]] = []
        var index = 0
        if round % 2 == 0 && count > 1 {
            units.append([0])
            index = 1
        }
        while index < count {
            units.append(index + 1 < count ? [index, index + 1] : [index])
            index += 2
        }
        return units
    }

    /// Verifies, times and stores `commits`; returns how many failed.
    private func measure(_ input: [Commit], store: String) throws(DriverError) -> Int {
        var commits = input
        let work = "\(store)/.measuring.tmp-\(getpid())"
        Paths.remove(work)
        try Paths.makeDirectory(work)
        SignalCleanup.register(tree: Paths.absolute(work))
        defer {
            Paths.remove(work)
            SignalCleanup.unregister(tree: Paths.absolute(work))
        }
        let runOptions = arguments.quick ? ["--quick"] : []
        // Verification once per commit, two at a time, one per core.
        let verifying = commits.indices.filter { commits[$0].harness.verifiesApart }
        if !verifying.isEmpty { DriverLog.say("verifying \(verifying.count) commits, two at a time ...") }
        var start = 0
        while start < verifying.count {
            let batch = Array(verifying[start..<min(start + 2, verifying.count)])
            let results = Locked([DriverError?](repeating: nil, count: batch.count))
            concurrently(batch.enumerated().map { slot, index in { [self, commits] in
                let error = verify(commits[index], runOptions: runOptions, work: work)
                results.withLock { $0[slot] = error }
            } })
            for (slot, index) in batch.enumerated() {
                if let error = results.withLock({ $0[slot] }) {
                    DriverLog.say(error.description)
                    commits[index].failed = true
                }
            }
            start += 2
        }
        let rounds = arguments.rounds
        for round in 1...rounds {
            let roundStart = monotonicSeconds()
            let live = commits.indices.filter { !commits[$0].failed }
            if live.isEmpty { break }
            // Every commit's code on new pages each round (CodePlacement): two commits whose
            // code is alike would otherwise differ by where their files' pages happen to sit.
            // The order of the copies alternates by round, as in compare-commits (whose A/A
            // leant one way while the base was always copied first): oldest first in odd rounds.
            let copied = RoundSchedule.copyOrder(live, round: round)
            let copies = try CodePlacement.copies(forRound: round, of: copied.map { (commits[$0].hash, commits[$0].harness.binary) },
                                                  under: Paths.absolute(work) + "/code")
            let binaries = Dictionary(uniqueKeysWithValues: zip(copied, copies))
            // Each unit: a pair of neighbours (or one commit) on one group, a duet on one core.
            var units: [(commits: [Int], group: ScenarioGroup)] = []
            for pair in Self.pairs(count: live.count, round: round) {
                let members = pair.map { live[$0] }
                var order: [ScenarioGroup] = []
                for member in members.reversed() { order += commits[member].groups }
                for group in order.uniqued() {
                    let having = members.filter { commits[$0].groups.contains(group) }
                    if arguments.duet && having.count == 2 && having.allSatisfy({ commits[$0].harness.duet != .none }) {
                        units.append((having, group))
                    } else {
                        for member in having { units.append(([member], group)) }
                    }
                }
            }
            DriverLog.say("round \(round) of \(rounds): \(live.count) commits, \(units.count) processes or duets")
            let pin = ProcessInfo.processInfo.activeProcessorCount >= 2
            let failures = Locked([DriverError?](repeating: nil, count: commits.count))
            var next = 0
            while next < units.count {
                let batch = Array(units[next..<min(next + 2, units.count)].enumerated())
                var bodies: [@Sendable () -> Void] = []
                for (slot, unit) in batch {
                    let index = next + slot + 1
                    let core = pin ? slot : nil
                    var duet: [String?] = unit.commits.map { _ in nil }
                    var started = Array(unit.commits.indices)
                    if unit.commits.count == 2 {
                        let barrier = Paths.absolute("\(work)/duet/r\(round)-u\(index)")
                        try Paths.makeDirectory(barrier)
                        let first = RoundSchedule.baseFirst(round: round, index: index)
                        duet = [first ? "\(barrier):1:2" : "\(barrier):2:1", first ? "\(barrier):2:1" : "\(barrier):1:2"]
                        // The commit that takes the first turn is also started first.
                        if !first { started.reverse() }
                    }
                    for position in started {
                        let member = unit.commits[position]
                        let commit = commits[member]
                        let binary = binaries[member] ?? commit.harness.binary
                        let spec = duet[position]
                        let group = unit.group
                        bodies.append { [self] in
                            let timed = TimedGroup(
                                binary: binary, harness: commit.harness, group: group, runOptions: runOptions,
                                verified: commit.harness.verifiesOnce && (round > 1 || commit.harness.verifiesApart), duet: spec, core: core)
                            if let error = timed.run(
                                out: Paths.absolute("\(work)/\(commit.hash)/round-\(round)/g-\(index)"), log: "\(work)/\(commit.hash).log",
                                lock: logLock, failure: "layout-bench run failed at \(commit.short) in round \(round) on") {
                                failures.withLock { $0[member] = error }
                            }
                        }
                    }
                }
                concurrently(bodies)
                Paths.remove("\(work)/duet")
                for member in commits.indices where !commits[member].failed {
                    if let error = failures.withLock({ $0[member] }) {
                        DriverLog.say(error.description)
                        commits[member].failed = true
                    }
                }
                next += 2
            }
            DriverLog.say("round \(round) took \(minutesSeconds(Int(monotonicSeconds() - roundStart)))")
        }
        // Each commit's rounds merged into its folder of the store, renamed into place.
        var failed = 0
        for commit in commits {
            if commit.failed {
                failed += 1
                continue
            }
            // Interrupted, the staging folder goes too: a commit is stored whole or not at all.
            let staging = "\(store)/\(commit.hash).tmp-\(getpid())"
            Paths.remove(staging)
            SignalCleanup.register(tree: Paths.absolute(staging))
            defer { SignalCleanup.unregister(tree: Paths.absolute(staging)) }
            do {
                // Two processes at a time, one per core (a duet's two share one): the load they make
                // is their own, and the rounds pair neighbours, as compare-commits' do.
                let load = RoundMerge.Load(before: machineBefore, ownProcesses: min(2, ProcessInfo.processInfo.activeProcessorCount))
                try RoundMerge.merge(rounds: (1...rounds).map { "\(work)/\(commit.hash)/round-\($0)" }, into: staging, load: load)
                var record = try JSONFile.read(RunManifest.self, staging + "/run.json")
                record.historySession = session
                try JSONFile.write(record, to: staging + "/run.json")
                if Paths.isFile("\(work)/\(commit.hash).log") { try Paths.move("\(work)/\(commit.hash).log", to: staging + "/run.log") }
                try Paths.replace("\(store)/\(commit.hash)", with: staging)
            } catch {
                Paths.remove(staging)
                DriverLog.say(error.description)
                failed += 1
            }
        }
        return failed
    }

    private func verify(_ commit: Commit, runOptions: [String], work: String) -> DriverError? {
        let marker = VerifiedMarker.path(root: root, commit: commit.hash, binary: commit.harness.binary,
                                         scenarios: arguments.scenarios, options: runOptions, directory: commit.harness.directory)
        if let marker, Paths.exists(marker) {
            DriverLog.say("\(commit.short): verified earlier on these scenarios (\(marker))")
            return nil
        }
        let log = "\(work)/\(commit.hash)-verify.log"
        let child = ChildRun(
            executable: commit.harness.binary,
            arguments: ["run"] + arguments.scenarios + runOptions + ["--verify-only", "--repetitions", "1", "--out", Paths.absolute("\(work)/\(commit.hash)/verify")],
            directory: commit.harness.directory)
        if child.run(log: log).status != 0 {
            return DriverError("\(commit.short) failed its verification:",
                               details: lastLines(of: log, 5) { $0.contains("FAILED") || $0.contains("error") })
        }
        VerifiedMarker.write(marker)
        return nil
    }

    /// commits.txt: every stored commit, oldest first by commit time.
    private func writeOrder(_ range: [String], store: String) throws(DriverError) {
        var order = range.filter { Self.isStored("\(store)/\($0)") }
        for name in Paths.entries(store) where !order.contains(name) && !name.contains(".tmp") && Self.isStored("\(store)/\(name)") {
            order.append(name)
        }
        let timed = order.enumerated().map { (Commits.time($0.element, in: root), $0.offset, $0.element) }
        let sorted = timed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
        try Paths.write(sorted.map { $0 + "\n" }.joined(), to: store + "/commits.txt")
    }

    /// Each step between neighbouring stored commits judged as compare-commits' timed track judges
    /// its two sides (time at the threshold given, and peak_rss):
    /// neighbours.csv (base, head and the changed rows) and a line per step that changed rows.
    /// A group a stored commit's failures.csv names is `failed` in both steps beside it, never a
    /// quiet step; returns how many such commit × group there are.
    private func judgeNeighbours(store: String) throws(DriverError) -> Int {
        var failedGroups = Set<String>()
        let order = ((try? Paths.read(store + "/commits.txt")) ?? "").split(separator: "\n").map(String.init)
        var csv = "base,head,verdict,scenario,mode,items,operation,metric,base_median,head_median,ratio\n"
        var lines: [String] = []
        let metrics = ["--threshold", "\(arguments.thresholdPercent)"] + CompareCommitsArguments.timedMetrics
        // Each stored commit is read once: the head of one step is the base of the next.
        var previous: (commit: String, results: ResultSet)?
        func results(_ commit: String) throws(DriverError) -> ResultSet {
            if let previous, previous.commit == commit { return previous.results }
            do { return try ResultSet.load("\(store)/\(commit)") } catch { throw DriverError(error.description) }
        }
        for index in order.indices.dropFirst() {
            let base = order[index - 1], head = order[index]
            let sessions = [base, head].map { (try? JSONFile.read(RunManifest.self, "\(store)/\($0)/run.json"))?.historySession }
            let paired = sessions[0] != nil && sessions[0] == sessions[1]
            // Stored results are judged as compare judges them, or not at all: a step whose sides
            // cannot be read is an error, never a step left out. Two neighbours that share no row
            // (every scenario renamed) are said to, as compare says it.
            let outcome: Judge.Outcome
            do {
                let baseResults = try results(base), headResults = try results(head)
                previous = (head, headResults)
                outcome = try Judge.run(base: baseResults, head: headResults, csv: nil, arguments: metrics, unpaired: !paired)
            } catch where error.isNothingInCommon {
                lines.append("\(base.prefix(7)) → \(head.prefix(7)): no row in common, nothing to compare")
                continue
            }
            let changed = outcome.report.rows.filter { $0.verdict == .regressed || $0.verdict == .improved }
            for row in changed {
                csv += [base.prefix(7), head.prefix(7), Substring(row.verdict!.rawValue), Substring(row.key.scenario), Substring(row.key.mode),
                        Substring(String(row.key.items)), Substring(row.key.operation), Substring(row.key.metric),
                        Substring(String(row.baseMedian)), Substring(String(row.headMedian)), Substring(String(format: "%.4f", row.ratio))]
                    .map { $0.contains(",") ? "\"\($0)\"" : String($0) }.joined(separator: ",") + "\n"
            }
            let regressed = changed.filter { $0.verdict == .regressed }, improved = changed.filter { $0.verdict == .improved }
            let undecided = outcome.report.rows.filter { $0.verdict == .noisy }.count
            let failed = outcome.report.failed
            for entry in failed {
                csv += [String(base.prefix(7)), String(head.prefix(7)), Verdict.failed.rawValue, entry.group.scenario, entry.group.mode,
                        String(entry.group.items), "", "", "", "", ""].map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",") + "\n"
            }
            for entry in failed {
                if entry.base != nil { failedGroups.insert(base + "\u{1F}" + entry.group.label) }
                if entry.head != nil { failedGroups.insert(head + "\u{1F}" + entry.group.label) }
            }
            if !changed.isEmpty || undecided > 0 || !failed.isEmpty {
                func list(_ rows: [RowComparison]) -> String {
                    rows.prefix(5).map { row in
                        let key = row.key
                        let named = [key.scenario, key.mode, String(key.items), key.operation, key.metric == "time" ? "" : key.metric]
                        return named.filter { !$0.isEmpty }.joined(separator: " ") + " ×\(String(format: "%.3f", row.ratio))"
                    }
                        .joined(separator: "; ") + (rows.count > 5 ? "; …" : "")
                }
                var line = "\(base.prefix(7)) → \(head.prefix(7)):"
                if !failed.isEmpty {
                    line += " \(failed.count) failed (" + failed.prefix(5).map { "\($0.group.label): \($0.sides)" }.joined(separator: "; ")
                        + (failed.count > 5 ? "; …" : "") + ")"
                }
                if !regressed.isEmpty { line += " \(regressed.count) regressed (\(list(regressed)))" }
                if !improved.isEmpty { line += " \(improved.count) improved (\(list(improved)))" }
                if undecided > 0 { line += " \(undecided) undecided (noisy, or fewer than 5 repetitions a side)" }
                if !paired { line += " [measured by different runs of history: not paired rounds]" }
                lines.append(line)
            }
        }
        try Paths.write(csv, to: store + "/neighbours.csv")
        let text = "steps between neighbouring commits (judged as compare-commits judges: time \(percent)%, peak_rss as compare's default):\n"
            + (lines.isEmpty ? "  none changed a row\n" : lines.map { "  " + $0 + "\n" }.joined())
        try Paths.write(text, to: store + "/neighbours.txt")
        try DriverLog.output(text)
        return failedGroups.count
    }
}
