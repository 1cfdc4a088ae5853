import Foundation
import BenchPlatform
import BenchResults
import BenchScenarios
import BenchWorkloads

/// One repetition of a run, in this process (a child's whole job, or a round of `--in-process`):
/// for each scenario and item count, a `GroupMeasurement` builds and verifies every mode, then
/// samples all their operations **interleaved** (one sample of each in turn, round after round)
/// until each has what the sampling policy asks for, so slow drift of the machine favours no mode. A mode that fails — verification, or an operation later — is
/// reported and produces no rows of any metric.
package final class BenchmarkRunner {
    package struct Options {
        package var policy: SamplingPolicy
        /// Whether modes are checked against the reference (the first repetition does it; later
        /// ones measure the same deterministic outputs).
        package var verify: Bool
        /// Only build and verify every mode (`run --verify-only`): nothing is timed or counted and
        /// no series is written; a mode that fails is reported as in any run.
        package var verifyOnly: Bool
        /// The `repetition` written with every value.
        package var repetition: Int
        /// Called with one line per scenario × mode × items (progress, for stderr).
        package var progress: (String) -> Void
        /// Operations to time on a prefix of their trace, as an earlier repetition decided (by
        /// `OperationCoverage.key`); the others are timed until the policy is satisfied.
        package var coverage: [String: OperationCoverage]
        /// Where the child process records what it is doing (nil in process: nobody reads it).
        package var progressLog: ChildProgressLog?
        /// The duet partner to meet before sampling each group and to take sampling turns with
        /// (`run --duet`); nil: sample alone.
        package var duet: DuetBarrier?
        /// Called with each group's outcome as soon as the group ends (a child writes it out, so
        /// that the groups it finished keep their rows if it dies later).
        package var groupFinished: ((GroupOutcome) -> Void)?

        package init(
            policy: SamplingPolicy, verify: Bool = true, verifyOnly: Bool = false, repetition: Int = 1,
            coverage: [OperationCoverage] = [], progress: @escaping (String) -> Void = { _ in }
        ) {
            self.policy = policy
            self.verify = verify || verifyOnly
            self.verifyOnly = verifyOnly
            self.repetition = repetition
            self.coverage = Dictionary(coverage.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            self.progress = progress
        }
    }

    package struct Outcome: Codable {
        package var series: [MetricSeries] = []
        package var failures: [ModeFailure] = []
        /// Operations timed on a prefix of their trace (see `OperationCoverage`).
        package var coverage: [OperationCoverage] = []
    }

    private let plans: [BenchmarkPlan]
    private let options: Options

    package init(plans: [BenchmarkPlan], options: Options) {
        self.plans = plans
        self.options = options
    }

    /// The number of scenario × mode × items (`FailedGroup`s) the repetition will measure; a group is
    /// one scenario at one item count, with all its modes.
    package var modeCount: Int { plans.reduce(0) { $0 + $1.modes.count * $1.itemCounts.count } }

    package func run() -> Outcome {
        var outcome = Outcome()
        let start = MonotonicClock.now()
        var done = 0
        let total = modeCount
        // Every group's phases added up: where the repetition's time went, on its last line.
        var phases = PhaseTimes()
        var groups = 0
        for plan in plans {
            for items in plan.itemCounts {
                let group = GroupMeasurement(plan: plan, items: items, options: options, reportMode: { mode, summary in
                    done += 1
                    let elapsed = Double(MonotonicClock.now() &- start) / 1e9
                    let left = elapsed / Double(done) * Double(total - done)
                    self.options.progress(
                        "[\(done)/\(total)] r\(self.options.repetition) \(plan.scenario.name) \(mode) \(items) items: \(summary)"
                            + " — \(Self.duration(elapsed)) elapsed, ~\(Self.duration(left)) left")
                }, reportGroup: { phases in
                    self.options.progress("r\(self.options.repetition) \(phases)")
                })
                group.run()
                phases = phases + group.phases
                groups += 1
                let result = group.outcome
                options.groupFinished?(GroupOutcome(scenario: plan.scenario.name, items: items, outcome: result))
                outcome.series += result.series
                outcome.failures += result.failures
                outcome.coverage += result.coverage
            }
        }
        if groups > 1 { options.progress("r\(options.repetition) \(groups) groups: \(phases)") }
        return outcome
    }

    /// Untimed passes that count allocations (at least this many operations for consuming ones).
    static let allocationCountPasses = OperationCoverage.allocationPasses

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

/// A mode that failed at one item count (verification, set-up, or an operation), with the reason:
/// what went wrong (`check`) at which step of the group (and operation), as failures.csv records it.
package struct ModeFailure: Codable, Hashable, Sendable, CustomStringConvertible {
    package var scenario: String
    package var mode: String
    package var items: Int
    package var message: String
    package var step: FailureRow.Step
    package var check: FailureRow.Check
    /// The operation of the step, when it is one operation's (empty otherwise).
    package var operation: String = ""

    package var key: FailedGroup { FailedGroup(scenario: scenario, mode: mode, items: items) }

    /// Its row of failures.csv, in a run of `workload`.
    package func row(workload: String) -> FailureRow {
        FailureRow(scenario: scenario, workload: workload, mode: mode, items: items, operation: operation,
                   step: step, check: check, message: description)
    }

    package var description: String {
        message.hasPrefix(scenario) ? message : "\(scenario) \(mode) at \(items) items: \(message)"
    }
}
