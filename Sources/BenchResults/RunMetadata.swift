import Foundation
import BenchPlatform

/// run.json (docs/csv.md): where and how a run was made, so that two runs can be judged comparable.
/// Encoded with sorted keys and snake_case names (`jsonText()`).
///
/// Use: `var metadata = RunMetadata.begin(runID:commandLine:)` before measuring (records the start
/// time and load), `metadata.finish()` afterwards (end time and load), then write `jsonText()`.
public struct RunMetadata: Codable, Sendable, Equatable {
    public struct Machine: Codable, Sendable, Equatable {
        public var hostname: String
        public var cpuModel: String
        public var cores: Int
        public var activeCores: Int
        public var memoryBytes: UInt64
    }
    public struct OperatingSystem: Codable, Sendable, Equatable {
        /// uname: sysname, release, version, machine.
        public var name: String
        public var release: String
        public var version: String
        public var architecture: String
        /// PRETTY_NAME from /etc/os-release ("unknown" when absent).
        public var prettyName: String
        /// /proc/sys/kernel/randomize_va_space (0 = ASLR off), when readable.
        public var aslr: String?
    }
    public struct Toolchain: Codable, Sendable, Equatable {
        /// First line of `swift --version`, when swift is on PATH.
        public var swiftVersion: String?
        /// The compiler that built this binary, from `#if compiler(>=…)` checks (e.g. ">=6.3").
        public var compiler: String
        /// "debug" or "release" (`#if DEBUG`).
        public var configuration: String
    }
    public struct Source: Codable, Sendable, Equatable {
        /// `git rev-parse --short HEAD` in the package that built the binary (`BuildPackage`;
        /// in the current directory when that is not known), or "unknown".
        public var commit: String
        /// Whether `git status --porcelain` lists anything; nil outside git.
        public var dirty: Bool?
        /// The folder git was asked in: the package that built the binary (absent in runs made
        /// before it was recorded).
        public var package: String? = nil
    }
    public struct Allocator: Codable, Sendable, Equatable {
        public var name: String
        public var version: String?
        /// Whether a Swift [Double] allocation was seen by jemalloc's thread counter.
        public var countsSwiftAllocations: Bool
    }
    public struct Clock: Codable, Sendable, Equatable {
        public var name: String
        public var readCostNanoseconds: Double
    }
    public struct Counters: Codable, Sendable, Equatable {
        /// "perf_event_open" when hardware instruction counters work, else "unsupported".
        public var instructions: String
        /// Whether valgrind (callgrind) is on PATH, for `--instructions`.
        public var callgrind: Bool
        public var valgrindPath: String?
        public var allocatedBytes: Bool
        public var allocationCounts: Bool
    }
    public struct Load: Codable, Sendable, Equatable {
        /// 1, 5 and 15 minute load averages from /proc/loadavg (empty when unreadable).
        public var start: [Double]
        public var end: [Double]?
        /// Written by a driver that runs many processes (scripts/compare-commits into its merged
        /// run.json): the machine before the driver started anything, so that a warning about a busy
        /// machine speaks of the machine, not of the driver's own processes. Absent from a plain run.
        public var before: MachineLoad?
        /// How many processes the driver itself kept running at once while `start` and `end` were
        /// read (they include them); absent from a plain run, which runs one at a time.
        public var ownProcesses: Int?

        public init(start: [Double], end: [Double]?, before: MachineLoad? = nil, ownProcesses: Int? = nil) {
            self.start = start
            self.end = end
            self.before = before
            self.ownProcesses = ownProcesses
        }
    }
    /// The machine's load at one moment, from /proc/loadavg and the process table.
    public struct MachineLoad: Codable, Sendable, Equatable {
        /// 1, 5 and 15 minute load averages.
        public var average: [Double]
        /// Processes running or ready to run at that moment (/proc/loadavg's fourth field, the
        /// reader itself not counted).
        public var running: Int?
        /// The busiest processes of others at that moment, e.g. "swift-frontend 97% cpu", busiest first.
        public var busiest: [String]?
        /// The CPU all processes of others took over the second watched, in cores (records before
        /// it have only `busiest`, the five busiest at 5% or more).
        public var othersCores: Double?

