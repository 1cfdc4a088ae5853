import LayoutEngine

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
        var samples: [Sample] = []
        var allocationCounts: [Double]?
        var elapsed: UInt64 = 0
        var finished = false

        init(mode: String, operation: String, driver: OperationDriver) {
            self.mode = mode
            self.operation = operation
            self.driver = driver
        }
    }

    private let plan: BenchmarkPlan
    private let items: Int
    private let options: BenchmarkRunner.Options
    private let reportMode: (String, String) -> Void
    /// Timed samples never read jemalloc's global allocation count (it flushes the thread cache,
    /// whose refill would land in the timed region); counts come from untimed passes.
    private let sampler: Sampler
    private var running: [Running] = []
    private var observations: [String: [(operation: String, metric: Metric, values: [Double])]] = [:]
    private var failed = Set<String>()
    private(set) var outcome = BenchmarkRunner.Outcome()

    init(plan: BenchmarkPlan, items: Int, options: BenchmarkRunner.Options, reportMode: @escaping (String, String) -> Void) {
        self.plan = plan
        self.items = items
        self.options = options
        self.reportMode = reportMode
        var timingPolicy = options.policy
        timingPolicy.countsAllocations = false
        sampler = Sampler(policy: timingPolicy)
    }

    func run() {
        PeakMemory.resetPeak()
        let group: WorkloadGroup
        do {
            group = try plan.workload.makeGroup(scenario: plan.scenario, items: items)
        } catch {
            for mode in plan.modeNames { fail(mode, "to set up", error) }
            return
        }
        build(group)
        sampleInterleaved()
        if options.policy.countsAllocations { countAllocations() }
        let peak = Double(PeakMemory.residentBytes().peakBytes)
        writeSeries()
        // The process's peak while the whole group ran: one group-level value (empty mode and
        // operation), since the modes are interleaved in one process.
        if plan.modeNames.contains(where: { !failed.contains($0) }) {
            outcome.series.append(series("", "", .peakRSS, [peak]))
        }
    }

    private func fail(_ mode: String, _ what: String, _ error: any Error) {
        failed.insert(mode)
        running.removeAll { $0.mode == mode }
        outcome.failures.append(ModeFailure(scenario: plan.scenario.name, mode: mode, items: items, message: "\(error)"))
        reportMode(mode, "FAILED \(what): \(error)")
    }

    /// Builds and (in the first repetition) verifies each mode, and warms its operations up.
    private func build(_ group: WorkloadGroup) {
        for mode in plan.modes {
            do {
                let measured = try group.measure(mode: mode, verify: options.verify)
                for (operation, work) in measured.operations {
                    let driver = OperationDriver(work)
                    try driver.warmUp(sampler: sampler)
                    running.append(Running(mode: measured.mode, operation: operation, driver: driver))
                }
                observations[measured.mode] = measured.observations
            } catch {
                fail(mode.rawValue, error is VerificationError ? "verification" : "to build", error)
            }
        }
    }

    /// One sample of each unfinished operation in turn until the policy is satisfied and each
    /// has covered its whole trace at least once.
    private func sampleInterleaved() {
        while running.contains(where: { !$0.finished }) {
            for entry in running where !entry.finished && !failed.contains(entry.mode) {
                let t0 = MonotonicClock.now()
                do {
                    entry.samples.append(try entry.driver.sample(sampler: sampler))
                } catch {
                    fail(entry.mode, "while sampling \(entry.operation)", error)
                    continue
                }
                entry.elapsed &+= MonotonicClock.now() &- t0
                let coversTrace = entry.samples.count * entry.driver.batch >= entry.driver.work.traceLength
                entry.finished = coversTrace
                    && !options.policy.wantsMoreSamples(count: entry.samples.count, elapsedNanoseconds: entry.elapsed)
            }
        }
    }

    private func countAllocations() {
        for entry in running where !failed.contains(entry.mode) {
            do {
                entry.allocationCounts = try entry.driver.countAllocations(passes: BenchmarkRunner.allocationCountPasses)
            } catch {
                fail(entry.mode, "while counting allocations of \(entry.operation)", error)
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
                let mean = times.reduce(0, +) / Double(Swift.max(times.count, 1))
                summaries.append("\(entry.operation) median \(BenchmarkRunner.nanoseconds(Quantile.median(times)))"
                                 + ", mean \(BenchmarkRunner.nanoseconds(mean))")
            }
            for observation in observations[mode] ?? [] where !observation.values.isEmpty {
                outcome.series.append(series(mode, observation.operation, observation.metric, observation.values))
                if observation.metric == .recall {
                    summaries.append(String(
                        format: "recall median %.3f, min %.3f", Quantile.median(observation.values), observation.values.min() ?? 1))
                }
            }
            reportMode(mode, summaries.joined(separator: ", "))
        }
    }
}
