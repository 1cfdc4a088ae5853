/// How a layout follows changes to its data in the `append` and `edit` workloads (docs/modes.md).
public enum WaterfallUpdateMode: String, CaseIterable, Sendable {
    /// Recompute every frame on every change.
    case full
    /// Continue from cached column bottoms; restart edits from a checkpoint and stop where the columns re-synchronise.
    case incremental
    /// Items keep the column they were given; an edit moves only the later items of that column.
    case stableLanes = "stable-lanes"

    /// One sentence for listings and the CSV documentation, naming the library reproduced.
    public var summary: String {
        switch self {
        case .full:
            return "Recomputes every frame on every change, as CHTCollectionViewWaterfallLayout's prepareLayout does."
        case .incremental:
            return "HDCollectionView extended: appends continue from cached column heights, middle edits restart "
                + "from a checkpoint and stop where the column heights re-synchronise, later sections are shifted."
        case .stableLanes:
            return "TanStack Virtual's cached lanes: items keep their column, so a height edit shifts only the later "
                + "items of that column (a different placement, verified against its own reference)."
        }
    }

    /// The updater that implements this mode.
    public func makeUpdater(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError)
        -> any LayoutUpdater
    {
        switch self {
        case .full: return try FullRecomputeUpdater(bounds: bounds, styles: styles, data: data)
        case .incremental: return try IncrementalWaterfallUpdater(bounds: bounds, styles: styles, data: data)
        case .stableLanes: return try StableLanesUpdater(bounds: bounds, styles: styles, data: data)
        }
    }
}
