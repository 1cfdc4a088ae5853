import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine
import Foundation

/// One test per kind of bad input; each checks the exact JSON path.
@Suite struct ScenarioErrorTests {
    @Test func baseScenarioIsValid() throws {
        let s = try parseScenario(scenarioJSON())
        #expect(s.name == "test")
        #expect(s.itemCounts == [100, 1000])
    }

    @Test func unknownKeyAtTopLevel() {
        let e = expectScenarioError(scenarioJSON(extra: #""itemz": 3"#), path: "itemz", "unknown key 'itemz'; expected one of: ")
        #expect(e?.message.contains("did you mean 'items'?") == true)
    }

    @Test func unknownKeyNested() {
        let e = expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "colums": 3}"#), path: "layout.colums", "unknown key 'colums'")
        #expect(e?.message.contains("columns") == true)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "insets": {"top": 1, "start": 2}}"#), path: "layout.insets.start",
            "unknown key 'start'; expected one of: top, left, bottom, right")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "sections": [{}, {"lineSpacin": 2}]}"#), path: "layout.sections[1].lineSpacin",
            "unknown key 'lineSpacin'")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "fixed", "value": 4, "min": 1}}}"#),
            path: "data.generate.heights.min", "unknown key 'min'; expected one of: distribution, value")
    }

    @Test func wrongType() {
        let e = expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "columns": "3"}"#), path: "layout.columns", "expected an integer from 1 to 1000, got \"3\"")
        #expect(e?.description == #"test.json: layout.columns: expected an integer from 1 to 1000, got "3""#)
        expectScenarioError(scenarioJSON(layout: #"{"kind": "list", "background": 1}"#), path: "layout.background", "expected true or false, got 1")
        expectScenarioError(scenarioJSON(layout: #"{"kind": "list", "insets": [0, 0]}"#), path: "layout.insets", "expected an object, got an array")
        expectScenarioError(scenarioJSON(modes: #""default""#), path: "modes", "expected an array, got \"default\"")
        expectScenarioError(scenarioJSON(items: "[100, 2.5]"), path: "items[1]", "expected an integer from 1 to 100000000, got 2.5")
        expectScenarioError(scenarioJSON(items: "[1e3]"), path: "items[0]", "written without a fraction or exponent, got 1e3")
        expectScenarioError("[1, 2]", path: "", "expected a JSON object at the top level, got an array")
    }

    @Test func negativeSize() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "itemSpacing": -4}"#), path: "layout.itemSpacing", "expected a number from 0 to 1000000000, got -4")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "header": {"height": -1}}"#), path: "layout.header.height", "expected a number from 0 to 1000000000, got -1")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "uniform", "min": -10, "max": 5}}}"#),
            path: "data.generate.heights.min", "expected a number from 0 to 1000000000, got -10")
        expectScenarioError(
            scenarioJSON(data: #"{"sections": [[{"h": 10}, {"h": -0.5}]]}"#, items: nil), path: "data.sections[0][1].h",
            "expected a number from 0 to 1000000000, got -0.5")
        expectScenarioError(scenarioJSON(viewport: #"{"width": 0}"#), path: "viewport.width", "expected a number > 0 and <= 1000000000, got 0")
    }

    @Test func hugeExponentIsInfiniteAndRejected() {
        // JSON has no NaN or infinity; a huge exponent is the way to get one, and it is refused.
        let e = expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "lineSpacing": 1e999}"#), path: "layout.lineSpacing",
            "expected a number from 0 to 1000000000, got 1e999, which is too large to be a finite number")
        #expect(e != nil)
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "fixed", "value": -1e999}}}"#),
            path: "data.generate.heights.value", "too large to be a finite number")
        expectScenarioError(scenarioJSON(items: "[100000000000000000000000]"), path: "items[0]", "out of range")
    }

    @Test func columnsBelowOne() {
        let e = expectScenarioError(scenarioJSON(layout: #"{"kind": "waterfall", "columns": 0}"#), path: "layout.columns", "expected an integer from 1 to 1000, got 0")
        #expect(e?.description == "test.json: layout.columns: expected an integer from 1 to 1000, got 0")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "sections": [{"kind": "waterfall", "columns": -2}]}"#),
            path: "layout.sections[0].columns", "expected an integer from 1 to 1000, got -2")
    }

    @Test func widthNotLargerThanInsets() {
        let e = expectScenarioError(
            scenarioJSON(viewport: #"{"width": 100}"#, layout: #"{"kind": "list", "insets": {"left": 50, "right": 50}}"#),
            path: "layout.insets", "the viewport width 100 must be larger than the horizontal insets (left 50 + right 50)")
        #expect(e?.description == "test.json: layout.insets: the viewport width 100 must be larger than the horizontal insets (left 50 + right 50)")
        // In an override: the section's path.
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "insets": {"left": 10}, "sections": [{}, {"insets": {"right": 380}}]}"#),
            path: "layout.sections[1].insets", "(left 10 + right 380)")
        // Columns and spacing that leave nothing: mapped from the engine's field.
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "columns": 40, "itemSpacing": 10}"#),
            path: "layout.itemSpacing", "40 columns with spacing 10.0 leave no width for items")
    }

    @Test func weightsMustMatchColumns() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "columns": 3, "weights": [1, 2]}"#),
            path: "layout.weights", "expected one weight per column (3), got 2")
        // A layout-level value that fails with a section's override names that section.
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "weights": [1, 2], "sections": [{}, {"columns": 3}]}"#),
            path: "layout.weights", "got 2 (in the section style layout.sections[1])")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "weights": [1, 0]}"#), path: "layout.weights[1]", "expected a number > 0 and <= 1000000000, got 0")
    }

    @Test func unknownJustify() {
        let e = expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "sections": [{"kind": "flow", "justify": "middle"}, {}]}"#),
            path: "layout.sections[0].justify",
            #"unknown value "middle"; expected one of "start", "center", "end", "space-between", "space-around", "space-evenly""#)
        #expect(e != nil)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "flow", "align": "baseline"}"#), path: "layout.align", #"unknown value "baseline""#)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "grid"}"#), path: "layout.kind", #"expected one of "list", "flow", "waterfall""#)
    }

    @Test func keysThatDoNotApplyToTheKind() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "justify": "center"}"#), path: "layout.justify",
            "'justify' applies to flow sections only; this layout is a waterfall")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "sections": [{"kind": "list", "columns": 3}]}"#),
            path: "layout.sections[0].columns", "'columns' applies to waterfall sections only; this section is a list")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "sections": [{"direction": "left-to-right"}]}"#),
            path: "layout.sections[0].direction", "this section is a list (its kind comes from layout.kind)")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "columns": 3, "sections": [{"kind": "flow"}]}"#),
            path: "layout.columns", "no entry of layout.sections is a waterfall")
        // A layout-level default for some sections is fine.
        #expect(throws: Never.self) {
            try parseScenario(scenarioJSON(layout: #"{"kind": "list", "justify": "end", "sections": [{}, {"kind": "flow"}]}"#))
        }
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "fixed", "value": 4}, "widths": {"distribution": "fixed", "value": 4}}}"#),
            path: "data.generate.widths", "'widths' applies to flow items only")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list"}"#, data: #"{"generate": {"heights": {"distribution": "fixed", "value": 4}, "fullWidthEvery": 3}}"#),
            path: "data.generate.fullWidthEvery", "applies to waterfall items only")
    }

    @Test func badPins() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "header": {"height": 40, "pin": "sticky"}}"#),
            path: "layout.header.pin", #"unknown value "sticky"; expected one of "none", "normal", "stacked""#)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "footer": {"pin": "stacked"}}"#),
            path: "layout.footer.pin", #"unknown value "stacked"; expected one of "none", "normal""#)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "sections": [{}, {"footer": {"height": 20, "pin": "stacked"}}]}"#),
            path: "layout.sections[1].footer.pin", #"expected one of "none", "normal""#)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "pinOffset": -4}"#),
            path: "layout.pinOffset", "expected a number from 0 to 1000000000, got -4")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "pinOffset": 1e999}"#),
            path: "layout.pinOffset", "too large to be a finite number")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "sections": [{"pinOffset": 4}]}"#),
            path: "layout.sections[0].pinOffset", "unknown key")
    }

    @Test func pinsReachTheEngine() throws {
        let scenario = try parseScenario(scenarioJSON(
            layout: #"{"kind": "list", "pinOffset": 64, "header": {"height": 40, "pin": "normal"}, "footer": {"height": 10, "pin": "normal"}, "sections": [{}, {"header": {"pin": "stacked"}}]}"#))
        #expect(scenario.layout.pinOffset == 64)
        #expect(scenario.makeStyles().map(\.headerPin) == [.normal, .stacked])
        #expect(scenario.makeStyles().map(\.footerPin) == [.normal, .normal])
    }

    @Test func unknownDistribution() {
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "gaussian", "mean": 3}}}"#),
            path: "data.generate.heights.distribution",
            #"unknown value "gaussian"; expected one of "fixed", "uniform", "normal", "bimodal", "text""#)
        expectScenarioError(
            scenarioJSON(
                layout: #"{"kind": "flow"}"#,
                data: #"{"generate": {"heights": {"distribution": "fixed", "value": 1}, "widths": {"distribution": "text", "minWords": 1, "maxWords": 2}}}"#),
            path: "data.generate.widths.distribution", "only available for heights")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "uniform", "min": 10, "max": 5}}}"#),
            path: "data.generate.heights.max", "expected max >= min (10), got 5")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "bimodal", "first": {"min": 1, "max": 2}, "second": {"min": 1, "max": 2, "mean": 1}, "share": 0.5}}}"#),
            path: "data.generate.heights.second.mean", "unknown key 'mean'")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"heights": {"distribution": "bimodal", "first": {"min": 1, "max": 2}, "second": {"min": 1, "max": 2}, "share": 1.5}}}"#),
            path: "data.generate.heights.share", "expected a number from 0 to 1, got 1.5")
    }

    @Test func duplicateKey() {
        let text = "{\n  \"name\": \"a\",\n  \"layout\": {\"kind\": \"list\",\n    \"kind\": \"flow\"}\n}"
        let e = expectScenarioError(text, path: "layout.kind", "duplicate key 'kind' (line 4, column 5; first at line 3, column 14)")
        #expect(e?.line == 4)
        #expect(e?.column == 5)
        expectScenarioError(scenarioJSON(extra: #""name": "again""#), path: "name", "duplicate key 'name'")
    }

    @Test func syntaxErrorHasLineAndColumn() {
        let text = "{\n  \"name\": \"x\",\n  \"description\" \"y\"\n}"
        let e = expectScenarioError(text, path: "", #"expected ':' after the key "description", got '"'"#)
        #expect(e?.line == 3)
        #expect(e?.column == 17)
        #expect(e?.description == #"test.json: line 3, column 17: expected ':' after the key "description", got '"'"#)
        // Columns count characters, not bytes.
        let f = expectScenarioError("{\"é\": tru}", path: "", "expected a value, got 'tru'")
        #expect(f?.line == 1)
        #expect(f?.column == 7)
    }

    @Test func otherSyntaxErrors() {
        expectScenarioError("{\"a\": [1, 2,]}", path: "", "trailing ','")
        expectScenarioError("{\"a\": 01}", path: "", "leading zeros")
        expectScenarioError("{\"a\": NaN}", path: "", "expected a value")
        expectScenarioError("{\"a\": 1} x", path: "", "after the end of the top-level value")
        expectScenarioError("{\"a\": \"x\ny\"}", path: "", "unterminated string")
        expectScenarioError("{\"a\": \"\\ud800\"}", path: "", "unpaired surrogate")
        expectScenarioError("{\"a\": 1 // comment\n}", path: "", "expected ',' or '}'")
        expectScenarioError("", path: "", "the file is empty")
        expectScenarioError("{\"a\": 1", path: "", "got the end of the file")
    }

    @Test func missingRequiredKey() {
        expectScenarioError(scenarioJSON(modes: "[]").replacingOccurrences(of: #""modes": [],"#, with: ""), path: "modes",
                            "missing required key 'modes'")
        expectScenarioError(scenarioJSON(layout: #"{"columns": 2}"#), path: "layout.kind", "missing required key 'kind'")
        expectScenarioError(scenarioJSON(items: nil), path: "items", "missing required key 'items'")
        expectScenarioError(scenarioJSON(data: "{}"), path: "data", "expected 'generate' (a generator) or 'sections' (explicit items)")
        expectScenarioError(
            scenarioJSON(data: #"{"generate": {"seed": 1}}"#), path: "data.generate.heights", "missing required key 'heights'")
        expectScenarioError(scenarioJSON(workload: "{}"), path: "workload.kind", "missing required key 'kind'")
    }

    @Test func itemsWithExplicitData() {
        let e = expectScenarioError(
            scenarioJSON(data: #"{"sections": [[{"h": 10}, {"h": 20}], [{"h": 5}]]}"#, items: "[3]"), path: "items",
            "must be left out with explicit data.sections or data.file (the count is the number of items given: 3)")
        #expect(e != nil)
    }

    @Test func explicitDataErrors() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "flow"}"#, data: #"{"sections": [[{"w": 10, "h": 10}, {"h": 20}]]}"#, items: nil),
            path: "data.sections[0][1].w", "missing required key 'w' (items of flow sections need a width; section 0 is a flow)")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list"}"#, data: #"{"sections": [[{"h": 20, "fullWidth": true}]]}"#, items: nil),
            path: "data.sections[0][0].fullWidth", "full-width items exist only in waterfall sections; section 0 is a list")
        expectScenarioError(
            scenarioJSON(data: #"{"sections": [[{"h": 20, "height": 3}]]}"#, items: nil),
            path: "data.sections[0][0].height", "unknown key 'height'")
        expectScenarioError(
            scenarioJSON(data: #"{"sections": []}"#, items: nil), path: "data.sections", "expected a non-empty array")
        expectScenarioError(
            scenarioJSON(data: #"{"sections": [[{"h": 1}]], "generate": {}}"#, items: nil), path: "data.sections",
            "'generate' and 'sections' cannot be used together")
    }

    @Test func modesAndItems() {
        expectScenarioError(scenarioJSON(modes: #"["a", "b", "a"]"#), path: "modes[2]", #"duplicate mode "a""#)
        expectScenarioError(scenarioJSON(modes: #"["a", ""]"#), path: "modes[1]", "expected a non-empty string")
        expectScenarioError(scenarioJSON(modes: "[]"), path: "modes", "expected a non-empty array")
        expectScenarioError(scenarioJSON(items: "[10, 0]"), path: "items[1]", "expected an integer from 1 to 100000000, got 0")
        expectScenarioError(scenarioJSON(items: "[10, 10]"), path: "items[1]", "duplicate item count 10")
    }

    @Test func harnessHelpersForWorkloadAndModes() throws {
        let s = try parseScenario(scenarioJSON(workload: #"{"kind": "append", "batch": 100, "stepz": 5}"#, modes: #"["full", "fast"]"#))
        #expect(s.workload.kind == "append")
        let r = s.workload.reader()
        #expect(try r.requireInt("batch", min: 1) == 100)
        #expect(try r.optionalInt("steps", default: 50, .atLeast(1)) == 50)
        #expect(throws: ScenarioError(file: "test.json", path: "workload.stepz",
                                      message: "unknown key 'stepz'; expected one of: kind, batch, steps (did you mean 'steps'?)")) {
            try r.finish()
        }
        #expect(throws: ScenarioError(file: "test.json", path: "modes[1]",
                                      message: #"unknown mode "fast" for workload "append"; expected one of "full", "incremental""#)) {
            try s.checkModes(allowed: ["full", "incremental"])
        }
    }

    @Test func operationListsNameEachOperationOnce() {
        // Workload keys are read when the plan is made; each workload lists its operations.
        for (kind, mode, operation) in [
            ("edit", "full", "delete"), ("height-pass", "keyed", "batch-update"), ("offsets", "fenwick", "delete"),
        ] {
            let twice = scenarioJSON(
                workload: #"{"kind": "\#(kind)", "operations": ["\#(operation)", "\#(operation)"]}"#, modes: #"["\#(mode)"]"#)
            expectPlanError({ try plan(twice) }, path: "workload.operations[1]", #""\#(operation)" is listed twice"#)
            let none = scenarioJSON(workload: #"{"kind": "\#(kind)", "operations": []}"#, modes: #"["\#(mode)"]"#)
            expectPlanError({ try plan(none) }, path: "workload.operations", "expected at least one operation")
        }
    }
}
