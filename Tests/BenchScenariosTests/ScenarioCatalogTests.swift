import Testing
import HarnessTestSupport
import Foundation
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios

@Suite struct ScenarioCatalogTests {
    /// A fresh directory with a `Scenarios/` folder holding the given files.
    func makeTree(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-tests-\(UUID().uuidString)").path
        let dir = root + "/Scenarios"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return root
    }

    @Test func listsJSONFilesSortedAndResolvesNamesAndPaths() throws {
        let root = try makeTree(["b.json": scenarioJSON().replacingOccurrences(of: #""name": "test""#, with: #""name": "test-b""#),
                                 "a.json": scenarioJSON(), "notes.txt": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let catalog = try ScenarioCatalog.locate(environment: [:], currentDirectory: root, executablePath: nil)
        #expect(catalog.directory == root + "/Scenarios")
        #expect(try catalog.names() == ["a", "b"])
        #expect(try catalog.files() == [root + "/Scenarios/a.json", root + "/Scenarios/b.json"])
        #expect(try catalog.resolve("b") == root + "/Scenarios/b.json")
        #expect(try catalog.resolve(root + "/Scenarios/a.json") == root + "/Scenarios/a.json")
        #expect(try catalog.load("a").name == "test")
        #expect(try catalog.loadAll().count == 2)
    }

    /// Rows are keyed by scenario name: a run of two scenarios named alike, or of one file twice,
    /// would keep one's rows and drop the other's without a word (issue 34).
    @Test func aRunRefusesTwoScenariosOfOneName() throws {
        let root = try makeTree(["b.json": scenarioJSON(), "a.json": scenarioJSON()])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let a = root + "/Scenarios/a.json", b = root + "/Scenarios/b.json"
        func message(_ arguments: [String]) -> String {
            do { _ = try ScenarioCatalog.loadTimed(arguments: arguments); return "loaded" } catch { return error.description }
        }
        #expect(message([a, b]) == "\(b): name: the scenario name \"test\" is also the name of \(a); rows are keyed by name, so each scenario of a run needs its own")
        #expect(message([a, a]) == "\(a): name: the scenario \"test\" is given twice; give each scenario once")
        #expect(message([a]) == "loaded")
    }

    /// `list` (and so the groups compare-commits builds from `list --json`) loads the suite as
    /// `run` does: two files of one scenario name are refused, naming both.
    @Test func theWholeSuiteRefusesTwoScenariosOfOneName() throws {
        let root = try makeTree(["b.json": scenarioJSON(), "a.json": scenarioJSON()])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let a = root + "/Scenarios/a.json", b = root + "/Scenarios/b.json"
        var message = "loaded"
        do { _ = try ScenarioCatalog(directory: root + "/Scenarios").loadAll() } catch { message = error.description }
        #expect(message == "\(b): name: the scenario name \"test\" is also the name of \(a); rows are keyed by name, so each scenario of a run needs its own")
    }

    @Test func environmentVariableAndExecutableLocation() throws {
        let root = try makeTree([:])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fromEnv = try ScenarioCatalog.locate(
            environment: [ScenarioCatalog.environmentVariable: root + "/Scenarios"], currentDirectory: "/", executablePath: nil)
        #expect(fromEnv.directory == root + "/Scenarios")
        // Next to the package of the executable.
        try "// package".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/.build/debug", withIntermediateDirectories: true)
        let fromExecutable = try ScenarioCatalog.locate(
            environment: [:], currentDirectory: "/", executablePath: root + "/.build/debug/layout-bench")
        #expect(URL(fileURLWithPath: fromExecutable.directory).resolvingSymlinksInPath()
            == URL(fileURLWithPath: root + "/Scenarios").resolvingSymlinksInPath())
        #expect(throws: ScenarioError.self) {
            try ScenarioCatalog.locate(environment: [ScenarioCatalog.environmentVariable: root + "/nope"], currentDirectory: root, executablePath: nil)
        }
    }

    @Test func missingFile() throws {
        let root = try makeTree(["a.json": scenarioJSON()])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let catalog = ScenarioCatalog(directory: root + "/Scenarios")
        #expect(throws: ScenarioError(file: root + "/Scenarios/nope.json", path: "", message: "no scenario named 'nope'; available: a")) {
            try catalog.resolve("nope")
        }
        #expect(throws: ScenarioError(file: "Scenarios/missing.json", path: "", message: "no such file")) {
            try catalog.load("Scenarios/missing.json")
        }
        #expect(ScenarioError(file: "Scenarios/missing.json", path: "", message: "no such file").description
            == "Scenarios/missing.json: no such file")
    }

    @Test func loadErrorsNameTheFile() throws {
        let root = try makeTree(["bad.json": scenarioJSON(layout: #"{"kind": "waterfall", "columns": 0}"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let catalog = ScenarioCatalog(directory: root + "/Scenarios")
        #expect(throws: ScenarioError(file: root + "/Scenarios/bad.json", path: "layout.columns", message: "expected an integer from 1 to 1000, got 0")) {
            try catalog.load("bad")
        }
    }
}

@Suite struct ScenarioPathArgumentTests {
    /// `run /some/dir/x.json` from a directory without `Scenarios/`: a path needs no scenarios
    /// directory; a name still does, and its error says so.
    @Test func pathsLoadWithoutAScenariosDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-path-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try scenarioJSON().write(toFile: root + "/x.json", atomically: true, encoding: .utf8)
        let noDirectory = { () throws(ScenarioError) -> ScenarioCatalog in
            try ScenarioCatalog.locate(environment: [:], currentDirectory: root, executablePath: nil)
        }
        let loaded = try ScenarioCatalog.loadTimed(arguments: [root + "/x.json"], locate: noDirectory)
        #expect(loaded.map(\.scenario.name) == ["test"])
        #expect(try ScenarioCatalog.load(argument: root + "/x.json", locate: noDirectory).file == root + "/x.json")
        #expect(throws: ScenarioError.self) { try ScenarioCatalog.loadTimed(arguments: ["x"], locate: noDirectory) }
        #expect(throws: ScenarioError.self) { try ScenarioCatalog.loadTimed(arguments: [], locate: noDirectory) }
        do {
            _ = try ScenarioCatalog.loadTimed(arguments: [root + "/x.json", "x"], locate: noDirectory)
            Issue.record("a name without a scenarios directory loaded")
        } catch {
            #expect(error.message.contains("no scenarios directory"))
        }
    }
}
