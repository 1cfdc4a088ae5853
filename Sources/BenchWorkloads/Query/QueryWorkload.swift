import LayoutEngine
import BenchScenarios

/// `query`: replays a scroll trace (`ScrollTrace`) and issues one viewport-sized rect query per
/// frame, as `layoutAttributesForElements(in:)` is called while scrolling. Modes are the rect-query
/// strategies; each is verified against the exact answer of `linear` on every frame of the trace,
/// and heuristic modes report their recall and the elements they return per query.
///
/// Pinning is the layout's: when the scenario's headers or footers pin, each frame is a bounds
/// change to that frame's viewport (shouldInvalidate, invalidate, prepare, as `sticky-scroll` does
/// with the `cached` pinning mode) followed by the query, so every mode answers with the pinned
/// frames for that viewport, checked against the reference's pinning. A layout without pins is
/// queried as it is, with no bounds change.
package struct QueryWorkload: Workload {
    package typealias Mode = RectQueryMode
    package static let kind = "query"
    package static let about = "viewport rect queries along a scroll trace (drags, flings, a scrubber pass, a jump to the top)"

    /// Frames in the scroll trace.
    package var frames: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(Self.framesKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.query] }

    package func validate(_ scenario: Scenario) throws(ScenarioError) {}

    /// The verification keeps the exact answer of every frame.
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: frames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> QueryFixture {
        try QueryFixture(scenario: scenario, items: items, frames: frames)
    }
}