        public init(average: [Double], running: Int? = nil, busiest: [String]? = nil, othersCores: Double? = nil) {
            self.average = average
            self.running = running
            self.busiest = busiest
            self.othersCores = othersCores
        }
    }

    public var schema: Int
    public var runID: String
    public var machine: Machine
    public var os: OperatingSystem
    public var toolchain: Toolchain
    public var source: Source
    public var allocator: Allocator
    public var clock: Clock
    public var counters: Counters
    public var load: Load
    /// ISO 8601 UTC, e.g. "2026-11-21T05:30:00Z".
    public var startTime: String
    public var endTime: String?
    public var commandLine: [String]
    /// Measured harness costs, when the caller measured them (`HarnessOverhead.measure()`).
    public var harnessOverhead: HarnessOverhead?
    /// The value of SWIFT_DETERMINISTIC_HASHING (set to 1 for reproducible hashing), if set.
    public var swiftDeterministicHashing: String?
    /// How many independent repetitions the run measured, and how (`processes` or `in-process`).
    public var repetitions: Int?
    public var isolation: String?
    /// When each repetition started, in seconds after the first: how far apart in time the
    /// repetitions that make the intervals were (docs/methodology.md, "Intervals").
    public var repetitionStartSeconds: [Double]? = nil
    /// How long reading and checking each scenario file took (so a slow load is never mistaken
    /// for a slow layout), when the caller timed it.
    public var scenarioLoads: [ScenarioLoad]? = nil
    /// The LayoutBench release the binary was built against (`LayoutBench.version`; absent in
    /// runs made before it was recorded).
    public var layoutBenchVersion: String? = nil
    /// The operations timed on a prefix of their trace (too slow for a whole pass within the
    /// sampling budget), with the prefix's length (`coverage` in run.json; see `OperationCoverage`).
    public var coverage: [OperationCoverage]? = nil
    /// What this OS let the run measure and what it did not (`PlatformCapabilities.probe()`:
    /// `capabilities` in run.json, with `os`, `measured` and `not_measured`); absent from runs
    /// written before it was recorded.
    public var capabilities: PlatformCapabilities? = nil
    /// How every metric the harness that wrote the run can write is judged (`metrics` in run.json:
    /// name, unit, direction, kind, threshold, floor, the values it can take, meaning), which
    /// `compare` and `export` read rather than a list of their own; absent from runs written
    /// before it was recorded (their metrics are judged as this binary describes them).
    public var metrics: [Metric]? = nil

    /// One scenario file's load: read, parsed, its data built (`scenario_loads` in run.json).
    public struct ScenarioLoad: Codable, Sendable, Equatable {
        public var scenario: String
        public var file: String
        public var seconds: Double

        public init(scenario: String, file: String, seconds: Double) {
            self.scenario = scenario
            self.file = file
            self.seconds = seconds
        }
    }

