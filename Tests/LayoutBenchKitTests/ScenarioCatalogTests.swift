import Testing
import Foundation
@testable import LayoutBenchKit

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
        let root = try makeTree(["b.json": scenarioJSON(), "a.json": scenarioJSON(), "notes.txt": "x"])
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
