import LayoutEngine
import BenchResults

/// The update strategies of `append` and `edit`, as a user reads them.
extension WaterfallUpdateMode: WorkloadMode {
    package var about: String {
        switch self {
        case .full: return "recomputes every frame on every change"
        case .incremental:
            return "appends continue from cached column heights; middle edits restart from a checkpoint and stop where "
                + "the column heights re-synchronise; later sections are shifted"
        case .stableLanes:
            return "items keep their column, so an edit shifts only later items of that column, O(chunk + lanes · log n) "
                + "(a different placement, verified against its own reference)"
        case .lockLanes:
            return "items up to the last one the user has seen keep their column, later ones are placed afresh by the "
                + "rule after each change, O(n) (its own placement, verified against its own reference)"
        }
    }

    package var reproduces: String {
        switch self {
        case .full: return "CHTCollectionViewWaterfallLayout's prepareLayout"
        case .incremental: return "HDCollectionView, extended to middle edits"
        case .stableLanes: return "TanStack Virtual's cached lanes"
        case .lockLanes: return "FlashList's proposal: lanes locked up to the last engaged index"
        }
    }

    /// Every strategy is exact.
    package var accuracyMetric: Metric? { nil }

    /// What the mode keeps per item at most: the layout, its column state and the edit trace's
    /// copies (`ModeFootprintTests`; the edit workload keeps most, 195 B at 32 lanes).
    package var bytesPerItem: Double {
        switch self {
        case .full, .incremental, .stableLanes, .lockLanes: 208
        }
    }
}
