import BenchStatistics
import BenchPlatform
import BenchResults
import BenchScenarios
import BenchWorkloads

/// The measurement of one scenario × items group in one repetition, step by step: build and
/// verify every mode and warm its operations up; sample all operations interleaved; count
/// allocations in untimed passes; turn what succeeded into series. A mode that fails at any step
/// is reported once and contributes no series.
final class GroupMeasurement {
    /// One operation of one mode while sampling.
    private final class Running {
        let mode: String
        let operation: String
        let driver: OperationDriver
        /// The prefix of the trace an earlier repetition timed, which this one times too.
        let coverage: OperationCoverage?
        var samples: [Sample] = []
        var allocationCounts: [Double]?
        var elapsed: UInt64 = 0
        var finished = false

        init(mode: String, operation: String, driver: OperationDriver, coverage: OperationCoverage?) {
            self.mode = mode
            self.operation = operation
            self.driver = driver
            self.coverage = coverage
        }

        /// Operations of the trace timed so far.
        var operationsTimed: Int { samples.count * driver.batch }

        /// Operations the allocation and instruction counts cover: the prefix timed when the whole
        /// trace was not (nil: the whole trace).
        var coveredOperations: Int? {
            if let coverage { return coverage.operations }
            return operationsTimed < driver.work.traceLength ? operationsTimed : nil
        }
    }

    private let plan: BenchmarkPlan
    private let items: Int
    private let options: BenchmarkRunner.Options
    private let reportMode: (String, String) -> Void
    private let reportGroup: (String) -> Void
    /// Seconds spent in each phase of the group, for the progress line (where a run's time goes).
    private(set) var phases = PhaseTimes()
    /// Timed samples never read jemalloc's global allocation count (it flushes the thread cache,
    /// whose refill would land in the timed region); counts come from untimed passes.
    private let sampler: Sampler
    private var running: [Running] = []
    private var observations: [String: [(operation: String, metric: Metric, values: [Double])]] = [:]
    /// Per mode, the operations timed against a baseline variant (`MeasuredMode.speedupBaselines`).
    private var speedupBaselines: [String: [String: String]] = [:]
    private var failed = Set<String>()
    private(set) var outcome = BenchmarkRunner.Outcome()

    init(
        plan: BenchmarkPlan, items: Int, options: BenchmarkRunner.Options,
        reportMode: @escaping (String, String) -> Void, reportGroup: @escaping (String) -> Void = { _ in }
    ) {
        self.plan = plan
        self.items = items
        self.options = options
        self.reportMode = reportMode
        self.reportGroup = reportGroup
        var timingPolicy = options.policy
        timingPolicy.countsAllocations = false
        sampler = Sampler(policy: timingPolicy)
    }

    /// Records what the child is doing (`ChildProgressLog`), outside any timed region.
    private func note(
        _ mode: String?, step: FailureRow.Step, operation: String = "", sampledTogether: Bool = false, _ doing: @autoclosure () -> String
    ) {
        options.progressLog?.record(
            scenario: plan.scenario.name, items: items, mode: mode, doing: doing(), step: step, operation: operation,
            sampledTogether: sampledTogether)
    }

    func run() {
        // The group's peak starts from what the process holds, not from what earlier groups freed.
        AllocationCounters.releaseFreedMemory()
        PeakMemory.resetPeak()
        let group: WorkloadGroup
        note(nil, step: .fixture, "setting up the workload's fixture")
        do {
            group = try phases.time(\.fixture) { try plan.workload.makeGroup(scenario: plan.scenario, items: items) }
        } catch {
            for mode in plan.modeNames { fail(mode, "to set up", step: .fixture, error) }
            return
        }
        build(group)
        if options.verifyOnly {
            // What the checks observed (a heuristic mode's recall, the elements a step shows):
            // a run that verifies apart from its timed repetitions writes them from here.
            for mode in plan.modeNames where !failed.contains(mode) { _ = writeObservations(mode) }
            reportGroup("\(plan.scenario.name) \(items) items: \(phases)")
            return
        }
        var turns: DuetTurns?
        if let duet = options.duet {
            let key = "\(plan.scenario.name)-\(items)-r\(options.repetition)"
            let prepared = DuetTurns.prepare(duet, key: key)
            if duet.meet(key) {
                turns = prepared ? DuetTurns(duet, key: key) : nil
            } else {
                reportGroup("\(plan.scenario.name) \(items) items: the duet partner did not arrive within \(Int(DuetBarrier.timeoutSeconds)) s; sampling alone")
            }
        }
        note(nil, step: .sampling, sampledTogether: true, "sampling the modes interleaved (" + running.map(\.mode).uniqued().joined(separator: ", ") + ")")
        phases.time(\.sampling) { sampleInterleaved(turns: turns) }
        if options.policy.countsAllocations { phases.time(\.allocations) { countAllocations() } }
        reportGroup("\(plan.scenario.name) \(items) items: \(phases)")
        let peak = Double(PeakMemory.residentBytes().peakBytes)
        writeSeries()
        // The process's peak while the whole group ran: one group-level value (empty mode and
        // operation), since the modes are interleaved in one process.
        if plan.modeNames.contains(where: { !failed.contains($0) }) {
            outcome.series.append(series("", "", .peakRSS, [peak]))
        }
    }

