import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-query`: per strategy, the scroll trace (`ScrollTrace`, as `query` replays it) through
/// the prepared layout's `elements(in:into:)`, one viewport rect per operation, with no bounds
/// change between frames.
package struct LayoutQueryWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One viewport-sized `elements(in:into:)`.
        case query

        package var timed: String {
            "one viewport rect of `query`'s scroll trace through `elements(in:into:)`, in order, wrapping at its end, "
                + "with no bounds change; a sample is a batch of consecutive frames, divided"
        }
        package var untimed: String { "the layout's first prepare, the answer buffer's first growth (warm-up)" }
    }

    package static let generic = GenericWorkload.query
    package static let about = "any registered layout kind: viewport rect queries along the scroll trace of `query`, through elements(in:into:)"
    package static let keys = [QueryWorkload.framesKey]

    /// Frames in the scroll trace.
    package var frames: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(QueryWorkload.framesKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.query] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: frames + LayoutBuild.checkFrames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutQueryFixture {
        try LayoutQueryFixture(build: LayoutBuild(scenario: scenario, items: items), frames: frames)
    }
}
