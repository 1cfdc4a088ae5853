import Testing
import HarnessTestSupport
@testable import BenchScenarios
import LayoutEngine

/// `layout.placement` and `layout.tolerance` (docs/scenario-format.md): read per section, with
/// one error line naming the file and the JSON path for every bad value.
@Suite struct PlacementKeyTests {
    static func placements(_ layout: String) throws -> [WaterfallPlacementRule] {
        try parseScenario(scenarioJSON(layout: layout)).layout.sections.map { section in
            guard case .waterfall(let waterfall) = section.style.kind else { return .leftmost }
            return waterfall.placement
        }
    }

    @Test func rulesAndTheirDefaults() throws {
        #expect(try Self.placements(#"{"kind": "waterfall"}"#) == [.leftmost])
        #expect(try Self.placements(#"{"kind": "waterfall", "placement": "last-index"}"#) == [.lastIndex])
        #expect(try Self.placements(#"{"kind": "waterfall", "placement": "grid-lanes"}"#) == [.gridLanes(tolerance: 16)])
        #expect(try Self.placements(#"{"kind": "waterfall", "placement": "grid-lanes", "tolerance": 0}"#) == [.gridLanes(tolerance: 0)])
        // Per-section overrides: the placement and the tolerance each on their own.
        #expect(try Self.placements(
            #"{"kind": "waterfall", "placement": "grid-lanes", "tolerance": 4, "sections": [{}, {"placement": "leftmost"}, {"tolerance": 30}]}"#)
            == [.gridLanes(tolerance: 4), .leftmost, .gridLanes(tolerance: 30)])
        #expect(try Self.placements(
            #"{"kind": "waterfall", "placement": "grid-lanes", "sections": [{"tolerance": 4}, {"placement": "last-index"}, {}]}"#)
            == [.gridLanes(tolerance: 4), .lastIndex, .gridLanes(tolerance: 16)])
    }

    @Test func unknownPlacement() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "shortest"}"#), path: "layout.placement",
            #"unknown value "shortest"; expected one of "leftmost", "last-index", "grid-lanes""#)
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "sections": [{}, {"placement": 2}]}"#), path: "layout.sections[1].placement",
            "got 2")
    }

    @Test func badTolerance() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "grid-lanes", "tolerance": -1}"#), path: "layout.tolerance",
            "expected a number from 0 to 1000000000, got -1")
        // JSON has no NaN or infinity: a huge exponent is the way to write one, and it is refused.
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "grid-lanes", "tolerance": 1e999}"#), path: "layout.tolerance",
            "too large to be a finite number")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "grid-lanes", "tolerance": "1em"}"#), path: "layout.tolerance",
            "got \"1em\"")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "grid-lanes", "sections": [{"tolerance": -0.5}]}"#),
            path: "layout.sections[0].tolerance", "got -0.5")
    }

    /// The lane count's limit (docs/scenario-format.md, limits) holds under every rule, for the
    /// layout and for a section, and a tolerance's error does not hide behind the rule's.
    @Test func laneCountAboveTheLimitUnderEveryRule() {
        for rule in WaterfallPlacementRule.names {
            expectScenarioError(
                scenarioJSON(layout: #"{"kind": "waterfall", "placement": "\#(rule)", "columns": 1001}"#), path: "layout.columns",
                "expected an integer from 1 to 1000, got 1001")
            expectScenarioError(
                scenarioJSON(layout: #"{"kind": "waterfall", "sections": [{}, {"placement": "\#(rule)", "columns": 100000}]}"#),
                path: "layout.sections[1].columns", "got 100000")
        }
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "grid-lanes", "columns": 4, "tolerance": -1e999}"#),
            path: "layout.tolerance", "too large to be a finite number")
    }

    @Test func toleranceOnlyWithGridLanes() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "tolerance": 8}"#), path: "layout.tolerance",
            "'tolerance' applies to placement grid-lanes only; this layout's placement is leftmost")
        // At layout level, a tolerance is a default: an error only when no section uses grid-lanes.
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "placement": "grid-lanes", "tolerance": 8, "sections": [{"placement": "last-index"}]}"#),
            path: "layout.tolerance", "'tolerance' applies to placement grid-lanes only, and no entry of layout.sections uses it")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "sections": [{"placement": "grid-lanes"}, {"tolerance": 2}]}"#),
            path: "layout.sections[1].tolerance", "this section's placement is leftmost")
    }

    @Test func waterfallOnly() {
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "placement": "last-index"}"#), path: "layout.placement",
            "'placement' applies to waterfall sections only; this layout is a list")
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "waterfall", "sections": [{"kind": "flow", "tolerance": 3}]}"#),
            path: "layout.sections[0].tolerance", "'tolerance' applies to waterfall sections only; this section is a flow")
    }
}
