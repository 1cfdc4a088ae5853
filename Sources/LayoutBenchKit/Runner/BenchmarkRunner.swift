import Foundation
import LayoutEngine

/// Runs plans in this process (one repetition): for each scenario and item count, builds and
/// verifies every mode, then samples all their operations **interleaved** (one sample of each in
/// turn, round after round) until each has what the sampling policy asks for, so slow drift of
/// the machine favours no mode. A mode that fails — verification, or an operation later — is
/// reported and produces no rows of any metric.
public final class BenchmarkRunner {
    public struct Options {
        public var policy: SamplingPolicy
        /// Whether modes are checked against the reference (the first repetition does it; later
        /// ones measure the same deterministic outputs).
        public var verify: Bool
        /// The `repetition` written with every value.
        public var repetition: Int
        /// Called with one line per scenario × mode × items (progress, for stderr).
        public var progress: (String) -> Void

        public init(policy: SamplingPolicy, verify: Bool = true, repetition: Int = 1, progress: @escaping (String) -> Void = { _ in }) {
            self.policy = policy
            self.verify = verify
            self.repetition = repetition
            self.progress = progress
        }
    }

    public struct Outcome: Codable {
        public var series: [MetricSeries] = []
        public var failures: [ModeFailure] = []

        public init() {}
    }

    private let plans: [BenchmarkPlan]
    private let options: Options

    public init(plans: [BenchmarkPlan], options: Options) {
        self.plans = plans
        self.options = options
    }

    /// The number of scenario × mode × items groups the run will measure.
    public var groupCount: Int { plans.reduce(0) { $0 + $1.modes.count * $1.itemCounts.count } }

    public func run() -> Outcome {
        var outcome = Outcome()
        let start = MonotonicClock.now()
        var done = 0
        let total = groupCount
        for plan in plans {
            for items in plan.itemCounts {
                let result = measure(plan: plan, items: items) { mode, summary in
                    done += 1
                    let elapsed = Double(MonotonicClock.now() &- start) / 1e9
                    let left = elapsed / Double(done) * Double(total - done)
                    self.options.progress(
                        "r\(self.options.repetition) [\(done)/\(total)] \(plan.scenario.name) \(mode) \(items) items: \(summary)"
                            + " — \(Self.duration(elapsed)) elapsed, ~\(Self.duration(left)) left")
                }
                outcome.series += result.series
                outcome.failures += result.failures
            }
        }
        return outcome
    }

    /// One operation of one mode while sampling.
    private final class Running {
        let mode: String
        let operation: String
        let driver: OperationDriver
        var samples: [Sample] = []
        var elapsed: UInt64 = 0
        var finished = false

        init(mode: String, operation: String, driver: OperationDriver) {
            self.mode = mode
            self.operation = operation
            self.driver = driver
        }
    }

