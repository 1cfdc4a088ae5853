import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-sticky-scroll`: per strategy, `sticky-scroll`'s trace (`StickyScrollTrace`, same keys,
/// same offsets for the same content height) as UIKit drives any layout through it. One operation
/// (`scroll-step`) is one bounds change: `shouldInvalidate(forBoundsChange:)`; when it says yes,
/// `invalidationContext(forBoundsChange:)`, `invalidate(with:)` and `prepare()`; then the new
/// viewport's `elements(in:into:)`.
///
/// Verified before timing at every step (every 10th above 300,000 items), on the answer the timed
/// path gave: every element's frame by `LayoutContract`'s rules for the step's bounds, and the
/// answer exactly the brute force over every element's current `attributes(for:)`, pinned ones
/// included; when the kind declares `sameGeometryAs`, every element against the reference
/// geometry with the built-in pinning at that offset.
package struct LayoutStickyScrollWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = LayoutScrollFixture.Operation

    package static let generic = GenericWorkload.stickyScroll
    package static let about =
        "any registered layout kind: sticky-scroll's trace, each step shouldInvalidate, invalidationContext, invalidate and prepare as UIKit calls them, then the viewport query"

    package static let keys = [StickyScrollWorkload.stepsKey]

    /// Scroll steps in the trace.
    package var steps: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(StickyScrollWorkload.stepsKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.scrollStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: 1) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutScrollFixture {
        try LayoutScrollFixture(build: LayoutBuild(scenario: scenario, items: items), trace: .sticky(steps: steps))
    }
}
