/// How a layout follows changes to its data in the `append` and `edit` workloads (docs/modes.md).
public enum WaterfallUpdateMode: String, CaseIterable, Sendable {
    /// Recompute every frame on every change.
    case full
    /// Continue from cached column bottoms; restart edits from a checkpoint and stop where the columns re-synchronise.
    case incremental
    /// Items keep the column they were given; an edit moves only the later items of that column.
    case stableLanes = "stable-lanes"
    /// Items the user has seen keep their column; later items are placed afresh by the rule.
    case lockLanes = "lock-lanes"

    /// The updater that implements this mode.
    public func make(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError)
        -> any LayoutUpdater
    {
        switch self {
        case .full: return try FullRecomputeUpdater(bounds: bounds, styles: styles, data: data)
        case .incremental: return try IncrementalWaterfallUpdater(bounds: bounds, styles: styles, data: data)
        case .stableLanes: return try StableLanesUpdater(bounds: bounds, styles: styles, data: data)
        case .lockLanes: return try LockLanesUpdater(bounds: bounds, styles: styles, data: data)
        }
    }
}
