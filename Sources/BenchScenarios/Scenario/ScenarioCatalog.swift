import Foundation
import BenchPlatform
import BenchResults

/// The scenarios directory and the files in it.
///
/// `locate()` looks, in this order, at `$LAYOUT_BENCH_SCENARIOS` (used as given, and an error
/// when it is not a directory), `Scenarios/` in the current directory, and `Scenarios/` next
/// to a `Package.swift` in a parent directory of the executable (so `.build/release/layout-bench`
/// finds the package's suite from anywhere).
///
/// A SCENARIO argument is a path when it contains `/` or ends in `.json`, otherwise the name
/// of a file in the directory without `.json`.
package struct ScenarioCatalog: Hashable, Sendable {
    package static let environmentVariable = "LAYOUT_BENCH_SCENARIOS"

    /// The scenarios directory.
    package var directory: String

    /// Finds the scenarios directory (see the type's documentation).
    package static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = Bundle.main.executablePath ?? CommandLine.arguments.first
    ) throws(ScenarioError) -> ScenarioCatalog {
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            guard isDirectory(fromEnvironment) else {
                throw ScenarioError(file: fromEnvironment, path: "",
                                    message: "\(environmentVariable) does not name a directory")
            }
            return ScenarioCatalog(directory: fromEnvironment)
        }
        let local = joinPath(currentDirectory, "Scenarios")
        if isDirectory(local) { return ScenarioCatalog(directory: local) }
        if let executablePath {
            var url = URL(fileURLWithPath: executablePath, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
                .standardizedFileURL.resolvingSymlinksInPath().deletingLastPathComponent()
            while url.path != "/" && !url.path.isEmpty {
                let scenarios = url.appendingPathComponent("Scenarios").path
                if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path), isDirectory(scenarios) {
                    return ScenarioCatalog(directory: scenarios)
                }
                url.deleteLastPathComponent()
            }
        }
        throw ScenarioError(file: "Scenarios", path: "",
                            message: "no scenarios directory: not in the current directory (\(currentDirectory)), "
                                + "not next to the executable's package; set \(environmentVariable)")
    }

    /// Paths of every `*.json` file in the directory, sorted by file name.
    package func files() throws(ScenarioError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ScenarioError(file: directory, path: "", message: "cannot list the scenarios directory")
        }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { joinPath(directory, $0) }
    }

    /// Scenario names (file names without `.json`), sorted.
    package func names() throws(ScenarioError) -> [String] {
        try files().map { String(($0 as NSString).lastPathComponent.dropLast(5)) }
    }

    /// Whether a SCENARIO argument is a path to a file (it contains `/` or ends in `.json`)
    /// rather than the name of a file in the scenarios directory.
    package static func isPath(_ argument: String) -> Bool {
        argument.contains("/") || argument.hasSuffix(".json")
    }

    /// Loads the scenarios that SCENARIO arguments designate (all of the directory's when there
    /// are none), timed. The scenarios directory is located (by `locate`) only when an argument
    /// is a name or there are no arguments, so paths to files work from any directory.
    package static func loadTimed(
        arguments: [String], locate: () throws(ScenarioError) -> ScenarioCatalog = { () throws(ScenarioError) in try ScenarioCatalog.locate() }
    ) throws(ScenarioError) -> [TimedScenario] {
        var catalog: ScenarioCatalog?
        func located() throws(ScenarioError) -> ScenarioCatalog {
            if let catalog { return catalog }
            let found = try locate()
            catalog = found
            return found
        }
        var loaded: [TimedScenario] = []
        if arguments.isEmpty { loaded = try located().loadTimed(nil) }
        for argument in arguments {
            let catalog = isPath(argument) ? ScenarioCatalog(directory: "") : try located()
            loaded += try catalog.loadTimed(argument)
        }
        try checkUniqueNames(loaded.map(\.scenario))
        return loaded
    }

    /// Rows are keyed by scenario name: two scenarios of one run with the same `name` (or one
    /// file given twice) would mix their rows, so the second is refused, naming both files.
    static func checkUniqueNames(_ scenarios: [Scenario]) throws(ScenarioError) {
        var files: [String: String] = [:]
        for scenario in scenarios {
            if let first = files[scenario.name] {
                throw ScenarioError(file: scenario.file, path: "name", message: first == scenario.file
                    ? "the scenario \(JSONValue.quoted(scenario.name)) is given twice; give each scenario once"
                    : "the scenario name \(JSONValue.quoted(scenario.name)) is also the name of \(first); rows are keyed by name, so each scenario of a run needs its own")
            }
            files[scenario.name] = scenario.file
        }
    }

    /// Loads the scenario one SCENARIO argument designates, locating the scenarios directory only
    /// for a name (see `loadTimed(arguments:locate:)`).
    package static func load(
        argument: String, locate: () throws(ScenarioError) -> ScenarioCatalog = { () throws(ScenarioError) in try ScenarioCatalog.locate() }
    ) throws(ScenarioError) -> Scenario {
        try loadTimed(arguments: [argument], locate: locate)[0].scenario
    }

    /// The file a SCENARIO argument designates; an error names the missing file.
    package func resolve(_ argument: String) throws(ScenarioError) -> String {
        if Self.isPath(argument) {
            try Self.checkFile(argument)
            return argument
        }
        let path = joinPath(directory, argument + ".json")
        guard FileManager.default.fileExists(atPath: path) else {
            let available = (try? names()) ?? []
            throw ScenarioError(file: path, path: "",
                                message: "no scenario named '\(argument)'"
                                    + (available.isEmpty ? " (the directory has none)" : "; available: " + available.joined(separator: ", ")))
        }
        try Self.checkFile(path)
        return path
    }

    /// Loads the scenario a SCENARIO argument designates.
    package func load(_ argument: String) throws(ScenarioError) -> Scenario {
        try Scenario.load(path: try resolve(argument))
    }

    /// A scenario and how long reading and parsing its file (and data file) took.
    package struct TimedScenario {
        package var scenario: Scenario
        package var seconds: Double
    }

    /// Loads the scenario a SCENARIO argument designates (all of the directory's for nil), timed.
    package func loadTimed(_ argument: String?) throws(ScenarioError) -> [TimedScenario] {
        let paths = argument == nil ? try files() : [try resolve(argument!)]
        var loaded: [TimedScenario] = []
        for path in paths {
            let start = MonotonicClock.now()
            let scenario = try Scenario.load(path: path)
            loaded.append(TimedScenario(scenario: scenario, seconds: Double(MonotonicClock.now() - start) / 1e9))
        }
        return loaded
    }

    /// Loads every scenario of the directory, in file-name order; the first error stops. The
    /// suite is checked as `run` checks it (`checkUniqueNames`): `list`, and the drivers that
    /// build their groups from `list --json`, never pass a suite `run` refuses.
    package func loadAll() throws(ScenarioError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for path in try files() { scenarios.append(try Scenario.load(path: path)) }
        try Self.checkUniqueNames(scenarios)
        return scenarios
    }

    // MARK: Files

    static func checkFile(_ path: String) throws(ScenarioError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioError(file: path, path: "", message: "no such file")
        }
        guard !isDirectory.boolValue else { throw ScenarioError(file: path, path: "", message: "is a directory, not a scenario file") }
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

extension Scenario {
    /// Reads and parses the file at `path`; errors name `path` as given.
    package static func load(path: String) throws(ScenarioError) -> Scenario {
        try ScenarioCatalog.checkFile(path)
        let bytes: [UInt8]
        do { bytes = try readFileBytes(path) } catch {
            throw ScenarioError(file: path, path: "", message: "cannot read the file: \(error.reason)")
        }
        return try Scenario(parsing: bytes, file: path)
    }
}
