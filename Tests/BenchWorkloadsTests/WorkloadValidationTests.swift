import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads

/// A scenario its workload cannot run is refused when it loads (`Workload.validate`), with one error
/// naming the file and JSON path, before anything is generated or measured; and no code outside a
/// workload's own files asks which workload it has.
@Suite struct WorkloadValidationTests {
    static let text = #"{"generate": {"sections": 1, "heights": {"distribution": "text", "minWords": 3, "maxWords": 30}, "seed": 1}}"#
    static let uniform = #"{"generate": {"sections": 1, "heights": {"distribution": "uniform", "min": 44, "max": 88}, "seed": 1}}"#
    static let list = #"{"kind": "list"}"#

    static func planError(_ json: String) -> ScenarioError? { HarnessTestSupport.planError(json) }

    @Test func offsetsNeedTextHeights() throws {
        let json = scenarioJSON(layout: Self.list, data: Self.uniform, workload: #"{"kind": "offsets"}"#, modes: #"["fenwick"]"#)
        let error = try #require(Self.planError(json))
        #expect(error.description == #"test.json: data.generate.heights: the offsets workload measures rows from their text; expected "distribution": "text""#)
        #expect(Self.planError(scenarioJSON(layout: Self.list, data: Self.text, workload: #"{"kind": "offsets"}"#, modes: #"["fenwick"]"#)) == nil)
    }

    @Test func offsetsNeedAList() throws {
        let json = scenarioJSON(data: Self.text, workload: #"{"kind": "offsets"}"#, modes: #"["fenwick"]"#)
        let error = try #require(Self.planError(json))
        #expect(error.path == "layout.kind")
        #expect(error.message.contains("needs a list"))
    }

    @Test func heightPassNeedsTexts() throws {
        let json = scenarioJSON(layout: Self.list, data: Self.uniform, workload: #"{"kind": "height-pass"}"#, modes: #"["keyed"]"#)
        let error = try #require(Self.planError(json))
        #expect(error.path == "data.generate.heights.distribution")
        #expect(Self.planError(scenarioJSON(layout: Self.list, data: Self.text, workload: #"{"kind": "height-pass"}"#, modes: #"["keyed"]"#)) == nil)
        // Explicit items with texts are measured; without, refused at `data`.
        let withTexts = #"{"sections": [[{"h": 44, "text": "a row"}, {"h": 44, "text": "another"}]]}"#
        #expect(Self.planError(scenarioJSON(layout: Self.list, data: withTexts, workload: #"{"kind": "height-pass"}"#, modes: #"["keyed"]"#, items: nil)) == nil)
        let withoutTexts = #"{"sections": [[{"h": 44}, {"h": 44}]]}"#
        let explicit = try #require(Self.planError(scenarioJSON(layout: Self.list, data: withoutTexts, workload: #"{"kind": "height-pass"}"#, modes: #"["keyed"]"#, items: nil)))
        #expect(explicit.path == "data")
    }

    @Test func editsOtherThanInsertsNeedAnItem() throws {
        let empty = #"{"sections": [[]]}"#
        let json = scenarioJSON(data: empty, workload: #"{"kind": "edit", "operations": ["insert", "delete"]}"#, modes: #"["full"]"#, items: nil)
        let error = try #require(Self.planError(json))
        #expect(error.path == "workload.operations")
        #expect(Self.planError(scenarioJSON(data: empty, workload: #"{"kind": "edit", "operations": ["insert"]}"#, modes: #"["full"]"#, items: nil)) == nil)
    }

    /// Every shipped scenario passes its workload's validation (else the default suite would not load).
    @Test func theDefaultSuiteIsValid() throws {
        let catalog = try ScenarioCatalog.locate()
        for scenario in try catalog.loadAll() {
            #expect(throws: Never.self) { _ = try BenchmarkPlan(scenario: scenario) }
        }
    }

    /// No file casts a workload to a concrete type except that workload's own: the protocol
    /// answers (footprint, validation, modes).
    @Test func noCastToAConcreteWorkload() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let names = WorkloadCatalog.all.map { String(describing: $0) }
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        #expect(files.count > 50)
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for name in names where !file.hasSuffix("/\(name).swift") {
                if text.contains("as? \(name)") || text.contains("as! \(name)") || text.contains("is \(name)") {
                    offenders.append("\(file): \(name)")
                }
            }
        }
        #expect(offenders.isEmpty, "casts to a concrete workload: \(offenders)")
    }
}