    /// Collects everything known at the start of a run. `directory` is where git is asked: the
    /// package that built the binary (`BuildPackage.directory`), else the current directory.
    public static func begin(
        runID: String,
        commandLine: [String] = CommandLine.arguments,
        directory: String = BuildPackage.directory ?? FileManager.default.currentDirectoryPath
    ) -> RunMetadata {
        let info = ProcessInfo.processInfo
        let uname = MachineFacts.uname()
        let valgrind = findOnPath("valgrind")
        var metadata = RunMetadata(
            schema: CSVSchema.version,
            runID: runID,
            machine: Machine(
                hostname: info.hostName,
                cpuModel: MachineFacts.cpuModel() ?? "unknown",
                cores: info.processorCount,
                activeCores: info.activeProcessorCount,
                memoryBytes: info.physicalMemory
            ),
            os: OperatingSystem(
                name: uname.sysname, release: uname.release, version: uname.version,
                architecture: uname.machine, prettyName: MachineFacts.osPrettyName() ?? "unknown",
                aslr: MachineFacts.aslr()
            ),
            toolchain: Toolchain(
                swiftVersion: commandOutput("swift", ["--version"])?
                    .split(separator: "\n").first.map(String.init),
                compiler: compilerVersion,
                configuration: buildConfiguration
            ),
            source: gitSource(directory: directory),
            allocator: Allocator(
                name: AllocationCounters.allocatorName,
                version: AllocationCounters.version,
                countsSwiftAllocations: AllocationCounters.isRoutingSwiftAllocations()
            ),
            clock: Clock(name: MonotonicClock.name, readCostNanoseconds: MonotonicClock.readCost()),
            counters: Counters(
                instructions: PerfEvents.instructionCounterWorks() ? "perf_event_open" : CSVSchema.unsupported,
                callgrind: valgrind != nil,
                valgrindPath: valgrind,
                allocatedBytes: ThreadAllocationCounter() != nil,
                allocationCounts: AllocationCounters.allocationCount() != nil
            ),
            load: Load(start: MachineFacts.loadAverage() ?? [], end: nil),
            startTime: utcTimestamp(Date()),
            endTime: nil,
            commandLine: commandLine,
            harnessOverhead: nil,
            swiftDeterministicHashing: info.environment["SWIFT_DETERMINISTIC_HASHING"],
            layoutBenchVersion: LayoutBench.version
        )
        metadata.capabilities = PlatformCapabilities.probe()
        return metadata
    }

    /// Records the end time and the load average at the end.
    public mutating func finish(at date: Date = Date()) {
        endTime = Self.utcTimestamp(date)
        load.end = MachineFacts.loadAverage() ?? []
    }

    /// Pretty-printed JSON with sorted keys and snake_case names, ending with a newline.
    public func jsonText() throws -> String {
        String(decoding: try HarnessJSON.encoder(.file).encode(self), as: UTF8.self) + "\n"
    }

    public static func decode(_ text: String) throws -> RunMetadata {
        try decoder.decode(RunMetadata.self, from: Data(text.utf8))
    }

    /// The decoder of run.json and of its records (`MachineLoad`: a driver reads `load.before`).
    package static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        // Inverse of .convertToSnakeCase for our names ("run_id" → "runID", which
        // .convertFromSnakeCase would turn into "runId").
        decoder.keyDecodingStrategy = .custom { path in
            let key = path.last!.stringValue
            var parts = key.split(separator: "_").map(String.init)
            guard parts.count > 1 else { return path.last! }
            for i in 1..<parts.count { parts[i] = parts[i] == "id" ? "ID" : parts[i].prefix(1).uppercased() + parts[i].dropFirst() }
            return SnakeCaseKey(stringValue: parts.joined())
        }
        return decoder
    }

    // MARK: Probes

    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    public static var compilerVersion: String {
        #if compiler(>=6.4)
        return ">=6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #elseif compiler(>=6.0)
        return "6.0"
        #else
        return "<6.0"
        #endif
    }

    /// Short commit and dirty flag from git in `directory`; "unknown"/nil outside a work tree.
    public static func gitSource(directory: String) -> Source {
        guard let commit = commandOutput("git", ["rev-parse", "--short", "HEAD"], directory: directory),
              !commit.isEmpty, !commit.contains("\n")
        else { return Source(commit: "unknown", dirty: nil, package: directory) }
        let status = commandOutput("git", ["status", "--porcelain"], directory: directory)
        return Source(commit: commit, dirty: status.map { !$0.isEmpty }, package: directory)
    }

    static func utcTimestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

private struct SnakeCaseKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