    /// Measures every mode of one scenario at one item count.
    func measure(plan: BenchmarkPlan, items: Int, reportMode: (String, String) -> Void) -> Outcome {
        var outcome = Outcome()
        let scenario = plan.scenario
        func fail(_ mode: String, _ what: String, _ error: any Error) {
            outcome.failures.append(ModeFailure(scenario: scenario.name, mode: mode, items: items, message: "\(error)"))
            reportMode(mode, "FAILED \(what): \(error)")
        }
        // Timed samples never read jemalloc's global allocation count (it flushes the thread
        // cache, whose refill would land in the timed region); counts come from an untimed pass.
        var timingPolicy = options.policy
        timingPolicy.countsAllocations = false
        let sampler = Sampler(policy: timingPolicy)
        PeakMemory.resetPeak()

        let group: WorkloadGroup
        do {
            group = try plan.workload.makeGroup(scenario: scenario, items: items)
        } catch {
            for mode in plan.modeNames { fail(mode, "to set up", error) }
            return outcome
        }

        // Build and verify each mode; warm up each operation.
        var running: [Running] = []
        var observations: [String: [(operation: String, metric: Metric, values: [Double])]] = [:]
        var failed = Set<String>()
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
                failed.insert(mode.rawValue)
                running.removeAll { $0.mode == mode.rawValue }
                fail(mode.rawValue, error is VerificationError ? "verification" : "to build", error)
            }
        }

        // Interleaved sampling.
        while let _ = running.first(where: { !$0.finished && !failed.contains($0.mode) }) {
            for entry in running where !entry.finished && !failed.contains(entry.mode) {
                let t0 = MonotonicClock.now()
                do {
                    entry.samples.append(try entry.driver.sample(sampler: sampler))
                } catch {
                    failed.insert(entry.mode)
                    fail(entry.mode, "while sampling \(entry.operation)", error)
                    continue
                }
                entry.elapsed &+= MonotonicClock.now() &- t0
                // At least one whole pass of the trace, whatever the policy's time limit.
                let coversTrace = entry.samples.count * entry.driver.batch >= entry.driver.work.traceLength
                entry.finished = coversTrace
                    && !options.policy.wantsMoreSamples(count: entry.samples.count, elapsedNanoseconds: entry.elapsed)
            }
        }
        var allocationCounts: [ObjectIdentifier: [Double]] = [:]
        if options.policy.countsAllocations {
            for entry in running where !failed.contains(entry.mode) {
                do {
                    allocationCounts[ObjectIdentifier(entry)] = try entry.driver.countAllocations(passes: Self.allocationCountPasses)
                } catch {
                    failed.insert(entry.mode)
                    fail(entry.mode, "while counting allocations of \(entry.operation)", error)
                }
            }
        }
        let peak = Double(PeakMemory.residentBytes().peakBytes)

        // Series: only modes that succeeded in every step.
        func series(_ mode: String, _ operation: String, _ metric: Metric, _ values: [Double]?) -> MetricSeries {
            MetricSeries(
                scenario: scenario.name, workload: scenario.workload.kind, mode: mode, items: items,
                operation: operation, metric: metric, repetition: options.repetition, values: values)
        }
        var anyMode = false
        for mode in plan.modeNames where !failed.contains(mode) {
            let entries = running.filter { $0.mode == mode }
            anyMode = true
            var summaries: [String] = []
            for entry in entries {
                let times = entry.samples.map(\.timeNanoseconds)
                outcome.series.append(series(mode, entry.operation, .time, times))
                let bytes = entry.samples.map(\.allocatedBytes)
                outcome.series.append(series(mode, entry.operation, .allocBytes, bytes.contains { $0.isNaN } ? nil : bytes))
                outcome.series.append(series(mode, entry.operation, .allocs, allocationCounts[ObjectIdentifier(entry)]))
                let mean = times.reduce(0, +) / Double(Swift.max(times.count, 1))
                summaries.append("\(entry.operation) median \(Self.nanoseconds(Quantile.median(times))), mean \(Self.nanoseconds(mean))")
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
        // The process's peak while the whole group ran: one group-level value (empty mode and
        // operation), since the modes are interleaved in one process.
        if anyMode { outcome.series.append(series("", "", .peakRSS, [peak])) }
        return outcome
    }

    /// Untimed passes that count allocations (at least this many operations for consuming ones).
    static let allocationCountPasses = 5

    static func nanoseconds(_ value: Double) -> String {
        if value >= 1e9 { return String(format: "%.2f s", value / 1e9) }
        if value >= 1e6 { return String(format: "%.2f ms", value / 1e6) }
        if value >= 1e3 { return String(format: "%.2f µs", value / 1e3) }
        return String(format: "%.1f ns", value)
    }

    static func duration(_ seconds: Double) -> String {
        seconds >= 60 ? String(format: "%dm%02ds", Int(seconds) / 60, Int(seconds) % 60) : String(format: "%.1fs", seconds)
    }
}

/// A mode that failed at one item count (verification, set-up, or an operation), with the reason.
public struct ModeFailure: Codable, Hashable, Sendable, CustomStringConvertible {
    public var scenario: String
    public var mode: String
    public var items: Int
    public var message: String

    public var description: String {
        message.hasPrefix(scenario) ? message : "\(scenario) \(mode) at \(items) items: \(message)"
    }
}
