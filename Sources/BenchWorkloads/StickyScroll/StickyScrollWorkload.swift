import BenchScenarios

/// `sticky-scroll`: a layout with pinned headers and footers scrolled along a `StickyScrollTrace`.
/// One operation (`scroll-step`) is what UIKit does for one bounds change: ask
/// `shouldInvalidate(forBoundsChange:)`, invalidate with the bounds-change context, `prepare()`, and
/// query the new viewport. The modes are the pinning modes (`PinningMode`), plus the baseline
/// `viewport-query`: the same layout's viewport query at the same offsets with nothing pinned and
/// no invalidation, so that the cost a scroll step adds to the query reads as a ratio in one run.
///
/// Every mode is verified at every step against the independent reference
/// (`ReferenceLayout.pinnedElements`, a direct computation of docs/engine-semantics.md from natural frames); above
/// 300,000 items at every 10th step, as the query workload checks its trace frames.
package struct StickyScrollWorkload: Workload {
    package static let kind = "sticky-scroll"
    package static let about = "bounds changes with pinned headers and footers: invalidate, prepare and query the viewport, one scroll step per operation"

    /// Scroll steps in the trace.
    package var steps: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(Self.stepsKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.scrollStep] }

    package func validate(_ scenario: Scenario) throws(ScenarioError) {}

    package var footprint: WorkloadFootprint { .none }

    package func makeFixture(scenario: Scenario, items: Int) throws -> StickyScrollFixture {
        try StickyScrollFixture(scenario: scenario, items: items, steps: steps)
    }
}
