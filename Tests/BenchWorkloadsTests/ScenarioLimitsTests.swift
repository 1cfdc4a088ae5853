import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// The inputs of issue 8 that used to crash or overflow: each is now one error at a JSON path,
/// found at load time.
@Suite struct ScenarioLimitsTests {
    let textHeights = #"{"distribution": "text", "minWords": 5, "maxWords": 60}"#

    func generated(_ heights: String, extra: String = "") -> String {
        #"{"generate": {"heights": "# + heights + extra + "}}"
    }

    @Test func countsHaveUpperBounds() throws {
        expectScenarioError(scenarioJSON(items: "[1000000000000]"), path: "items[0]", "from 1 to 100000000")
        expectScenarioError(scenarioJSON(items: "[9223372036854775807]"), path: "items[0]", "from 1 to 100000000")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "columns": 1000000000, "itemSpacing": 0}"#),
            path: "layout.columns", "from 1 to 1000")
        expectScenarioError(
            scenarioJSON(data: generated(#"{"distribution": "text", "minWords": 100000, "maxWords": 100000}"#)),
            path: "data.generate.heights.minWords", "from 0 to 10000")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"sections": 2000000, "heights": {"distribution": "fixed", "value": 4}}}"#),
            path: "data.generate.sections", "from 1 to 1000000")
        expectScenarioError(scenarioJSON(items: "[" + (1...101).map(String.init).joined(separator: ",") + "]"),
                            path: "items", "at most 100 item counts")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "append", "steps": 1000000000000}"#, modes: #"["full"]"#)) },
                        path: "workload.steps", "from 1 to 100000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "append", "batch": 1000000000000}"#, modes: #"["full"]"#)) },
                        path: "workload.batch", "from 1 to 1000000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "query", "frames": 1000000000000}"#, modes: #"["linear"]"#)) },
                        path: "workload.frames", "from 1 to 1000000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "edit", "steps": 100001}"#, modes: #"["full"]"#)) },
                        path: "workload.steps", "from 1 to 100000")
        expectPlanError({ try plan(scenarioJSON(workload: #"{"kind": "sticky-scroll", "steps": 1000000000000}"#, modes: #"["scan"]"#)) },
                        path: "workload.steps", "from 1 to 100000")
    }

    @Test func sizesThatWouldOverflowAreRefused() throws {
        expectScenarioError(
            scenarioJSON(data: generated(#"{"distribution": "text", "minWords": 5, "maxWords": 60, "fontScale": 1e20}"#)),
            path: "data.generate.heights.fontScale", "> 0 and <= 1000")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "columns": 3, "weights": [1e308, 1e308, 1e308]}"#),
            path: "layout.weights[0]", "<= 1000000000")
        expectScenarioError(scenarioJSON(data: generated(#"{"distribution": "fixed", "value": 1e308}"#)),
                            path: "data.generate.heights.value", "from 0 to 1000000000")
        expectScenarioError(scenarioJSON(viewport: #"{"width": 1e300, "height": 800}"#), path: "viewport.width", "<= 1000000000")
        expectScenarioError(scenarioJSON(layout: #"{"kind": "list", "lineSpacing": 1e12}"#), path: "layout.lineSpacing", "from 0 to")
        // Each value in range, their product past the content-height limit: refused, naming the driver.
        expectPlanError({ try plan(scenarioJSON(data: generated(#"{"distribution": "fixed", "value": 1e9}"#), items: "[100000]")) },
                        path: "data.generate.heights", "content height could reach")
        expectPlanError({
            try plan(scenarioJSON(layout: #"{"kind": "list", "lineSpacing": 1e9}"#,
                                  data: generated(#"{"distribution": "fixed", "value": 1}"#), items: "[100000]"))
        }, path: "layout.lineSpacing", "content height could reach")
        expectPlanError({
            try plan(scenarioJSON(layout: #"{"kind": "list", "header": {"height": 1e9}}"#,
                                  data: #"{"generate": {"sections": 100000, "heights": {"distribution": "fixed", "value": 1}}}"#,
                                  items: "[100000]"))
        }, path: "data.generate.sections", "content height could reach")
        // Largest legal weights and scale stay finite.
        let weighted = try plan(scenarioJSON(layout: #"{"kind": "waterfall", "columns": 3, "weights": [1e9, 1e-9, 1e9]}"#))
        let data = try weighted.scenario.makeData(items: 100)
        let frames = SectionedLayout.computeFrames(bounds: weighted.scenario.viewport, styles: weighted.scenario.makeStyles(), data: data)
        let finite = frameValues(frames).allSatisfy { $0.isFinite }
        #expect(finite)
        let scaled = try plan(scenarioJSON(
            layout: #"{"kind": "flow"}"#,
            data: generated(#"{"distribution": "text", "minWords": 50, "maxWords": 60, "fontScale": 1000}"#,
                            extra: #", "widths": {"distribution": "fixed", "value": 0}"#)))
        let items = try scaled.scenario.makeItems(items: 100)
        let positive = items.data.heights.allSatisfy { $0.isFinite && $0 > 0 }
        #expect(positive)
    }

    @Test func templateCellSaturatesInsteadOfTrapping() {
        let cell = TemplateCell(fontScale: 1e300)
        #expect(cell.height(of: "Overflowing words everywhere", width: 0).isFinite)
    }

    @Test func memoryEstimateNamesTheDrivingCount() throws {
        // 100 frames × 1,000,000 answers of zero-height rows with no spacing: every row is in view.
        let zeroRows = try plan(scenarioJSON(
            layout: #"{"kind": "list"}"#, data: generated(#"{"distribution": "fixed", "value": 0}"#),
            workload: #"{"kind": "query", "frames": 100}"#, modes: #"["linear"]"#, items: "[1000, 1000000]"),
            modes: ["linear"], items: [1000])
        do {
            try ScenarioFootprint(plan: zeroRows).check(file: "test.json", physicalMemory: 8e9)
            Issue.record("expected a memory error")
        } catch {
            #expect(error.path == "workload.frames", "\(error)")
            #expect(error.message.contains("at 1000000 items"), "\(error)")
            #expect(error.message.contains("GB"), "\(error)")
        }
        // Rows 44 pt apart: at most ~22 rows per viewport, a few MB of answers.
        let rows = try plan(scenarioJSON(
            layout: #"{"kind": "list"}"#, data: generated(#"{"distribution": "fixed", "value": 44}"#),
            workload: #"{"kind": "query", "frames": 100}"#, modes: #"["linear"]"#, items: "[1000000]"))
        try ScenarioFootprint(plan: rows).check(file: "test.json", physicalMemory: 8e9)
        // Long texts at a million items.
        expectPlanError({
            try plan(scenarioJSON(data: generated(#"{"distribution": "text", "minWords": 10000, "maxWords": 10000}"#), items: "[1000000]"))
        }, path: "data.generate.heights.maxWords", "needs an estimated")
        // Every shipped scenario fits a 16 GB machine.
        let catalog = try ScenarioCatalog.locate()
        for scenario in try catalog.loadAll() {
            try ScenarioFootprint(plan: BenchmarkPlan(scenario: scenario)).check(file: scenario.file, physicalMemory: 16e9)
        }
    }

    /// Issue 48, item 14: a 2 MiB `name` ran, and then every reader of the results refused them
    /// ("a record longer than 1 MiB"). Names and descriptions are bounded when the file loads.
    @Test func namesAndDescriptionsAreBounded() throws {
        func with(name: String = "test", description: String = "a test scenario") -> String {
            scenarioJSON().replacing(#""name": "test""#, with: #""name": "\#(name)""#)
                .replacing(#""description": "a test scenario""#, with: #""description": "\#(description)""#)
        }
        #expect(try parseScenario(with(name: String(repeating: "n", count: 128))).name.utf8.count == 128)
        expectScenarioError(with(name: String(repeating: "n", count: 129)), path: "name", "expected at most 128 bytes of UTF-8, got 129")
        expectScenarioError(with(name: String(repeating: "n", count: 2 << 20)), path: "name", "expected at most 128 bytes of UTF-8, got 2097152")
        // Bytes, not characters: 43 three-byte characters are 129 bytes.
        expectScenarioError(with(name: String(repeating: "\u{20AC}", count: 43)), path: "name", "got 129")
        #expect(try parseScenario(with(description: String(repeating: "d", count: 4096))).description.utf8.count == 4096)
        expectScenarioError(with(description: String(repeating: "d", count: 4097)), path: "description", "expected at most 4096 bytes of UTF-8, got 4097")
    }

    @Test func physicalMemoryIsRead() {
        #expect(ScenarioFootprint.physicalMemory() > 1e8)
    }
}
