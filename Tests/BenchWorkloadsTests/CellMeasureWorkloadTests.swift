import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

private let labelTemplate = #"""
"card": {"views": {"title": {"label": {"text": "text", "lines": 2}}, "body": {"label": {"text": "detail", "lineHeight": 18, "fontScale": 0.88}},
          "badge": {"intrinsic": {"width": 24, "height": 24}}},
         "constraints": ["badge.trailing == contentView.trailing - 12", "badge.top == contentView.top + 10",
                         "title.leading == contentView.leading + 16", "title.trailing <= badge.leading - 8", "title.top == contentView.top + 10",
                         "body.leading == title.leading", "body.trailing == contentView.trailing - 16", "body.top == title.bottom + 4",
                         "contentView.bottom >= badge.bottom + 10", "contentView.bottom == body.bottom + 10 @999"]}
"""#

private func cellScenario(modes: String = #"["fresh-engine", "fd-add-remove", "edit-width"]"#,
                          templates: String = #"{"card": 2, "title-body": 1}"#,
                          workload: String = #"{"kind": "cell-measure", "widths": [390, 600], "verifyMeasurements": 200}"#,
                          extraTemplates: String = "") -> String {
    scenarioJSON(
        layout: #"{"kind": "list"}"#,
        data: #"{"templates": {"# + labelTemplate + extraTemplates + #"}, "generate": {"sections": 3, "heights": {"distribution": "template", "templates": "#
            + templates + #", "minWords": 0, "maxWords": 30}, "seed": 9}}"#,
        workload: workload, modes: modes, items: "[120]")
}

@Suite("cell-measure workload")
struct CellMeasureWorkloadTests {
    func fixture(_ text: String = cellScenario()) throws -> CellMeasureFixture {
        let scenario = try plan(text).scenario
        return try CellMeasureWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 120)
    }

    /// Every mode verifies against the LP reference at 200 measurements spread over the trace of
    /// 240 (120 rows at two widths), and reports constraints and pivots at each.
    @Test func everyModeVerifiesAndCounts() throws {
        let fixture = try fixture()
        #expect(fixture.traceLength == 240)
        #expect(fixture.checked.count == 200)
        for mode in [CellMeasureWorkload.Mode.freshEngine, .fdAddRemove, .editWidth] {
            let m = try fixture.makeMeasurement(mode: mode, verify: true)
            let constraints = m.observations.first { $0.metric == .constraints }?.values ?? []
            let pivots = m.observations.first { $0.metric == .pivots }?.values ?? []
            #expect(constraints.count == 200)
            #expect(constraints.allSatisfy { $0 >= 11 }, "\(mode)")
            #expect(pivots.count == 200)
            guard case .batchable(let operation) = m.operations[0].work else { Issue.record("not batchable"); continue }
            #expect(operation.traceLength == 240)
            #expect(try operation.run(count: 500) > 0)
        }
    }

    /// `frame` on built-in rows, checked against the constraint form on every measurement.
    @Test func frameMatchesConstraintForm() throws {
        let text = cellScenario(modes: #"["edit-width", "frame"]"#, templates: #"{"title": 1, "title-body": 1, "image": 1}"#)
        let fixture = try fixture(text)
        _ = try fixture.makeMeasurement(mode: .frame, verify: true)
    }

    @Test func frameWithACustomTemplateIsRefused() {
        expectPlanError({ try plan(cellScenario(modes: #"["edit-width", "frame"]"#)) }, path: "modes[1]", "template \"card\" has none")
    }

    /// Where a built-in row's content is narrower than its paddings the closed form clamps the
    /// label to 1 pt and the constraint form does not: frame is refused there.
    @Test func frameNeedsContentWiderThanItsPaddings() {
        let text = cellScenario(modes: #"["edit-width", "frame"]"#, templates: #"{"title": 1, "image": 1}"#,
                                workload: #"{"kind": "cell-measure", "widths": [390, 60]}"#)
        expectPlanError({ try plan(text) }, path: "workload.widths[1]", "at least 73")
    }

    @Test func templateDataIsRequired() {
        let text = scenarioJSON(layout: #"{"kind": "list"}"#, workload: #"{"kind": "cell-measure"}"#, modes: #"["edit-width"]"#)
        expectPlanError({ try plan(text) }, path: "data.generate.heights.distribution", "expected \"template\"")
    }

    /// A template whose required constraints cannot hold at a width of the trace is refused at
    /// load, naming the template and the first constraint that conflicts.
    @Test func unsatisfiableAtAWidthIsRefused() {
        let wide = #", "wide": {"views": {"l": {"label": {"text": "text"}}}, "constraints": ["l.leading == contentView.leading", "l.trailing == contentView.trailing", "l.width >= 500", "l.top == contentView.top", "contentView.bottom == l.bottom"]}"#
        let text = cellScenario(templates: #"{"wide": 1}"#, extraTemplates: wide)
        expectPlanError({ try plan(text) }, path: "data.templates.wide.constraints[2]", "cannot all hold at width 390")
    }

    @Test(arguments: [
        (#"{"kind": "cell-measure", "widths": []}"#, "workload.widths", "expected 1 to 64 widths"),
        (#"{"kind": "cell-measure", "widths": [0]}"#, "workload.widths[0]", "> 0"),
        (#"{"kind": "cell-measure", "rotateEvery": 0}"#, "workload.rotateEvery", "from 1"),
        (#"{"kind": "cell-measure", "verifyMeasurements": 0}"#, "workload.verifyMeasurements", "from 1"),
        (#"{"kind": "cell-measure", "operations": ["nope"]}"#, "workload.operations[0]", "measure"),
        (#"{"kind": "cell-measure", "width": [390]}"#, "workload.width", "unknown key"),
    ])
    func badWorkloadKey(workload: String, path: String, message: String) {
        expectPlanError({ try plan(cellScenario(workload: workload)) }, path: path, message)
    }

    /// The rotation: the first pass is at the first width, then the next.
    @Test func rotationWalksTheWidths() throws {
        let fixture = try fixture(cellScenario(workload: #"{"kind": "cell-measure", "widths": [390, 600], "rotateEvery": 7}"#))
        let card = fixture.rows.templates.firstIndex { $0.name == "card" }!
        let k = (0..<14).first { fixture.rows.kinds[$0 % 120] == card && $0 >= 7 }!
        #expect(fixture.position(0).width == (fixture.rows.kinds[0] == card ? 390 : 390 - 34))
        #expect(fixture.position(k).width == 600)
    }
}