    /// Fails `mode` at `step` (of `operation`): a `VerificationError` is the verification's check,
    /// anything else an error.
    private func fail(_ mode: String, _ what: String, step: FailureRow.Step, operation: String = "", _ error: any Error) {
        failed.insert(mode)
        running.removeAll { $0.mode == mode }
        outcome.failures.append(ModeFailure(
            scenario: plan.scenario.name, mode: mode, items: items, message: "\(error)", step: step,
            check: error is VerificationError ? .verification : .error, operation: operation))
        reportMode(mode, "FAILED \(what): \(error)")
    }

    /// Builds and (in the first repetition) verifies each mode, and warms its operations up.
    private func build(_ group: WorkloadGroup) {
        for mode in plan.modes {
            note(mode.rawValue, step: .build, options.verify ? "building and verifying the mode" : "building the mode")
            // The step and operation a failure is at: the build until an operation warms up.
            var step = FailureRow.Step.build, current = ""
            do {
                let measured = try phases.time(options.verify ? \.verification : \.build) {
                    try group.measure(mode: mode, verify: options.verify)
                }
                if options.verifyOnly {
                    observations[measured.mode] = measured.observations
                    reportMode(measured.mode, "verified")
                    continue
                }
                for (operation, work) in measured.operations {
                    let driver = OperationDriver(work)
                    (step, current) = (.warmUp, operation)
                    note(mode.rawValue, step: .warmUp, operation: operation, "warming up its \(operation) operation")
                    try phases.time(\.warmUp) { try driver.warmUp(sampler: sampler) }
                    let coverage = options.coverage[OperationCoverage.key(
                        scenario: plan.scenario.name, mode: measured.mode, items: items, operation: operation)]
                    running.append(Running(mode: measured.mode, operation: operation, driver: driver, coverage: coverage))
                }
                observations[measured.mode] = measured.observations
                speedupBaselines[measured.mode] = measured.speedupBaselines
            } catch {
                fail(mode.rawValue, error is VerificationError ? "verification" : step == .build ? "to build" : "to warm \(current) up",
                     step: step, operation: current, error)
            }
        }
    }

    /// Each unfinished operation in turn samples for a `SamplingTurn` (`.alone`, or `.duet` with
    /// `turns`; at least once), until the policy is satisfied and each has covered its whole trace
    /// at least once — or, for an operation too slow for that, until the sampling budget is spent
    /// (`SamplingPolicy.isDone`: then a prefix of the trace, recorded as its `OperationCoverage`),
    /// or exactly the prefix an earlier repetition timed.
    /// With `turns` (a duet on one core), each turn waits for the partner's to end and hands over after.
    private func sampleInterleaved(turns: DuetTurns? = nil) {
        defer { turns?.finish() }
        let turn: SamplingTurn = turns == nil ? .alone : .duet
        while running.contains(where: { !$0.finished }) {
            for entry in running where !entry.finished && !failed.contains(entry.mode) {
                turns?.take()
                defer { turns?.pass() }
                let turnStart = MonotonicClock.now(), samplesBefore = entry.samples.count
                repeat {
                    let t0 = MonotonicClock.now()
                    do {
                        entry.samples.append(try entry.driver.sample(sampler: sampler))
                    } catch {
                        fail(entry.mode, "while sampling \(entry.operation)", step: .sampling, operation: entry.operation, error)
                        break
                    }
                    entry.elapsed &+= MonotonicClock.now() &- t0
                    if let coverage = entry.coverage {
                        entry.finished = entry.operationsTimed >= coverage.operations
                    } else {
                        entry.finished = options.policy.isDone(
                            count: entry.samples.count, elapsedNanoseconds: entry.elapsed,
                            coversTrace: entry.operationsTimed >= entry.driver.work.traceLength)
                    }
                } while !entry.finished && !turn.isOver(
                    elapsedNanoseconds: MonotonicClock.now() &- turnStart, samples: entry.samples.count - samplesBefore)
            }
        }
        for entry in running where !failed.contains(entry.mode) {
            if entry.coverage == nil, entry.operationsTimed < entry.driver.work.traceLength {
                // A prefix decided here: keep the samples of a prefix whose length rarely changes
                // from run to run (so `--instructions` of two runs count the same operations).
                let kept = OperationCoverage.stablePrefix(samples: entry.samples.count, minimum: options.policy.minSamples)
                entry.samples.removeLast(entry.samples.count - kept)
            }
            guard let covered = entry.coveredOperations else { continue }
            outcome.coverage.append(OperationCoverage(
                scenario: plan.scenario.name, mode: entry.mode, items: items, operation: entry.operation,
                operations: covered, traceLength: entry.driver.work.traceLength, steps: entry.driver.work.countedSteps))
        }
    }

