import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine
import LayoutReference

@Suite struct HarnessTests {
    @Test func sameScenarioSameFramesAndPinnedChecksum() throws {
        let scenario = try parseScenario(mixedScenario)
        func layoutChecksum() throws -> UInt64 {
            var layout = try SectionedLayout(bounds: scenario.viewport, styles: scenario.makeStyles(), data: scenario.makeData(items: 300))
            try layout.prepare()
            return checksum(frameValues(layout.frames))
        }
        let first = try layoutChecksum()
        #expect(try layoutChecksum() == first)
        // Pinned: a change to the generator, the placement or the geometry shows up here.
        #expect(first == 0x8244_21EA_C501_8910, "checksum is now 0x\(String(first, radix: 16))")
    }

    @Test func verificationCatchesAWrongQueryMode() throws {
        let fixture = try QueryFixture(scenario: parseScenario(mixedScenario), items: 300, frames: 90)
        let index = RectQueryMode.binary.make(frames: fixture.layout.frames)
        // The real mode passes...
        _ = try fixture.check(mode: "binary", isExact: true, verify: true) { rect, buffer in
            index.elements(in: rect, frames: fixture.layout.frames, into: &buffer)
        }
        // ...a mode that drops the last element of each non-empty answer does not.
        #expect(throws: VerificationError.self) {
            _ = try fixture.check(mode: "dropping", isExact: true, verify: true) { rect, buffer in
                index.elements(in: rect, frames: fixture.layout.frames, into: &buffer)
                if !buffer.isEmpty { buffer.removeLast() }
            }
        }
        // ...nor one that moves a frame by a micro-point.
        #expect(throws: VerificationError.self) {
            _ = try fixture.check(mode: "shifted", isExact: true, verify: true) { rect, buffer in
                index.elements(in: rect, frames: fixture.layout.frames, into: &buffer)
                if !buffer.isEmpty { buffer[0].frame.y += 1e-6 }
            }
        }
        // A heuristic that drops elements is allowed, and its recall shows it.
        let (recall, _) = try fixture.check(mode: "dropping", isExact: false, verify: true) { rect, buffer in
            index.elements(in: rect, frames: fixture.layout.frames, into: &buffer)
            if !buffer.isEmpty { buffer.removeLast() }
        }
        #expect(recall.min()! < 1)
    }

    /// An update mode that forgets height changes: the frames keep the old heights.
    struct ForgetfulUpdater: LayoutUpdater {
        var inner: any LayoutUpdater
        init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
            inner = try WaterfallUpdateMode.full.make(bounds: bounds, styles: styles, data: data)
        }
        var data: LayoutData { inner.data }
        var frames: LayoutFrames { inner.frames }
        mutating func apply(_ change: LayoutChange) throws(LayoutError) {
            if case .setHeight = change { return }
            try inner.apply(change)
        }
    }

    @Test func verificationCatchesAWrongUpdateMode() throws {
        let scenario = try parseScenario(scenarioJSON(workload: #"{"kind": "edit", "steps": 5}"#, modes: #"["full", "incremental"]"#))
        let initial = try scenario.makeData(items: 100)
        let styles = scenario.makeStyles()
        let trace = UpdateTrace(initial: initial, changes: [
            .setHeight(section: 0, item: 3, height: 999), .appendItems(section: 0, items: [ItemSize(height: 10)]),
        ])
        let reference = try WaterfallUpdateMode.full.makeExpectation(bounds: scenario.viewport, styles: styles, data: initial)
        let forgetful = try ForgetfulUpdater(bounds: scenario.viewport, styles: styles, data: initial)
        let problem = try UpdateOperation.verify(updater: forgetful, reference: reference, trace: trace)
        #expect(problem?.hasPrefix("after change 0") == true, "\(problem ?? "no difference found")")
        for mode in WaterfallUpdateMode.allCases {
            #expect(try UpdateOperation.verify(mode: mode, bounds: scenario.viewport, styles: styles, trace: trace) == nil)
        }
    }

    /// An update mode whose item move is broken on purpose: it swaps the two items (FDTemplateLayoutCell's
    /// mistake) instead of removing the item and inserting it at its destination.
    struct SwappingUpdater: LayoutUpdater {
        var inner: any LayoutUpdater
        init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
            inner = try WaterfallUpdateMode.incremental.make(bounds: bounds, styles: styles, data: data)
        }
        var data: LayoutData { inner.data }
        var frames: LayoutFrames { inner.frames }
        mutating func apply(_ change: LayoutChange) throws(LayoutError) {
            guard case .moveItem(let from, let to) = change, from.section == to.section else { return try inner.apply(change) }
            let a = inner.data.size(section: from.section, item: from.item), b = inner.data.size(section: to.section, item: to.item)
            try inner.apply(.reloadItems(section: from.section, at: from.item, items: [b]))
            try inner.apply(.reloadItems(section: to.section, at: to.item, items: [a]))
        }
    }

    @Test func verificationCatchesAMoveAppliedAsASwap() throws {
        let scenario = try parseScenario(scenarioJSON(workload: #"{"kind": "edit", "steps": 5}"#, modes: #"["full", "incremental"]"#))
        let initial = try scenario.makeData(items: 100)
        let styles = scenario.makeStyles()
        let trace = UpdateTrace(initial: initial, changes: [
            .reloadItems(section: 0, at: 2, items: [ItemSize(width: 7, height: 333)]),
            .moveItem(from: ItemPath(section: 0, item: 10), to: ItemPath(section: 0, item: 2)),
            .moveSection(from: 0, to: 0),
        ])
        let reference = try WaterfallUpdateMode.incremental.makeExpectation(bounds: scenario.viewport, styles: styles, data: initial)
        let swapping = try SwappingUpdater(bounds: scenario.viewport, styles: styles, data: initial)
        let problem = try UpdateOperation.verify(updater: swapping, reference: reference, trace: trace)
        #expect(problem?.hasPrefix("after change 1 (move [0, 10] to [0, 2])") == true, "\(problem ?? "no difference found")")
        for mode in WaterfallUpdateMode.allCases {
            #expect(try UpdateOperation.verify(mode: mode, bounds: scenario.viewport, styles: styles, trace: trace) == nil)
        }
    }

    @Test func planErrorsNameTheirPath() {
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "scroll"}"#)) }, path: "workload.kind", "unknown workload")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "query", "frame": 10}"#, modes: #"["binary"]"#)) },
                        path: "workload.frame", "unknown key")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "query", "frames": 0}"#, modes: #"["binary"]"#)) },
                        path: "workload.frames", "from 1 to 1000000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "append", "batch": -5}"#, modes: #"["full"]"#)) },
                        path: "workload.batch", "from 1 to 1000000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "edit", "operations": ["insert", "swap"]}"#, modes: #"["full"]"#)) },
                        path: "workload.operations[1]", "swap")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "edit", "position": "top"}"#, modes: #"["full"]"#)) },
                        path: "workload.position", "\"middle-half\", \"first\", \"middle\", \"last\"")
        expectPlanError({ try plan(scenarioJSON(layout: #"{"kind": "waterfall", "columns": 1001}"#, workload: #"{"kind": "edit"}"#, modes: #"["full"]"#)) },
                        path: "layout.columns", "1000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "query"}"#, modes: #"["binary", "quadtree"]"#)) },
                        path: "modes[1]", "quadtree")
        expectPlanError({ try plan(scenarioJSON(), modes: ["binary"]) }, path: "modes", "--mode binary")
        expectPlanError({ try plan(scenarioJSON(), items: [500]) }, path: "items", "--items 500")
    }

    @Test func maxItemsAndTheCallgrindPassKeepTheCountsUpToTheirLimit() throws {
        let sweep = try parseScenario(scenarioJSON(items: "[1000, 30000, 100000, 1000000]"))
        let capped = try BenchmarkPlan.select([sweep], modes: [], items: [], maxItems: 30_000, quick: false)
        #expect(capped.map(\.itemCounts) == [[1000, 30000]])
        let above = try BenchmarkPlan.select([sweep], modes: [], items: [], maxItems: 500, quick: false)
        #expect(above.map(\.itemCounts) == [[1000]])
        #expect(try plan(scenarioJSON(items: "[1000, 30000, 100000, 1000000]")).instructionCounts == [1000, 30000])
        #expect(try plan(scenarioJSON(items: "[300000, 1000000]")).instructionCounts == [300000])
        #expect(try plan(scenarioJSON(items: "[1000, 30000, 100000, 1000000]")).instructionCountsLeftOut == [100000, 1000000])
    }

    /// The cap of the callgrind pass is for a scenario's own sweep: counts named with `--items` are
    /// all counted, by one scenario's plan and by a selection of several.
    @Test func theCallgrindPassCountsEveryNamedCount() throws {
        let text = scenarioJSON(items: "[1000, 30000, 100000, 1000000]")
        let named = try plan(text, items: [30000, 1_000_000])
        #expect(named.instructionCounts == [30000, 1_000_000])
        #expect(named.instructionCountsLeftOut.isEmpty)
        let one = try BenchmarkPlan.select([parseScenario(text)], modes: [], items: [100_000], quick: false)
        #expect(one.map(\.instructionCounts) == [[100_000]])
        let several = try BenchmarkPlan.select(
            [parseScenario(text), parseScenario(scenarioJSON(items: "[1000, 1000000]"))],
            modes: [], items: [1_000_000], quick: false)
        #expect(several.map(\.instructionCounts) == [[1_000_000], [1_000_000]])
        // Named but capped again by --max-items: what is left is still counted whole.
        let capped = try BenchmarkPlan.select([parseScenario(text)], modes: [], items: [1000, 1_000_000], maxItems: 1000, quick: false)
        #expect(capped.map(\.instructionCounts) == [[1000]])
    }

    @Test func quickKeepsTheSmallestCount() throws {
        #expect(try plan(scenarioJSON(items: "[5000, 300, 1000000]"), quick: true).itemCounts == [300])
        #expect(try plan(scenarioJSON(items: "[1000000]"), quick: true).itemCounts == [BenchmarkPlan.quickItemLimit])
    }

    @Test func scrollTraceVisitsTheWholeContent() {
        let trace = ScrollTrace(contentHeight: 100_000, viewportHeight: 844, frames: 600)
        #expect(trace.offsets.count == 600)
        #expect(trace.offsets.allSatisfy { $0 >= 0 && $0 <= 100_000 - 844 })
        #expect(trace.offsets.max() == Double(100_000 - 844))
        #expect(trace.offsets.dropFirst().contains(0))
        // Short content: every offset is 0.
        #expect(ScrollTrace(contentHeight: 500, viewportHeight: 844, frames: 50).offsets.allSatisfy { $0 == 0 })
    }

    @Test func runWritesCSVThatParses() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plans = try [plan(mixedScenario, items: [300], quick: true),
                         plan(scenarioJSON(workload: #"{"kind": "append", "batch": 10, "steps": 3}"#, modes: #"["full", "incremental", "stable-lanes"]"#), quick: true)]
        var session = try RunSession(
            plans: plans, quick: true, instructions: false, outDirectory: directory, repetition: 1,
            commandLine: ["layout-bench", "run"], executable: CommandLine.arguments[0], progress: { _ in })
        let result = try session.run()
        #expect(result.failures.isEmpty, "\(result.failures)")

        let samples = try CSVParser.parseTable(try ResultSet.readSamples(directory + "/samples.csv.gz"))
        let summary = try CSVParser.parseTable(String(contentsOfFile: directory + "/summary.csv", encoding: .utf8))
        #expect(samples.header == CSVSchema.samplesHeader)
        #expect(summary.header == CSVSchema.summaryHeader)
        let records = summary.records
        let modes = Set(records.map { $0["mode"]! })
        #expect(modes == ["linear", "union-blocks", "binary-probe", "binary", "per-column", "buckets", "full", "incremental", "stable-lanes", ""])
        // peak_rss is one group-level row per scenario × items (empty mode), never copied per mode.
        let peaks = records.filter { $0["metric"] == "peak_rss" }
        #expect(peaks.count == 2 && peaks.allSatisfy { $0["mode"] == "" && $0["operation"] == "" })
        #expect(records.allSatisfy { $0["mode"] != "" || $0["metric"] == "peak_rss" })
        let metrics = Set(records.map { $0["metric"]! })
        #expect(metrics.isSuperset(of: ["time", "alloc_bytes", "allocs", "peak_rss", "recall", "elements"]))
        for record in records where record["metric"] == "time" {
            #expect(Double(record["median"]!)! > 0)
        }
        // Exact modes have recall 1 on every frame.
        for record in records where record["metric"] == "recall" && record["mode"] != "binary-probe" {
            #expect(record["min"] == "1")
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/run.json"))) as? [String: Any]
        #expect(json?["run_id"] as? String != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["failures.csv", "run.json", "samples.csv.gz", "summary.csv"])
    }
}
