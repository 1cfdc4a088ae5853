import Foundation
import LayoutEngine

/// One `layout-bench run`: metadata, the interleaved measurement, the optional callgrind pass,
/// and the three result files written atomically into the results directory.
public struct RunSession {
    public struct Result {
        public var directory: String
        public var failures: [String]
    }

    public var plans: [BenchmarkPlan]
    public var quick: Bool
    public var instructions: Bool
    public var directory: String
    public var repetition: Int
    public var executable: String
    public var progress: (String) -> Void
    private var metadata: RunMetadata

    public init(
        plans: [BenchmarkPlan], quick: Bool, instructions: Bool, outDirectory: String?, repetition: Int,
        commandLine: [String], executable: String, progress: @escaping (String) -> Void
    ) throws {
        self.plans = plans
        self.quick = quick
        self.instructions = instructions
        self.repetition = repetition
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
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    public mutating func run() throws -> Result {
        let runner = BenchmarkRunner(plans: plans, options: .init(policy: quick ? .quick : .standard, progress: progress))
        progress("layout-bench: \(plans.count) scenarios, \(runner.groupCount) scenario × mode × items groups"
                 + (quick ? " (quick)" : "") + " → \(directory)")
        metadata.harnessOverhead = HarnessOverhead.measure()
        var outcome = runner.run()
        if instructions {
            outcome.series += instructionSeries(failures: &outcome.failures)
        }
        metadata.finish()
        try write(outcome.series)
        return Result(directory: directory, failures: outcome.failures)
    }

    // MARK: Instructions

    /// Re-runs every verified scenario × mode × items in a child process under callgrind and
    /// turns its labelled dumps into `instructions` series (`unsupported` without valgrind).
    private func instructionSeries(failures: inout [String]) -> [MetricSeries] {
        var series: [MetricSeries] = []
        let analysable = CallgrindRunner.isAvailable ? Self.debugStrippedCopy(of: executable) : nil
        defer { if let analysable, analysable != executable { try? FileManager.default.removeItem(atPath: analysable) } }
        for plan in plans {
            for items in plan.itemCounts {
                for mode in plan.modes {
                    let base = MetricSeries(
                        scenario: plan.scenario.name, workload: plan.scenario.workload.kind, mode: mode,
                        items: items, operation: "", metric: "instructions", unit: "count", values: nil)
                    guard CallgrindRunner.isAvailable else {
                        for operation in plan.workload.operations {
                            var row = base
                            row.operation = operation
                            series.append(row)
                        }
                        continue
                    }
                    progress("callgrind: \(plan.scenario.name) \(mode) \(items) items")
                    do {
                        let dumps = try CallgrindRunner.run(
                            executable: analysable ?? executable,
                            arguments: ["callgrind-child", plan.scenario.file, "--mode", mode, "--items", String(items)],
                            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
                        var perOperation: [String: [Double]] = [:]
                        for (label, count) in dumps {
                            guard let region = CallgrindLabel(label) else { continue }
                            perOperation[region.operation, default: []].append(Double(count) / Double(region.count))
                        }
                        for operation in plan.workload.operations {
                            var row = base
                            row.operation = operation
                            row.values = perOperation[operation]
                            series.append(row)
                        }
                    } catch {
                        failures.append("\(plan.scenario.name) \(mode) \(items) items under callgrind: \(error)")
                    }
                }
            }
        }
        return series
    }

    // MARK: Output

    private func write(_ series: [MetricSeries]) throws {
        let commit = metadata.source.commit
        var samples = CSVWriter(header: CSVSchema.samplesHeader)
        var summary = CSVWriter(header: CSVSchema.summaryHeader)
        for entry in series {
            if let values = entry.values {
                for (index, value) in values.enumerated() {
                    samples.append(SampleRow(
                        runID: metadata.runID, commit: commit, scenario: entry.scenario, workload: entry.workload,
                        mode: entry.mode, items: entry.items, operation: entry.operation, repetition: repetition,
                        sample: index + 1, metric: entry.metric, unit: entry.unit, value: MetricValue(value)).fields)
                }
            } else {
                samples.append(SampleRow(
                    runID: metadata.runID, commit: commit, scenario: entry.scenario, workload: entry.workload,
                    mode: entry.mode, items: entry.items, operation: entry.operation, repetition: repetition,
                    sample: 1, metric: entry.metric, unit: entry.unit, value: .unsupported).fields)
            }
            summary.append(SummaryRow(
                runID: metadata.runID, commit: commit, scenario: entry.scenario, workload: entry.workload,
                mode: entry.mode, items: entry.items, operation: entry.operation, metric: entry.metric,
                unit: entry.unit, summary: entry.values.flatMap { $0.isEmpty ? nil : Summary($0) }).fields)
        }
        try AtomicFile.write(samples.text, to: directory + "/samples.csv")
        try AtomicFile.write(summary.text, to: directory + "/summary.csv")
        try AtomicFile.write(try metadata.jsonText(), to: directory + "/run.json")
    }

    /// valgrind 3.19 cannot read the DWARF 5 debug information Swift 6 emits and gives up, so the
    /// child runs from a copy without debug sections (`objcopy --strip-debug`); the instructions
    /// are the same. Falls back to the executable itself when objcopy is missing.
    static func debugStrippedCopy(of executable: String) -> String {
        guard let objcopy = ["/usr/bin/objcopy", "/bin/objcopy", "/usr/local/bin/objcopy"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return executable }
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("layout-bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)").path
        let result = try? runChildProcess(executable: objcopy, arguments: ["--strip-debug", executable, copy])
        return result?.status == 0 ? copy : executable
    }

    private static func resolvedExecutable(_ argument: String) -> String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return URL(fileURLWithPath: argument).standardizedFileURL.path
    }
}

/// The label of one callgrind region: `operation|region|count` (count operations in the region).
public struct CallgrindLabel: Hashable, Sendable {
    public var operation: String
    public var region: Int
    public var count: Int

