import Foundation
import LayoutEngine

/// One `layout-bench run`: metadata, the interleaved measurement, the optional callgrind pass,
/// and the three result files written atomically into the results directory.
public struct RunSession {
    public struct Result {
        public var directory: String
        public var failures: [ModeFailure]
    }

    public var plans: [BenchmarkPlan]
    public var quick: Bool
    public var instructions: Bool
    public var directory: String
    public var repetition: Int
    public var executable: String
    public var progress: (String) -> Void
    private var metadata: RunMetadata
    /// Where the three files are staged and then moved into place as a set.
    private let results: ResultsDirectory

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
        results = try ResultsDirectory(target: directory, option: outDirectory == nil ? "results directory" : "--out")
    }

    public mutating func run() throws -> Result {
        let runner = BenchmarkRunner(plans: plans, options: .init(policy: quick ? .quick : .standard, repetition: repetition, progress: progress))
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

    /// Re-runs every scenario × mode × items that succeeded in a child process under callgrind
    /// (a typed `ChildRequest` on its standard input) and turns its labelled dumps into
    /// `instructions` series (`unsupported` without valgrind). Modes that failed get no rows.
    private func instructionSeries(failures: inout [ModeFailure]) -> [MetricSeries] {
        var series: [MetricSeries] = []
        let analysable = CallgrindRunner.isAvailable ? Self.debugStrippedCopy(of: executable) : nil
        defer { if let analysable, analysable != executable { try? FileManager.default.removeItem(atPath: analysable) } }
        let failed = Set(failures.map { "\($0.scenario)|\($0.mode)|\($0.items)" })
        for plan in plans {
            for items in plan.itemCounts {
                for mode in plan.modeNames where !failed.contains("\(plan.scenario.name)|\(mode)|\(items)") {
                    func row(_ operation: String, _ values: [Double]?) -> MetricSeries {
                        MetricSeries(
                            scenario: plan.scenario.name, workload: plan.scenario.workload.kind, mode: mode,
                            items: items, operation: operation, metric: .instructions, repetition: 1, values: values)
                    }
                    guard CallgrindRunner.isAvailable else {
                        series += plan.workload.operationNames.map { row($0, nil) }
                        continue
                    }
                    progress("callgrind: \(plan.scenario.name) \(mode) \(items) items")
                    do {
                        let request = ChildRequest.instructions(InstructionRequest(plan: PlanSelection(plan: plan), mode: mode, items: items))
                        let dumps = try CallgrindRunner.run(
                            executable: analysable ?? executable, arguments: ["child"],
                            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"], input: try request.encoded())
                        var perOperation: [String: [(step: Int, value: Double)]] = [:]
                        for (text, count) in dumps {
                            guard let label = CallgrindLabel(text: text) else { continue }
                            perOperation[label.operation, default: []].append((label.step, Double(count) / Double(label.count)))
                        }
                        series += plan.workload.operationNames.map { operation in
                            row(operation, perOperation[operation]?.sorted { $0.step < $1.step }.map(\.value))
                        }
                    } catch {
                        failures.append(ModeFailure(
                            scenario: plan.scenario.name, mode: mode, items: items, message: "under callgrind: \(error)"))
                    }
                }
            }
        }
        return series
    }

    // MARK: Output

    /// samples.csv: every value with its repetition; summary.csv: one row per scenario × mode ×
    /// items × operation × metric over all repetitions, in first-seen order.
    private func write(_ series: [MetricSeries]) throws {
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
        try results.write(samples.text, to: "samples.csv")
        try results.write(summary.text, to: "summary.csv")
        try results.write(try metadata.jsonText(), to: "run.json")
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
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return URL(fileURLWithPath: argument).standardizedFileURL.path
    }
}