    private func countAllocations() {
        for entry in running where !failed.contains(entry.mode) {
            note(entry.mode, step: .allocations, operation: entry.operation, "counting the allocations of its \(entry.operation) operation")
            do {
                entry.allocationCounts = try entry.driver.countAllocations(
                    passes: BenchmarkRunner.allocationCountPasses, operations: entry.coveredOperations,
                    budgetNanoseconds: options.policy.allocationCountBudget.nanoseconds)
            } catch {
                fail(entry.mode, "while counting allocations of \(entry.operation)", step: .allocations, operation: entry.operation, error)
            }
        }
    }

    private func series(_ mode: String, _ operation: String, _ metric: Metric, _ values: [Double]?) -> MetricSeries {
        MetricSeries(
            scenario: plan.scenario.name, workload: plan.scenario.workload.kind, mode: mode, items: items,
            operation: operation, metric: metric, repetition: options.repetition, values: values)
    }

    /// The series of every mode that succeeded, and its progress line (median and mean, so that a
    /// one-off cost shows).
    private func writeSeries() {
        for mode in plan.modeNames where !failed.contains(mode) {
            var summaries: [String] = []
            for entry in running where entry.mode == mode {
                let times = entry.samples.map(\.timeNanoseconds)
                let bytes = entry.samples.map(\.allocatedBytes)
                outcome.series.append(series(mode, entry.operation, .time, times))
                outcome.series.append(series(mode, entry.operation, .allocBytes, bytes.contains { $0.isNaN } ? nil : bytes))
                // Only the repetition that counts allocations writes them (they repeat exactly): an
                // empty series from the others would turn the whole summary row into `unsupported`.
                if options.policy.countsAllocations {
                    outcome.series.append(series(mode, entry.operation, .allocs, entry.allocationCounts))
                }
                // A variant timed against a baseline: the baseline's median over each sample's time.
                if let baseline = speedupBaselines[mode]?[entry.operation],
                   let base = running.first(where: { $0.mode == mode && $0.operation == baseline }), !base.samples.isEmpty, !times.isEmpty {
                    let reference = Quantile.median(base.samples.map(\.timeNanoseconds))
                    let speedups = times.map { $0 > 0 ? reference / $0 : 0 }
                    outcome.series.append(series(mode, entry.operation, .speedup, speedups))
                    summaries.append("\(entry.operation) speed-up \(String(format: "%.2f", reference / Quantile.median(times)))x")
                }
                let mean = times.reduce(0, +) / Double(Swift.max(times.count, 1))
                summaries.append("\(entry.operation) median \(BenchmarkRunner.nanoseconds(Quantile.median(times)))"
                                 + ", mean \(BenchmarkRunner.nanoseconds(mean))"
                                 + (entry.coveredOperations.map { " (first \($0) of \(entry.driver.work.traceLength) operations)" } ?? ""))
            }
            summaries += writeObservations(mode)
            reportMode(mode, summaries.joined(separator: ", "))
        }
    }

    /// The series of what `mode`'s measurement observed, and what the progress line says of them.
    private func writeObservations(_ mode: String) -> [String] {
        var summaries: [String] = []
        for observation in observations[mode] ?? [] where !observation.values.isEmpty {
            outcome.series.append(series(mode, observation.operation, observation.metric, observation.values))
            if observation.metric == .recall {
                summaries.append(String(
                    format: "recall median %.3f, min %.3f", Quantile.median(observation.values), observation.values.min() ?? 1))
            }
        }
        return summaries
    }
}

extension OperationWork {
    /// What one value of the operation's counts covers (`OperationDriver.countAllocations`,
    /// `countInstructions`): one operation of a consuming trace, one pass of a batchable one.
    var countedSteps: OperationCoverage.Steps {
        switch self {
        case .batchable: return .passes
        case .consuming: return .operations
        }
    }
}

extension Array where Element == String {
    /// The strings in order, each once.
    func uniqued() -> [String] {
        var seen = Set<String>()
        return filter { seen.insert($0).inserted }
    }
}
