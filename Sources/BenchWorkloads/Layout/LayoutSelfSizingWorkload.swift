import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-self-sizing`: per strategy, a self-sizing collection view scrolled through any layout
/// kind that applies preferred attributes. Every item starts at the estimate (the
/// `estimatedHeight` and `estimatedWidth` keys, UIKit's `estimatedItemSize`: the layout is built
/// by its factory from data of estimated sizes); along a scroll trace of drags, a fling, a far jump
/// and a scroll back up (`SelfSizingTrace`), each item that enters the viewport for the first time
/// reports its true size, the data's, as UIKit's self-sizing cells do (`SelfSizingSession`).
///
/// One operation (`self-sizing-step`) is one step of the trace: the bounds change to the step's
/// offset, the viewport query, the new items' preferred attributes through
/// `shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)` and
/// `invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:visibleBounds:)`, each
/// context to `invalidate(with:)` with its `contentOffsetAdjustment` applied to the offset, then
/// `prepare()`, the bounds change to the adjusted offset and the query again, until no item in the
/// viewport is new.
///
/// Verified before timing at every step: every measured item's frame, and the content height,
/// equal those of a fresh layout from the kind's factory whose data has the true sizes for the
/// measured items and the estimates for the rest (`self-sizing-equals-fresh`; a layout that keeps
/// its estimates fails here); after the trace, the layout passes `LayoutContract` for that data. A
/// context whose preferred size is negative or not finite, or whose adjustments are not finite,
/// fails the mode (`self-sizing-context`). The collection view's content size follows each
/// context's `contentSizeAdjustment` as UIKit applies it, before the next `prepare()`; when a
/// pass's contexts adjust it at all (UIKit's default is zero: a layout may leave it so), the
/// adjusted size must be the content size the layout reports after that `prepare()`
/// (`self-sizing-content-size`, at every step, timed or not). Reported with the timing, as the `offsets` workload
/// defines them: `anchor_jump` (how far the first item that starts at or below the viewport top
/// moved on screen in a step, after the layout's offset adjustment, summed over the steps) and
/// `size_churn` (how much the content height changed, summed over the steps).
package struct LayoutSelfSizingWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One step of the trace, with the preferred attributes of the items it brings into view.
        case selfSizingStep = "self-sizing-step"

        package var timed: String {
            "one step of the trace, in order: the bounds change to the step's offset, the viewport's `elements(in:into:)`, "
                + "each new item's preferred attributes through `shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)` "
                + "and `invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:visibleBounds:)` to `invalidate(with:)`, "
                + "the offset adjusted, `prepare()`, and the query again until no item in view is new"
        }
        package var untimed: String {
            "a fresh layout of the estimated data and its first prepare when the trace is used up; the verification pass"
        }
    }

    package static let generic = GenericWorkload.selfSizing
    package static let about =
        "any layout kind that applies preferred attributes: items start at estimated sizes and report their true size when they first enter the viewport, along drags, a fling, a jump and a scroll back up"

    package static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(120), bound: .between(6, 10_000),
        about: "steps of the scroll trace: drags, a fling, a jump to 60% of the content and a scroll back up")
    package static let estimatedHeightKey = WorkloadKey(
        "estimatedHeight", .number, default: .described("44"), bound: .size,
        about: "every item's estimated height (UIKit's `estimatedItemSize.height`)")
    package static let estimatedWidthKey = WorkloadKey(
        "estimatedWidth", .number, default: .described("0: each item keeps its own width, and reports the width the layout gave it"), bound: .size,
        about: "every item's estimated width, for a layout that sizes items by their width (flow); 0 keeps the data's widths")
    package static let keys = [stepsKey, estimatedHeightKey, estimatedWidthKey]

    package var steps: Int
    package var estimatedHeight: Double
    package var estimatedWidth: Double

    package init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(Self.stepsKey)
        estimatedHeight = try spec.optionalDouble(Self.estimatedHeightKey) ?? 44
        estimatedWidth = try spec.optionalDouble(Self.estimatedWidthKey) ?? 0
        try spec.finish()
    }

    package var operations: [Operation] { [.selfSizingStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: LayoutBuild.checkFrames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutSelfSizingFixture {
        try LayoutSelfSizingFixture(build: LayoutBuild(scenario: scenario, items: items), workload: self)
    }
}
