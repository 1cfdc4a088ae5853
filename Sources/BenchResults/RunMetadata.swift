import Foundation
import BenchPlatform

/// run.json (docs/csv.md): where and how a run was made, so that two runs can be judged comparable.
/// Encoded with sorted keys and snake_case names (`jsonText()`).
///
/// Use: `var metadata = RunMetadata.begin(runID:commandLine:)` before measuring (records the start
/// time and load), `metadata.finish()` afterwards (end time and load), then write `jsonText()`.
package struct RunMetadata: Codable, Sendable, Equatable {
    package struct Machine: Codable, Sendable, Equatable {
        package var hostname: String
        package var cpuModel: String
        package var cores: Int
        package var activeCores: Int
        package var memoryBytes: UInt64
    }
    package struct OperatingSystem: Codable, Sendable, Equatable {
        /// uname: sysname, release, version, machine.
        package var name: String
        package var release: String
        package var version: String
        package var architecture: String
        /// PRETTY_NAME from /etc/os-release ("unknown" when absent).
        package var prettyName: String
        /// /proc/sys/kernel/randomize_va_space (0 = ASLR off), when readable.
        package var aslr: String?
    }
    package struct Toolchain: Codable, Sendable, Equatable {
        /// First line of `swift --version`, when swift is on PATH.
        package var swiftVersion: String?
        /// The compiler that built this binary, from `#if compiler(>=…)` checks (e.g. ">=6.3").
        package var compiler: String
        /// "debug" or "release" (`#if DEBUG`).
        package var configuration: String
    }
    package struct Source: Codable, Sendable, Equatable {
        /// `git rev-parse --short HEAD` in the package that built the binary (`BuildPackage`;
        /// in the current directory when that is not known), or "unknown".
        package var commit: String
        /// Whether `git status --porcelain` lists anything; nil outside git.
        package var dirty: Bool?
        /// The folder git was asked in: the package that built the binary (absent in runs made
        /// before it was recorded).
        package var package: String? = nil
    }
    package struct Allocator: Codable, Sendable, Equatable {
        package var name: String
        package var version: String?
        /// Whether a Swift [Double] allocation was seen by jemalloc's thread counter.
        package var countsSwiftAllocations: Bool
    }
    package struct Clock: Codable, Sendable, Equatable {
        package var name: String
        package var readCostNanoseconds: Double
    }
    package struct Counters: Codable, Sendable, Equatable {
        /// "perf_event_open" when hardware instruction counters work, else "unsupported".
        package var instructions: String
        /// Whether valgrind (callgrind) is on PATH, for `--instructions`.
        package var callgrind: Bool
        package var valgrindPath: String?
        package var allocatedBytes: Bool
        package var allocationCounts: Bool
    }
    package struct Load: Codable, Sendable, Equatable {
        /// 1, 5 and 15 minute load averages from /proc/loadavg (empty when unreadable).
        package var start: [Double]
        package var end: [Double]?
        /// Written by a driver that runs many processes (scripts/compare-commits into its merged
        /// run.json): the machine before the driver started anything, so that a warning about a busy
        /// machine speaks of the machine, not of the driver's own processes. Absent from a plain run.
        package var before: MachineLoad?
        /// How many processes the driver itself kept running at once while `start` and `end` were
        /// read (they include them); absent from a plain run, which runs one at a time.
        package var ownProcesses: Int?

        package init(start: [Double], end: [Double]?, before: MachineLoad? = nil, ownProcesses: Int? = nil) {
            self.start = start
            self.end = end
            self.before = before
            self.ownProcesses = ownProcesses
        }
    }
    /// The machine's load at one moment, from /proc/loadavg and the process table.
    package struct MachineLoad: Codable, Sendable, Equatable {
        /// 1, 5 and 15 minute load averages.
        package var average: [Double]
        /// Processes running or ready to run at that moment (/proc/loadavg's fourth field, the
        /// reader itself not counted).
        package var running: Int?
        /// The busiest processes of others at that moment, e.g. "swift-frontend 97% cpu", busiest first.
        package var busiest: [String]?
        /// The CPU all processes of others took over the second watched, in cores (records before
        /// it have only `busiest`, the five busiest at 5% or more).
        package var othersCores: Double?

        package init(average: [Double], running: Int? = nil, busiest: [String]? = nil, othersCores: Double? = nil) {
            self.average = average
            self.running = running
            self.busiest = busiest
            self.othersCores = othersCores
        }
    }

    package var schema: Int
    package var runID: String
    package var machine: Machine
    package var os: OperatingSystem
    package var toolchain: Toolchain
    package var source: Source
    package var allocator: Allocator
    package var clock: Clock
    package var counters: Counters
    package var load: Load
    /// ISO 8601 UTC, e.g. "2026-11-21T05:30:00Z".
    package var startTime: String
    package var endTime: String?
    package var commandLine: [String]
    /// Measured harness costs, when the caller measured them (`HarnessOverhead.measure()`).
    package var harnessOverhead: HarnessOverhead?
    /// The value of SWIFT_DETERMINISTIC_HASHING (set to 1 for reproducible hashing), if set.
    package var swiftDeterministicHashing: String?
    /// How many independent repetitions the run measured, and how (`processes` or `in-process`).
    package var repetitions: Int?
    package var isolation: String?
    /// When each repetition started, in seconds after the first: how far apart in time the
    /// repetitions that make the intervals were (docs/methodology.md, "Intervals").
    package var repetitionStartSeconds: [Double]? = nil
    /// How long reading and checking each scenario file took (so a slow load is never mistaken
    /// for a slow layout), when the caller timed it.
    package var scenarioLoads: [ScenarioLoad]? = nil
    /// The LayoutBench release the binary was built against (`LayoutBench.version`; absent in
    /// runs made before it was recorded).
    package var layoutBenchVersion: String? = nil
    /// The operations timed on a prefix of their trace (too slow for a whole pass within the
    /// sampling budget), with the prefix's length (`coverage` in run.json; see `OperationCoverage`).
    package var coverage: [OperationCoverage]? = nil
    /// What this OS let the run measure and what it did not (`PlatformCapabilities.probe()`:
    /// `capabilities` in run.json, with `os`, `measured` and `not_measured`); absent from runs
    /// written before it was recorded.
    package var capabilities: PlatformCapabilities? = nil
    /// How every metric the harness that wrote the run can write is judged (`metrics` in run.json:
    /// name, unit, direction, kind, threshold, floor, the values it can take, meaning), which
    /// `compare` and `export` read rather than a list of their own; absent from runs written
    /// before it was recorded (their metrics are judged as this binary describes them).
    package var metrics: [Metric]? = nil

    /// One scenario file's load: read, parsed, its data built (`scenario_loads` in run.json).
    package struct ScenarioLoad: Codable, Sendable, Equatable {
        package var scenario: String
        package var file: String
        package var seconds: Double

        package init(scenario: String, file: String, seconds: Double) {
            self.scenario = scenario
            self.file = file
            self.seconds = seconds
        }
    }

    /// Collects everything known at the start of a run. `directory` is where git is asked: the
    /// package that built the binary (`BuildPackage.directory`), else the current directory.
    package static func begin(
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
    package mutating func finish(at date: Date = Date()) {
        endTime = Self.utcTimestamp(date)
        load.end = MachineFacts.loadAverage() ?? []
    }

    /// Pretty-printed JSON with sorted keys and snake_case names, ending with a newline.
    package func jsonText() throws -> String {
        String(decoding: try HarnessJSON.encoder(.file).encode(self), as: UTF8.self) + "\n"
    }

    package static func decode(_ text: String) throws -> RunMetadata {
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

    package static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    package static var compilerVersion: String {
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
    package static func gitSource(directory: String) -> Source {
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
