import BenchStatistics
import Foundation
import BenchPlatform
import BenchResults
import BenchWorkloads

/// An option of a run out of its range (`RunSession.repetitionProblem`): one line for the user.
package struct RunOptionError: Error, Sendable, CustomStringConvertible {
    package var option: String
    package var message: String

    package var description: String { message }
}

/// One `layout-bench run`: metadata, several independent repetitions of the interleaved
/// measurement, the optional callgrind pass, and the three result files written atomically into
/// the results directory.
///
/// **Repetitions.** Every scenario × items group is measured in `repetitions` independent
/// repetitions, by default each in a fresh process of this executable (`layout-bench child`):
/// a new heap, address-space layout and page placement, fresh fixtures and state, and warm-up
/// again. The repetitions run one after another over the whole suite, every other one in reverse
/// order, so that slow drift of the machine spreads over all groups. The first repetition verifies
/// every mode; a mode that fails is left out of the later ones and gets no rows. Summary
/// intervals come from the variation between repetitions (`RunToRunInterval`).
package struct RunSession {
    package struct Result {
        package var directory: String
        package var failures: [ModeFailure]
    }

    /// Where repetitions run.
    package enum Isolation: String, Sendable {
        /// Each repetition in a fresh child process of the executable (the default of `run`).
        case processes
        /// Each repetition as a round in this process, with fresh fixtures and state (tests).
        case inProcess = "in-process"
    }

    package var plans: [BenchmarkPlan]
    package var quick: Bool
    package var instructions: Bool
    /// False when an earlier run of this executable already verified these scenarios (the timed
    /// rounds of `scripts/compare-commits`): every repetition only times, and counts no allocations.
    package var verifies = true
    /// Only build and verify every mode, in one repetition: nothing timed or counted, so the two
    /// commits of `scripts/compare-commits` can verify at once, one per core, before their timed
    /// rounds (`run --verify-only`). The results hold no samples.
    package var verifyOnly = false
    /// A repetition's child that writes no progress (`ChildProgressLog`: a new step of a group)
    /// for this long is stopped and the mode it was in fails, naming the step: a layout that
    /// loops forever ends its mode, not the run (`--stall-timeout`).
    package var stallSeconds = RunSession.defaultStallSeconds
    package static let defaultStallSeconds = 600.0
    /// How many child processes verify at once, before the timed repetitions (`--jobs`).
    package var verificationJobs = RunSession.defaultJobs
    /// The cores this process may use, at most 8 (each child holds a whole fixture).
    package static var defaultJobs: Int { Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, 8)) }
    /// Samples each operation by `SamplingPolicy.brief` instead of `.repetition` (the timed rounds
    /// of `scripts/compare-commits`).
    package var brief = false
    /// The duet partner of this run (`run --duet`, the timed rounds of `compare-commits`): each
    /// group meets it before sampling and takes sampling turns with it (`DuetBarrier`, `DuetTurns`).
    package var duet: DuetBarrier?
    package var directory: String
    /// The number written in the `repetition` column for the first repetition.
    package var repetition: Int
    package var repetitions: Int
    package var isolation: Isolation
    package var executable: String
    package var progress: (String) -> Void
    private var metadata: RunMetadata
    /// Where the three files are staged and then moved into place as a set.
    private let results: ResultsDirectory

    package init(
        plans: [BenchmarkPlan], quick: Bool, instructions: Bool, outDirectory: String?, repetition: Int,
        repetitions: Int? = nil, isolation: Isolation = .inProcess,
        commandLine: [String], executable: String, progress: @escaping (String) -> Void
    ) throws {
        // Before anything is created: a results directory staged for a run that cannot start
        // would be left behind.
        if let problem = Self.repetitionProblem(first: repetition, count: repetitions) { throw problem }
        try TemporaryDirectory.check()
        self.plans = plans
        self.quick = quick
        self.instructions = instructions
        self.repetition = repetition
        self.repetitions = repetitions ?? (quick ? Self.quickRepetitions : Self.defaultRepetitions)
        self.isolation = isolation
        self.executable = Self.resolvedExecutable(executable)
        self.progress = progress
        let now = Date()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        var metadata = RunMetadata.begin(runID: "", commandLine: commandLine)
        let commit = metadata.source.commit
        metadata.runID = "\(stamp)-\(commit)"
        self.metadata = metadata
        self.directory = outDirectory ?? "results/\(stamp)-\(commit)"
        // What killed runs left in $TMPDIR (their children's input and output, callgrind's dumps).
        TemporaryFiles.sweep()
        results = try ResultsDirectory(target: directory, option: outDirectory == nil ? "results directory" : "--out")
    }

    /// Repetitions of a full run and of a `--quick` one.
    package static let defaultRepetitions = 5
    package static let quickRepetitions = 2
    /// The most repetitions a run takes (`--repetitions`), and the largest number of its first
    /// (`--repetition`, for scripts): far beyond any real run, and small enough that numbering
    /// the repetitions (first + index) can never overflow.
    package static let maxRepetitions = 1_000_000
    package static let maxRepetitionNumber = 1_000_000_000

    /// Why a run cannot number its repetitions from `first` or run `count` of them (nil: the
    /// default count), in the words of the options; nil when it can.
    package static func repetitionProblem(first: Int, count: Int?) -> RunOptionError? {
        if let count, !(1...maxRepetitions).contains(count) {
            return RunOptionError(option: "--repetitions", message: "--repetitions expects a count from 1 to \(maxRepetitions), got \(count)")
        }
        if !(1...maxRepetitionNumber).contains(first) {
            return RunOptionError(
                option: "--repetition",
                message: "--repetition expects the first repetition's number, from 1 to \(maxRepetitionNumber), got \(first)")
        }
        return nil
    }
    /// Repetitions that all start within this many seconds get a note that their intervals are too
    /// narrow: repetitions seconds apart share the machine's spell, so another run's median falls
    /// outside their interval far more often than with minutes between them (docs/methodology.md).
    static let shortRepetitionSpan: Double = 60

    package mutating func run() throws -> Result {
        let modeCount = BenchmarkRunner(plans: plans, options: .init(policy: .quick)).modeCount
        // Named after the executable that was run: a user's `custom-layout-bench` says so.
        let name = metadata.commandLine.first.map { URL(fileURLWithPath: $0).lastPathComponent }.flatMap { $0.isEmpty ? nil : $0 } ?? "layout-bench"
        progress("\(name): \(plans.count) scenarios, \(modeCount) scenario × mode × items"
                 + (quick ? " (quick)" : "") + ", \(repetitions) repetitions (\(isolation.rawValue)) → \(directory)")
        // A brief or verify-only run (compare-commits' rounds, one per scenario group) reports no
        // medians a reader would correct by the overhead, and measuring it costs every process.
        if !brief && !verifyOnly { metadata.harnessOverhead = HarnessOverhead.measure() }
        metadata.scenarioLoads = plans.compactMap { plan in
            plan.loadSeconds.map { RunMetadata.ScenarioLoad(scenario: plan.scenario.name, file: plan.scenario.file, seconds: $0) }
        }
        metadata.repetitions = repetitions
        metadata.isolation = isolation.rawValue
        let policy: SamplingPolicy = quick ? .quick : (brief ? .brief : .repetition)
        var outcome = BenchmarkRunner.Outcome()
        // Verification times nothing, so in child processes it runs on every core at once,
        // before the first timed repetition; the repetitions then time one process at a time.
        let verifiesApart = verifies && isolation == .processes
        var observed: [MetricSeries] = []
        if verifiesApart {
            let verificationStart = MonotonicClock.now()
            let verification = try verificationInChildren(groups: groups(without: []), policy: policy)
            outcome.failures += verification.failures
            observed = verification.series
            progress("verification took " + BenchmarkRunner.duration(Double(MonotonicClock.now() &- verificationStart) / 1e9))
        }
        let firstStart = MonotonicClock.now()
        var starts: [Double] = []
        for index in 0..<(verifyOnly ? (verifiesApart ? 0 : 1) : repetitions) {
            let number = repetition + index
            // Groups left after the failures so far, every other repetition in reverse order.
            var selected = groups(without: Set(outcome.failures.map(\.key)))
            if index % 2 == 1 { selected.reverse() }
            if selected.isEmpty { break }
            starts.append(Double(MonotonicClock.now() &- firstStart) / 1e9)
            let first = index == 0 && verifies
            let verifiesHere = first && !verifiesApart
            progress("repetition \(index + 1) of \(repetitions)" + (verifiesHere ? " (verifies every mode)" : ""))
            // Allocation counts repeat exactly from process to process; the first repetition counts them.
            var repetitionPolicy = policy
            repetitionPolicy.countsAllocations = policy.countsAllocations && first
            var options = BenchmarkRunner.Options(
                policy: repetitionPolicy, verify: verifiesHere, verifyOnly: verifyOnly, repetition: number,
                coverage: outcome.coverage, progress: progress)
            options.duet = duet
            let repetitionStart = MonotonicClock.now()
            let result: BenchmarkRunner.Outcome
            switch isolation {
            case .inProcess:
                result = BenchmarkRunner(plans: selected, options: options).run()
            case .processes:
                result = try repetitionInChildren(
                    groups: selected, policy: repetitionPolicy, verify: verifiesHere, verifyOnly: verifyOnly, number: number,
                    coverage: outcome.coverage, pass: "repetition \(index + 1)", progress: progress)
            }
            outcome.series += result.series
            outcome.failures += result.failures
            // The first repetition decides which traces are timed on a prefix; the others follow it.
            if index == 0 { outcome.coverage = result.coverage }
            progress("repetition \(index + 1) of \(repetitions) took "
                     + BenchmarkRunner.duration(Double(MonotonicClock.now() &- repetitionStart) / 1e9))
        }
        // What the verification observed belongs to the first timed repetition: only modes that
        // gave that repetition rows get it (one that crashed there has none, as before), and only
        // where it did not observe the same itself (a workload that observes without verifying
        // writes those series in every repetition).
        let firstNumber = repetition
        let timedFirst = outcome.series.filter { $0.repetition == firstNumber }
        let firstKeys = Set(timedFirst.map(\.key))
        let firstModes = Set(timedFirst.map { FailedGroup(scenario: $0.scenario, mode: $0.mode, items: $0.items) })
        outcome.series += observed.filter { series in
            !firstKeys.contains(series.key)
                && (verifyOnly || firstModes.contains(FailedGroup(scenario: series.scenario, mode: series.mode, items: series.items)))
        }
        metadata.repetitionStartSeconds = starts
        if !quick, let last = starts.last, starts.count > 1, last < Self.shortRepetitionSpan {
            progress("note: the repetitions started within \(Int(last.rounded(.up))) s of each other; intervals from "
                     + "repetitions this close in time miss slower swings of the machine and are too narrow "
                     + "(docs/methodology.md, \"Intervals\")")
        }
        var profiles: [FunctionProfileRow] = []
        if instructions {
            outcome.series += instructionSeries(failures: &outcome.failures, coverage: outcome.coverage, profiles: &profiles)
        }
        metadata.coverage = outcome.coverage
        metadata.finish()
        try write(outcome.series, profiles: profiles, failures: outcome.failures)
        return Result(directory: directory, failures: outcome.failures)
    }

    /// The run's scenario × items groups, one plan each, in the order of the plans, without the
    /// modes that `failed`.
    private func groups(without failed: Set<FailedGroup>) -> [BenchmarkPlan] {
        plans.flatMap { plan in plan.itemCounts.compactMap { items -> BenchmarkPlan? in
            var group = plan
            group.itemCounts = [items]
            group.modes = plan.modes.filter { mode in
                !failed.contains(FailedGroup(scenario: plan.scenario.name, mode: mode.rawValue, items: items))
            }
            return group.modes.isEmpty ? nil : group
        } }
    }

    /// Verifies every mode of `groups` before the first timed repetition: one child process per
    /// group, `jobs` of them at once (the largest groups first, so that the last to start is a
    /// small one). Nothing is timed there, so the cores share the work without touching a figure;
    /// a child that dies or stalls fails its mode as in a repetition. Returns the failures and what
    /// the checks observed (`GroupMeasurement`, `verifyOnly`), numbered as the first repetition.
    private func verificationInChildren(groups: [BenchmarkPlan], policy: SamplingPolicy) throws -> BenchmarkRunner.Outcome {
        let jobs = Swift.max(1, Swift.min(verificationJobs, groups.count))
        progress("verification: every mode of \(groups.count) groups, \(jobs) child process\(jobs == 1 ? "" : "es") at a time")
        let order = groups.indices.sorted { groups[$0].itemCounts[0] > groups[$1].itemCounts[0] }
        let start = MonotonicClock.now()
        struct Shared {
            var next = 0
            var done = 0
            var results: [BenchmarkRunner.Outcome?]
            var error: (any Error)?
        }
        let shared = Locked(Shared(results: Array(repeating: nil, count: groups.count)))
        // The workers' threads share this session (read only) and its progress, which they call
        // only under the lock.
        struct Context: @unchecked Sendable {
            let session: RunSession
            let progress: (String) -> Void
        }
        let context = Context(session: self, progress: progress)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = shared.withLock({ state -> Int? in
                guard state.error == nil, state.next < order.count else { return nil }
                state.next += 1
                return order[state.next - 1]
            }) {
                do {
                    let result = try context.session.repetitionInChildren(
                        groups: [groups[index]], policy: policy, verify: true, verifyOnly: true,
                        number: context.session.repetition, coverage: [], pass: "verification",
                        progress: { line in shared.withLock { _ in context.progress(line) } })
                    let elapsed = BenchmarkRunner.duration(Double(MonotonicClock.now() &- start) / 1e9)
                    shared.withLock { state in
                        state.results[index] = result
                        state.done += 1
                        context.progress("verification: \(state.done) of \(groups.count) groups (\(groups[index].scenario.name) "
                                         + "\(groups[index].itemCounts[0]) items), \(elapsed) elapsed")
                    }
                } catch {
                    shared.withLock { state in state.error = state.error ?? error }
                }
            }
        }
        let state = shared.withLock { $0 }
        if let error = state.error { throw error }
        var outcome = BenchmarkRunner.Outcome()
        for result in state.results.compactMap({ $0 }) {
            outcome.series += result.series
            outcome.failures += result.failures
        }
        return outcome
    }

    /// One repetition in child processes of this executable. A child writes each group's outcome
    /// as it ends and records what it is doing (`ChildProgressLog`); when it dies (a layout that
    /// traps, say), the groups it finished keep their rows, the mode it was on fails with one line
    /// naming the scenario, mode, items, signal and step (every mode of the group when the modes
    /// were sampled together or its fixture was being set up), and a new child runs the rest. A
    /// run without a crash starts one child, as it always did. `pass` names the round in those
    /// progress lines ("repetition 2", "verification").
    private func repetitionInChildren(
        groups: [BenchmarkPlan], policy: SamplingPolicy, verify: Bool, verifyOnly: Bool, number: Int,
        coverage: [OperationCoverage], pass: String, progress: (String) -> Void
    ) throws -> BenchmarkRunner.Outcome {
        // Seeded hashing gives every process its own Dictionary and Set growth: allocation
        // counts and the times of keyed modes then differ from process to process for no
        // reason a comparison cares about. The same seed in every child removes that spread
        // (the callgrind children already run so).
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        // A child that traps prints the runtime's one-line reason, not a backtrace of a hundred
        // lines before our error line (set SWIFT_BACKTRACE to get it back).
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let progressFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("layout-bench-progress-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))").path
        SignalCleanup.register([progressFile])
        defer {
            try? FileManager.default.removeItem(atPath: progressFile)
            SignalCleanup.unregister([progressFile])
        }
        var result = BenchmarkRunner.Outcome()
        var pending = groups
        func isGroup(_ plan: BenchmarkPlan, _ scenario: String, _ items: Int) -> Bool {
            plan.scenario.name == scenario && plan.itemCounts == [items]
        }
        while !pending.isEmpty {
            let request = ChildRequest.repetition(RepetitionRequest(
                plans: pending.map(PlanSelection.init(plan:)), policy: policy, verify: verify,
                verifyOnly: verifyOnly, repetition: number, coverage: coverage, progressFile: progressFile,
                duet: duet?.specification))
            let watch = ProgressWatch(path: progressFile, limitSeconds: stallSeconds)
            let child = try runChildProcessReportingSignal(
                executable: executable, arguments: ["child"], environment: environment,
                input: try request.encoded(), passesErrorThrough: true, stalled: watch.isStalled)
            for line in child.output.split(separator: "\n") {
                guard let group = try? JSONDecoder().decode(GroupOutcome.self, from: Data(line.utf8)),
                      let index = pending.firstIndex(where: { isGroup($0, group.scenario, group.items) }) else { continue }
                result.series += group.outcome.series
                result.failures += group.outcome.failures
                result.coverage += group.outcome.coverage
                pending.remove(at: index)
            }
            if pending.isEmpty { break }
            if !child.signaled && child.status == ChildProgressLog.unwritableStatus {
                throw TemporaryDirectory.unwritable(what: "a child process could not write its output there")
            }
            // The child ended before it finished: find where, fail that, and run the rest anew.
            guard child.status != 0 || child.signaled, let record = ChildProgressLog.lastRecord(path: progressFile),
                  let index = pending.firstIndex(where: { isGroup($0, record.scenario, record.items) }) else {
                throw RepetitionFailure(repetition: number, status: child.status, output: String(child.output.suffix(2000)))
            }
            let plan = pending[index]
            let how = watch.stalled
                ? "made no progress for \(Self.seconds(stallSeconds)) (--stall-timeout) and was stopped"
                : child.signaled
                ? "died (signal \(child.status), \(Self.signalName(child.status)))" : "exited with status \(child.status)"
            if record.sampledTogether == true && plan.modes.count > 1 {
                // The modes were sampled together (in turns), so which one ended the child is not
                // known: the next child samples each of them alone, and only the one that ends it
                // again fails; the others' rows land.
                let alone = plan.modes.map { mode in
                    var single = plan
                    single.modes = [mode]
                    return single
                }
                pending.replaceSubrange(index...index, with: alone)
                progress("\(pass): the child process \(how) in \(plan.scenario.name) at \(record.items) items "
                         + "while \(record.doing), with modes \(plan.modeNames.joined(separator: ", ")) sampled together; "
                         + "a new child samples each of them alone")
                continue
            }
            let modes = record.mode.map { mode in plan.modeNames.filter { $0 == mode } } ?? plan.modeNames
            guard !modes.isEmpty else {
                throw RepetitionFailure(repetition: number, status: child.status, output: String(child.output.suffix(2000)))
            }
            for mode in modes {
                result.failures.append(ModeFailure(
                    scenario: plan.scenario.name, mode: mode, items: record.items,
                    message: "\(plan.scenario.name): mode \(mode) at \(record.items) items: the child process \(how) while "
                        + "\(record.doing) (layout \(plan.scenario.layoutKind), workload \(plan.scenario.workload.kind)); it gets no rows",
                    step: record.step ?? .build, check: watch.stalled ? .stall : .crash, operation: record.operation ?? ""))
            }
            pending[index].modes.removeAll { modes.contains($0.rawValue) }
            if pending[index].modes.isEmpty { pending.remove(at: index) }
            progress("\(pass): the child process \(how) in \(plan.scenario.name) at \(record.items) items, "
                     + "mode " + modes.joined(separator: ", ") + ", while \(record.doing)"
                     + (pending.isEmpty ? "" : "; a new child runs the remaining \(pending.count) groups"))
        }
        return result
    }

    /// "600 s", "2.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }

    /// Whether a child's progress file has stopped growing for longer than the limit.
    final class ProgressWatch {
        let path: String
        let limit: UInt64
        private var size = -1
        private var since = MonotonicClock.now()
        private(set) var stalled = false

        init(path: String, limitSeconds: Double) {
            self.path = path
            self.limit = UInt64(min(limitSeconds, 1e9) * 1e9)
        }

        func isStalled() -> Bool {
            var info = stat()
            let current = stat(path, &info) == 0 ? Int(info.st_size) : 0
            let now = MonotonicClock.now()
            if current != size {
                size = current
                since = now
                return false
            }
            if now &- since > limit { stalled = true }
            return stalled
        }
    }

    /// The name of a signal that can end a child (the number alone otherwise).
    static func signalName(_ number: Int32) -> String {
        let names: [(Int32, String)] = [
            (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"), (SIGABRT, "SIGABRT"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"),
            (SIGSEGV, "SIGSEGV"), (SIGKILL, "SIGKILL"), (SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP"),
            (SIGPIPE, "SIGPIPE"), (SIGSYS, "SIGSYS"), (SIGXCPU, "SIGXCPU"),
        ]
        return names.first { $0.0 == number }?.1 ?? "signal \(number)"
    }

    /// A repetition's child process that exited without an outcome.
    struct RepetitionFailure: Error, CustomStringConvertible {
        var repetition: Int
        var status: Int32
        var output: String

        var description: String { "repetition \(repetition): the child process exited with status \(status): \(output)" }
    }

    // MARK: Instructions

    /// What the callgrind pass writes per operation: the instruction count and, from the cache
    /// simulation, the cycle estimate and the misses (`CacheCounts`).
    static let callgrindMetrics: [Metric] = [.instructions, .estimatedCycles, .l1Misses, .llMisses]

    /// The split of a self-sizing operation's instructions (docs/csv.md), from the inclusive
    /// instructions of the functions that mark each part (`layoutbench_…`, never inlined): shaping,
    /// breaking (ICU's opportunities and the filling of lines), the rest of the cell measurements
    /// (the solve) and what lies outside them (the height cache, the table). Empty when the
    /// operation measures no cell.
    static func selfSizingSplit(_ profile: CallgrindProfile, instructions: Double) -> [(Metric, Double)] {
        func inclusive(_ name: String) -> Double { profile.functions[name]?.inclusive ?? 0 }
        let cells = inclusive("layoutbench_cell_measurement") + inclusive("layoutbench_cell_measurement_of_content")
        guard cells > 0 else { return [] }
        let shaping = inclusive("layoutbench_text_shaping")
        let breaking = inclusive("layoutbench_text_breaking") + inclusive("layoutbench_text_filling")
        return [(.shapingInstructions, shaping), (.breakingInstructions, breaking),
                (.solveInstructions, max(0, cells - shaping - breaking)), (.cacheInstructions, max(0, instructions - cells))]
    }
    /// Functions kept per operation in profiles.csv.gz: the most expensive by self and by inclusive
    /// instructions (enough to name where a regression went, small enough for megabytes per run).
    static let keptFunctions = 25

    /// Re-runs every scenario × mode × items that succeeded, at the counts of
    /// `BenchmarkPlan.instructionCounts` (every count named with `--items`, else the sweep's up to
    /// `BenchmarkPlan.instructionItemLimit`; a note names the counts left out and why), in a child
    /// process under callgrind (a typed `ChildRequest` on its standard input) and turns its
    /// labelled dumps into `instructions` series (`unsupported` without valgrind). Modes that
    /// failed get no rows.
    private func instructionSeries(
        failures: inout [ModeFailure], coverage: [OperationCoverage], profiles: inout [FunctionProfileRow]
    ) -> [MetricSeries] {
        var series: [MetricSeries] = []
        let analysable = CallgrindRunner.isAvailable ? Self.debugStrippedCopy(of: executable) : nil
        defer { if let analysable, analysable != executable { try? FileManager.default.removeItem(atPath: analysable) } }
        let failed = Set(failures.map(\.key))
        for plan in plans where !plan.instructionCountsLeftOut.isEmpty {
            progress(Self.instructionNote(scenario: plan.scenario.name, leftOut: plan.instructionCountsLeftOut))
        }
        for plan in plans {
            for items in plan.instructionCounts {
                for mode in plan.modeNames where !failed.contains(FailedGroup(scenario: plan.scenario.name, mode: mode, items: items)) {
                    func row(_ operation: String, _ metric: Metric, _ values: [Double]?) -> MetricSeries {
                        MetricSeries(
                            scenario: plan.scenario.name, workload: plan.scenario.workload.kind, mode: mode,
                            items: items, operation: operation, metric: metric, repetition: 1, values: values)
                    }
                    guard CallgrindRunner.isAvailable else {
                        series += plan.workload.operationNames.flatMap { operation in Self.callgrindMetrics.map { row(operation, $0, nil) } }
                        continue
                    }
                    progress("callgrind: \(plan.scenario.name) \(mode) \(items) items")
                    do {
                        var operations: [String: Int] = [:]
                        for entry in coverage where entry.scenario == plan.scenario.name && entry.mode == mode && entry.items == items {
                            operations[entry.operation] = entry.operations
                        }
                        let request = ChildRequest.instructions(InstructionRequest(
                            plan: PlanSelection(plan: plan), mode: mode, items: items, operations: operations))
                        let dumps = try CallgrindRunner.labelledDumps(
                            executable: analysable ?? executable, arguments: ["child"],
                            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"], input: try request.encoded(),
                            cacheSimulation: true)
                        // Per operation and metric, the per-operation values of its regions in trace order.
                        var perOperation: [String: [Metric: [(step: Int, value: Double)]]] = [:]
                        var operationProfiles: [String: (profile: CallgrindProfile, operations: Int)] = [:]
                        var operationInstructions: [String: Double] = [:]
                        for (text, dump) in dumps {
                            guard let label = CallgrindLabel(text: text) else { continue }
                            let perRegion = Double(label.count)
                            operationInstructions[label.operation, default: 0] += Double(dump.instructions ?? 0)
                            operationProfiles[label.operation, default: (CallgrindProfile(), 0)].profile.add(dump.profile)
                            operationProfiles[label.operation, default: (CallgrindProfile(), 0)].operations += label.count
                            var values: [Metric: UInt64] = [.instructions: dump.instructions ?? 0]
                            if let cache = dump.cacheCounts {
                                values[.estimatedCycles] = cache.estimatedCycles
                                values[.l1Misses] = cache.l1Misses
                                values[.llMisses] = cache.llMisses
                            }
                            for (metric, count) in values {
                                perOperation[label.operation, default: [:]][metric, default: []].append((label.step, Double(count) / perRegion))
                            }
                        }
                        for (operation, entry) in operationProfiles.sorted(by: { $0.key < $1.key }) where entry.operations > 0 {
                            let perOperation = entry.profile.scaled(by: Double(entry.operations))
                            let total = (operationInstructions[operation] ?? 0) / Double(entry.operations)
                            for (metric, value) in Self.selfSizingSplit(perOperation, instructions: total) {
                                series.append(row(operation, metric, [value]))
                            }
                            let kept = perOperation.top(Self.keptFunctions)
                            for (function, cost) in kept.functions.sorted(by: { $0.value.inclusive > $1.value.inclusive }) {
                                profiles.append(FunctionProfileRow(
                                    scenario: plan.scenario.name, mode: mode, items: items, operation: operation,
                                    function: function, selfInstructions: cost.selfCost, inclusiveInstructions: cost.inclusive))
                            }
                        }
                        series += plan.workload.operationNames.flatMap { operation in
                            Self.callgrindMetrics.map { metric in
                                row(operation, metric, perOperation[operation]?[metric]?.sorted { $0.step < $1.step }.map(\.value))
                            }
                        }
                    } catch {
                        failures.append(ModeFailure(
                            scenario: plan.scenario.name, mode: mode, items: items, message: "under callgrind: \(error)",
                            step: .callgrind, check: .error))
                    }
                }
            }
        }
        return series
    }

    /// The note a run gives for the counts of a sweep its callgrind pass leaves out.
    static func instructionNote(scenario: String, leftOut: [Int]) -> String {
        "note: --instructions leaves out \(scenario) at \(leftOut.map(String.init).joined(separator: ", ")) items: "
            + "of a scenario's own sweep, the callgrind pass counts up to \(BenchmarkPlan.instructionItemLimit) items "
            + "(a process runs 50-100 times slower under it); name a count with --items to count it"
    }

    // MARK: Output

    /// samples.csv: every value with its repetition; summary.csv: one row per scenario × mode ×
    /// items × operation × metric over all repetitions, in first-seen order, and a `failed` row
    /// per failed group; failures.csv: what went wrong in each (a header alone when nothing did).
    private func write(_ series: [MetricSeries], profiles: [FunctionProfileRow], failures: [ModeFailure]) throws {
        let commit = metadata.source.commit
        var samples = CSVWriter(header: CSVSchema.samplesHeader)
        var summary = CSVWriter(header: CSVSchema.summaryHeader)
        var order: [SeriesKey] = []
        var repetitions: [SeriesKey: [[Double]]] = [:]
        var unsupported = Set<SeriesKey>()
        for entry in series {
            func sampleRow(_ index: Int, _ value: MetricValue) -> [String] {
                SampleRow(
                    runID: metadata.runID, commit: commit, scenario: entry.scenario, workload: entry.workload,
                    mode: entry.mode, items: entry.items, operation: entry.operation, repetition: entry.repetition,
                    sample: index, metric: entry.metric, value: value).fields
            }
            if repetitions[entry.key] == nil && !unsupported.contains(entry.key) { order.append(entry.key) }
            if let values = entry.values {
                for (index, value) in values.enumerated() { samples.append(sampleRow(index + 1, MetricValue(value))) }
                if !values.isEmpty { repetitions[entry.key, default: []].append(values) }
            } else {
                samples.append(sampleRow(1, .unsupported))
                unsupported.insert(entry.key)
            }
        }
        for key in order {
            let values = unsupported.contains(key) ? nil : repetitions[key]
            summary.append(SummaryRow(
                runID: metadata.runID, commit: commit, scenario: key.scenario, workload: key.workload,
                mode: key.mode, items: key.items, operation: key.operation, metric: key.metric,
                summary: values.map { Summary(repetitions: $0) }).fields)
        }
        let workloads = Dictionary(plans.map { ($0.scenario.name, $0.scenario.workload.kind) }, uniquingKeysWith: { first, _ in first })
        // A group fails once (a reader refuses a second row); the first failure is the one said.
        var recorded = Set<FailedGroup>()
        let failureRows = failures.filter { recorded.insert($0.key).inserted }.map { $0.row(workload: workloads[$0.scenario] ?? "") }
        for failure in failureRows {
            summary.append(SummaryRow.failedFields(failure, runID: metadata.runID, commit: commit))
        }
        let compressed: [UInt8]
        do { compressed = try Gzip.compress(Array(samples.text.utf8)) } catch {
            throw OutputError(option: results.option, path: results.target, reason: "cannot compress samples.csv.gz: \(error)")
        }
        try results.write(bytes: compressed, to: "samples.csv.gz")
        try results.write(summary.text, to: "summary.csv")
        try results.write(FailureRow.csv(failureRows, runID: metadata.runID, commit: commit), to: FailureRow.fileName)
        if !profiles.isEmpty {
            let text = FunctionProfileRow.csv(FunctionProfileRow.demangled(profiles))
            do { try results.write(bytes: try Gzip.compress(Array(text.utf8)), to: FunctionProfileRow.fileName) } catch let error as OutputError {
                throw error
            } catch {
                throw OutputError(option: results.option, path: results.target, reason: "cannot compress \(FunctionProfileRow.fileName): \(error)")
            }
        }
        // Every metric this binary can write (the same in each process of a driver's round, whose
        // merge keeps the first run.json), and any other the series hold: the results describe
        // every metric they carry, and compare judges them by it.
        var described = metadata
        var seen = Set<String>()
        described.metrics = (WorkloadCatalog.metrics + series.map(\.metric)).filter { seen.insert($0.name).inserted }
        try results.write(try described.jsonText(), to: "run.json")
        try results.commit()
    }

    /// valgrind 3.19 cannot read the DWARF 5 debug information Swift 6 emits and gives up, so the
    /// child runs from a copy without debug sections (`objcopy --strip-debug`); the instructions
    /// are the same. Falls back to the executable itself when objcopy is missing.
    static func debugStrippedCopy(of executable: String) -> String {
        guard let objcopy = ["/usr/bin/objcopy", "/bin/objcopy", "/usr/local/bin/objcopy"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return executable }
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("layout-bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)").path
        SignalCleanup.register([copy])
        let result = try? runChildProcess(executable: objcopy, arguments: ["--strip-debug", executable, copy])
        return result?.status == 0 ? copy : executable
    }

    private static func resolvedExecutable(_ argument: String) -> String {
        if let path = ExecutablePath.current() { return path }
        return URL(fileURLWithPath: argument).standardizedFileURL.path
    }
}
