/// How a layout with pinned headers or footers keeps them in place while scrolling: the work one
/// bounds change costs (the modes of the `sticky-scroll` workload, docs/modes.md). All three give the
/// same frames; they differ in what `prepare()` recomputes after a bounds-only invalidation.
public enum PinningMode: String, Hashable, Sendable, CaseIterable {
    /// Every bounds change invalidates everything: `prepare()` lays out every item again, rebuilds
    /// the query index and computes the pinned frame of every section (CHT #89, layouts that
    /// return true from `shouldInvalidateLayout(forBoundsChange:)` and do all work in `prepare`).
    /// O(n) per scroll step.
    case relayout
    /// Item frames stay cached; `prepare()` walks sections 0 … last visible and computes each
    /// pinnable header's and footer's frame, accumulating the stacked offset on the way, as
    /// HDCollectionView's `HDHeaderStopHelper` and Listable's `positionStickySectionHeadersIfNeeded`
    /// do. O(sections above the viewport bottom) per scroll step.
    case scan
    /// Item frames stay cached; `prepare()` finds the section under the visible top and the one
    /// under the visible bottom by binary search and recomputes only their pinned header and
    /// footer; every other section's header and footer is at rest (natural, or pushed to the end
    /// of its section). O(log S) per scroll step.
    case cached

}
