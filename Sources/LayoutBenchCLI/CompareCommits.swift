import ArgumentParser
import Foundation
import BenchDriver
import BenchPlatform
import BenchResults
import BenchScenarios

/// `layout-bench compare-commits`: the driver of scripts/compare-commits (which builds the two
/// commits and passes its arguments on). Its options are parsed by `CompareCommitsArguments`, as
/// the script always took them: a bad one is one line and exit status 1. The steps are
/// `CompareDriver`'s, shared with `compare-builds`.
struct CompareCommitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare-commits",
        abstract: "Compare two commits' builds in interleaved rounds (scripts/compare-commits builds them).",
        discussion: "Run `layout-bench compare-commits --help` for its options (the same as scripts/compare-commits).")

    @Argument(parsing: .captureForPassthrough, help: "BASE HEAD [SCENARIO ...] and the options of scripts/compare-commits.")
    var arguments: [String] = []

    func run() throws { try CompareDriver.commits.run(arguments) }
}

/// `compare-builds BASE HEAD [SCENARIO …]`: compare-commits of two executables already built — in a
/// layout author's package, the build before a change and the build after it (`CompareDriver.builds`).
struct CompareBuildsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "compare-builds",
            abstract: "Compare two builds of this executable (before and after a change) in interleaved rounds.",
            discussion: "Run `\(commandName) compare-builds --help` for its options (those of compare-commits).")
    }

    @Argument(parsing: .captureForPassthrough, help: "BASE HEAD [SCENARIO ...]: two executables, and the options of compare-commits.")
    var arguments: [String] = []

    func run() throws { try CompareDriver.builds.run(arguments) }
}

/// The one implementation of `compare-commits` and `compare-builds`: help, parse, prepare, run.
/// The two differ only in what BASE and HEAD are (commits, or executables already built) and so
/// in their usage text and in `prepare`; their errors are one line, `<executable>: error: …`, as
/// every subcommand's.
enum CompareDriver {
    case commits
    case builds

    var usage: String {
        switch self {
        case .commits: return CompareCommitsArguments.usage
        case .builds: return CompareCommitsArguments.buildsUsage(command: commandName)
        }
    }

    func run(_ arguments: [String]) throws {
        if arguments.contains("-h") || arguments.contains("--help") {
            StandardError.writeLine(usage)
            return
        }
        var parsed: CompareCommitsArguments
        do { parsed = try CompareCommitsArguments.parse(arguments, builds: self == .builds) } catch {
            printError(error.message)
            if error.showsUsage { StandardError.writeLine(usage) }
            throw ExitCode(1)
        }
        if self == .builds { parsed = try Self.prepareBuilds(parsed) }
        let prepared = parsed
        let status = try driverStatus { () throws(DriverError) in try CompareCommits(arguments: prepared).run() }
        if status != 0 { throw ExitCode(status) }
    }

    /// The scenarios are the current directory's (`ScenarioCatalog.locate()`, as `run` finds
    /// them), found before anything runs: their folder is handed to the children, which run where
    /// each binary is, through `LAYOUT_BENCH_SCENARIOS`, and without one the command is one error
    /// line (not a verification that failed). The binaries' and scenarios' paths are made
    /// absolute for the same reason.
    private static func prepareBuilds(_ given: CompareCommitsArguments) throws -> CompareCommitsArguments {
        var parsed = given
        let here = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : here + "/" + path }
        let catalog: ScenarioCatalog
        do { catalog = try ScenarioCatalog.locate() } catch {
            printError("compare-builds: \(error)")
            throw ExitCode(1)
        }
        setenv(ScenarioCatalog.environmentVariable, absolute(catalog.directory), 1)
        parsed.baseBinary = parsed.baseBinary.map(absolute)
        parsed.headBinary = parsed.headBinary.map(absolute)
        parsed.positional = Array(parsed.positional.prefix(2))
            + parsed.scenarios.map { ScenarioCatalog.isPath($0) ? absolute($0) : $0 }
        return parsed
    }
}

/// `layout-bench history`: the driver of scripts/history.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Measure every commit of a range, find the steps between neighbours (scripts/history builds them).",
        discussion: "Run `layout-bench history --help` for its options (the same as scripts/history).")

    @Argument(parsing: .captureForPassthrough, help: "[RANGE] [SCENARIO ...] and the options of scripts/history.")
    var arguments: [String] = []

    func run() throws {
        if arguments.contains("-h") || arguments.contains("--help") {
            StandardError.writeLine(HistoryArguments.usage)
            return
        }
        let parsed: HistoryArguments
        do { parsed = try HistoryArguments.parse(arguments) } catch {
            printError(error.message)
            if error.showsUsage { StandardError.writeLine(HistoryArguments.usage) }
            throw ExitCode(1)
        }
        let status = try driverStatus { () throws(DriverError) in try History(arguments: parsed).run() }
        if status != 0 { throw ExitCode(status) }
    }
}

/// Runs a driver; its error is one line on stderr, `<executable>: error: …` as every
/// subcommand's (the lines a child left after it, indented), and exit 1.
private func driverStatus(_ body: () throws(DriverError) -> Int32) throws -> Int32 {
    do {
        return try body()
    } catch {
        if !error.isSilent { StandardError.writeLine(error.description(command: commandName)) }
        throw ExitCode(1)
    }
}

/// `layout-bench merge-rounds OUT ROUND …` (hidden): what compare-commits does with each side's
/// rounds (`RoundMerge`), for scripts and their tests.
struct MergeRoundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-rounds",
        abstract: "Merge rounds (results directories, or folders of per-group runs g-1, g-2, …) into one results directory.",
        shouldDisplay: false)

    @Option(name: .customLong("machine-before"), help: "The machine's load before the driver started (machine-load's JSON), for run.json's load.before.")
    var machineBefore: String?

    @Option(name: .customLong("own"), help: "How many processes the driver kept running at once (run.json's load.own_processes).")
    var ownProcesses: Int?

    @Argument(help: "The merged results directory.")
    var out: String

    @Argument(help: "The rounds, in order.")
    var rounds: [String]

    func run() throws {
        var before: RunMetadata.MachineLoad?
        if let machineBefore {
            guard let load = MachineLoad.parse(machineBefore) else {
                throw ValidationError("--machine-before expects the JSON object machine-load prints, got '\(machineBefore)'")
            }
            before = load
        }
        _ = try driverStatus { () throws(DriverError) in
            try RoundMerge.merge(rounds: rounds, into: out, load: RoundMerge.Load(before: before, ownProcesses: ownProcesses))
            return 0
        }
    }
}

/// `layout-bench machine-load` (hidden): the machine's load as compare-commits records it first.
struct MachineLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "machine-load", abstract: "Print the machine's load, others' running processes and the busiest of them, as JSON.",
        shouldDisplay: false)

    func run() throws {
        try reportingErrors {
            guard let load = MachineLoad.measure() else {
                throw CommandFailure(message: "no /proc/loadavg here: the load is read on Linux only")
            }
            print(MachineLoad.json(load))
        }
    }
}