    public init(operation: String, region: Int, count: Int) {
        self.operation = operation
        self.region = region
        self.count = count
    }

    public init?(_ label: String) {
        let parts = label.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let region = Int(parts[1]), let count = Int(parts[2]), count > 0 else { return nil }
        self.init(operation: String(parts[0]), region: region, count: count)
    }

    public var text: String { "\(operation)|\(region)|\(count)" }
}

/// What the callgrind child runs: every operation of one mode in labelled regions.
public enum CallgrindChild {
    /// Operations per region for batchable operations; regions for the others.
    public static let batchedCount = 64
    public static let regions = 3

    public static func run(plan: BenchmarkPlan, mode: String, items: Int) throws {
        let fixture = try plan.workload.makeFixture(scenario: plan.scenario, items: items)
        let measurement = try fixture.makeMeasurement(mode: mode, verify: false)
        for operation in measurement.cases {
            if operation.maximumBatch > 1 {
                try operation.prepareForRun(count: batchedCount)
                blackhole(operation.run(count: 1))  // lazy state, outside the region
                let label = CallgrindLabel(operation: operation.operation, region: 0, count: batchedCount)
                let result = CallgrindRegion.measure(label: label.text) { operation.run(count: batchedCount) }
                blackhole(result)
            } else {
                // One untimed run first, as the sampler's warm-up: the first change after a fresh
                // state pays one-off copy-on-write and capacity growth that the median never sees.
                try operation.prepareForRun(count: 1)
                blackhole(operation.run(count: 1))
                for region in 0..<regions {
                    try operation.prepareForRun(count: 1)
                    let label = CallgrindLabel(operation: operation.operation, region: region, count: 1)
                    let result = CallgrindRegion.measure(label: label.text) { operation.run(count: 1) }
                    blackhole(result)
                }
            }
        }
    }
}
