import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-reuse-scroll`: per strategy, `reuse-scroll`'s trace (`ScrollTrace`, `frames` offsets)
/// through any layout, with cells reused by reuse identifier. One operation (`scroll-step`) is the
/// bounds change of `layout-sticky-scroll`, the viewport's `elements(in:into:)`, and then the cells:
/// each element that left gives its cell back, each that entered dequeues one for its reuse
/// identifier (`SlotReusePool` over `StackCells`, the `stacks` strategy of `reuse-scroll`). Items
/// draw one of `identifiers` reuse identifiers at random (by `seed`); headers, footers and
/// decorations have one identifier each.
///
/// Verified before timing at every step: the answer as in `layout-sticky-scroll` (every 10th step
/// above 300,000 items), and the cells against `ReuseReference`, a plain simulation of the reuse
/// rules: the visible cells, the cells created and the dequeues after every step, every visible
/// element with one cell of its own identifier. Reported with the timing: `cells_created`,
/// `dequeues`, `peak_pool`, `most_visible`, `cells_needed`.
package struct LayoutReuseScrollWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = LayoutScrollFixture.Operation

    package static let generic = GenericWorkload.reuseScroll
    package static let about =
        "any registered layout kind: reuse-scroll's trace, each step a bounds change, the viewport query, and cells enqueued and dequeued by reuse identifier"

    /// As `reuse-scroll`'s, but at most 252: headers, footers and decorations take one identifier
    /// each of the 255.
    package static let identifiersKey = WorkloadKey(
        "identifiers", .integer, default: .integer(3), bound: .between(1, 252),
        about: "reuse identifiers the items draw from at random (headers, footers and decorations have one each)")
    package static let keys = [ReuseScrollWorkload.framesKey, identifiersKey, ReuseScrollWorkload.seedKey]

    package var frames: Int
    /// Reuse identifiers the items draw from (headers, footers and decorations add one each).
    package var identifiers: Int
    package var seed: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(ReuseScrollWorkload.framesKey)
        identifiers = try spec.int(Self.identifiersKey)
        seed = try spec.int(ReuseScrollWorkload.seedKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.scrollStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: 1) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutScrollFixture {
        try LayoutScrollFixture(
            build: LayoutBuild(scenario: scenario, items: items),
            trace: .reuse(frames: frames, identifiers: identifiers, seed: seed))
    }
}
