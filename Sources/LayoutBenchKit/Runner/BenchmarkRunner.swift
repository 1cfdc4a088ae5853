import Foundation
import LayoutEngine

/// Runs plans: for each scenario and item count, builds and verifies every mode, then samples
/// all their operations **interleaved** (one sample of each in turn, round after round) until
/// each has what the sampling policy asks for, so slow drift of the machine favours no mode.
/// A mode that fails verification is reported and produces no rows.
public final class BenchmarkRunner {
    public struct Options {
        public var policy: SamplingPolicy
        /// Called with one line per scenario × mode × items (progress, for stderr).
        public var progress: (String) -> Void

        public init(policy: SamplingPolicy, progress: @escaping (String) -> Void = { _ in }) {
            self.policy = policy
            self.progress = progress
        }
    }

    public struct Outcome {
        public var series: [MetricSeries] = []
        public var failures: [String] = []
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
                        "[\(done)/\(total)] \(plan.scenario.name) \(mode) \(items) items: \(summary)"
                            + " — \(Self.duration(elapsed)) elapsed, ~\(Self.duration(left)) left")
                }
                outcome.series += result.series
                outcome.failures += result.failures
            }
        }
        return outcome
    }

    /// One measured operation while sampling.
    private final class Running {
        let mode: String
        let operation: any MeasuredOperation
        let batch: Int
        var samples: [Sample] = []
        /// Allocation counts from the untimed pass (operations that need fresh state per run).
        var allocationCounts: [Double]?
        var elapsed: UInt64 = 0
        var finished = false

        init(mode: String, operation: any MeasuredOperation, batch: Int) {
            self.mode = mode
            self.operation = operation
            self.batch = batch
        }
    }

    /// Measures every mode of one scenario at one item count.
    func measure(plan: BenchmarkPlan, items: Int, reportMode: (String, String) -> Void) -> Outcome {
        var outcome = Outcome()
        let scenario = plan.scenario
        let sampler = Sampler(policy: options.policy)
        // Operations that need fresh state per run are timed without reading jemalloc's allocation
        // count: that read flushes the thread cache just before the timed region, and the refill
        // (~1 µs) would land in it. Their counts come from a separate untimed pass.
        var timingPolicy = options.policy
        timingPolicy.countsAllocations = false
        let consumingSampler = Sampler(policy: timingPolicy)
        PeakMemory.resetPeak()

        let fixture: any WorkloadFixture
        do {
            fixture = try plan.workload.makeFixture(scenario: scenario, items: items)
        } catch {
            outcome.failures.append("\(scenario.name) at \(items) items: \(error)")
            for mode in plan.modes { reportMode(mode, "FAILED to set up") }
            return outcome
        }

        // Build and verify each mode; calibrate and warm up each operation.
        var running: [Running] = []
        var observations: [(String, Observation)] = []
        for mode in plan.modes {
            do {
                let measurement = try fixture.makeMeasurement(mode: mode, verify: true)
                for operation in measurement.cases {
                    let batch: Int
                    if operation.maximumBatch > 1 {
                        batch = Swift.min(operation.maximumBatch, sampler.calibrate { operation.run(count: 1) })
                    } else {
                        sampler.warmUp(setup: { try! operation.prepareForRun(count: 1) }) { _ in operation.run(count: 1) }
                        batch = 1
                    }
                    running.append(Running(mode: mode, operation: operation, batch: batch))
                }
                observations += measurement.observations.map { (mode, $0) }
            } catch {
                outcome.failures.append("\(error)")
                reportMode(mode, "FAILED verification: \(error)")
            }
        }

        // Interleaved sampling.
        while running.contains(where: { !$0.finished }) {
            for entry in running where !entry.finished {
                let t0 = MonotonicClock.now()
                let sample = takeSample(entry, sampler: entry.operation.maximumBatch > 1 ? sampler : consumingSampler)
                entry.samples.append(sample)
                entry.elapsed &+= MonotonicClock.now() &- t0
                entry.finished = !options.policy.wantsMoreSamples(count: entry.samples.count, elapsedNanoseconds: entry.elapsed)
            }
        }
        if options.policy.countsAllocations {
            for entry in running where entry.operation.maximumBatch == 1 {
                entry.allocationCounts = (0..<Self.allocationCountRuns).map { _ in
                    sampler.measureOne(setup: { try! entry.operation.prepareForRun(count: 1) }) { _ in entry.operation.run(count: 1) }
                        .allocations
                }
            }
        }
        let peak = Double(PeakMemory.residentBytes().peakBytes)

        // Series.
        func series(_ mode: String, _ operation: String, _ metric: String, _ unit: String, _ values: [Double]?) -> MetricSeries {
            MetricSeries(
                scenario: scenario.name, workload: scenario.workload.kind, mode: mode, items: items,
                operation: operation, metric: metric, unit: unit, values: values)
        }
        for mode in plan.modes {
            let entries = running.filter { $0.mode == mode }
            if entries.isEmpty { continue }
            var summaries: [String] = []
            for entry in entries {
                let operation = entry.operation.operation
                let times = entry.samples.map(\.timeNanoseconds)
                outcome.series.append(series(mode, operation, "time", "ns", times))
                let bytes = entry.samples.map(\.allocatedBytes)
                outcome.series.append(series(mode, operation, "alloc_bytes", "bytes", bytes.contains { $0.isNaN } ? nil : bytes))
                let counts = entry.allocationCounts ?? entry.samples.map(\.allocations)
                outcome.series.append(series(mode, operation, "allocs", "count", counts.contains { $0.isNaN } ? nil : counts))
                summaries.append("\(operation) median \(Self.nanoseconds(Quantile.median(times)))")
            }
            for (observationMode, observation) in observations where observationMode == mode {
                outcome.series.append(series(mode, observation.operation, observation.metric, observation.unit, observation.values))
                if observation.metric == "recall" {
                    summaries.append(String(
                        format: "recall median %.3f, min %.3f", Quantile.median(observation.values), observation.values.min() ?? 1))
                }
            }
            outcome.series.append(series(mode, entries[0].operation.operation, "peak_rss", "bytes", [peak]))
            reportMode(mode, summaries.joined(separator: ", "))
        }
        return outcome
    }

    private func takeSample(_ entry: Running, sampler: Sampler) -> Sample {
        let operation = entry.operation
        if operation.maximumBatch > 1 {
            try! operation.prepareForRun(count: entry.batch)
            var sample = sampler.measureOne(batch: 1) { operation.run(count: entry.batch) }
            let batch = Double(entry.batch)
            sample.timeNanoseconds /= batch
            sample.allocatedBytes /= batch
            sample.allocations /= batch
            sample.batch = entry.batch
            return sample
        }
        return sampler.measureOne(setup: { try! operation.prepareForRun(count: 1) }) { _ in operation.run(count: 1) }
    }

    /// Untimed runs that count allocations of operations that need fresh state per run.
    static let allocationCountRuns = 5

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
