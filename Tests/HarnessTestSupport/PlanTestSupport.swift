import Testing
import BenchScenarios
import BenchWorkloads
import LayoutEngine

/// Every frame of a layout, flattened for a checksum.
package func frameValues(_ frames: LayoutFrames) -> [Double] {
    frames.allElements().flatMap { [Double($0.id.kind.rawValue), Double($0.id.section), Double($0.id.index),
                                    $0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
}

/// The plan of a scenario text, as `run` makes it (optionally filtered).
package func plan(_ text: String, modes: [String] = [], items: [Int] = [], quick: Bool = false) throws -> BenchmarkPlan {
    try BenchmarkPlan(scenario: parseScenario(text), modeFilter: modes, itemsFilter: items, quick: quick)
}

/// The error that refused the plan of `json`, or nil when it was accepted.
package func planError(_ json: String) -> ScenarioError? {
    do throws(ScenarioError) {
        _ = try BenchmarkPlan(scenario: try parseScenario(json))
        return nil
    } catch {
        return error
    }
}

/// Expects a plan error at `path` whose message contains `message`.
package func expectPlanError(_ body: () throws -> BenchmarkPlan, path: String, _ message: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try body()
        Issue.record("expected an error at \(path)", sourceLocation: sourceLocation)
    } catch let error as ScenarioError {
        #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

package let mixedScenario = scenarioJSON(
    layout: #"""
    {"kind": "list", "itemSpacing": 6, "lineSpacing": 4, "insets": {"top": 5, "left": 8, "bottom": 5, "right": 8},
     "header": {"height": 30, "pin": "none"}, "footer": {"height": 12, "pin": "none"}, "background": true,
     "sections": [{"kind": "list"}, {"kind": "flow", "justify": "space-evenly", "align": "center"}, {"kind": "waterfall", "columns": 3}]}
    """#,
    data: #"{"generate": {"sections": 6, "heights": {"distribution": "uniform", "min": 20, "max": 180}, "widths": {"distribution": "uniform", "min": 30, "max": 140}, "seed": 42, "fullWidthEvery": 7}}"#,
    workload: #"{"kind": "query", "frames": 90}"#,
    modes: #"["linear", "union-blocks", "binary-probe", "binary", "per-column", "buckets"]"#,
    items: "[300, 2000]")

/// A list of text heights: the offsets workload's layout and data, and its scenario (the offsets,
/// sampling-turn and operation-failure tests share it).
package let offsetsListLayout = #"{"kind": "list", "lineSpacing": 0}"#
package let offsetsTextData = #"{"generate": {"heights": {"distribution": "text", "minWords": 3, "maxWords": 30}, "seed": 5}}"#

package func offsetsScenario(estimates: String = "[44, 90]") throws -> Scenario {
    try parseScenario(scenarioJSON(
        layout: offsetsListLayout, data: offsetsTextData,
        workload: #"{"kind": "offsets", "frames": 120, "estimates": \#(estimates), "steps": 20, "page": 7}"#,
        modes: #"["rebuild", "suffix", "fenwick", "btree"]"#))
}

extension JSONReader {
    /// The offsets workload of a parsed scenario.
    package func offsetsWorkload() throws(ScenarioError) -> OffsetsWorkload { try OffsetsWorkload(spec: self) }
}
