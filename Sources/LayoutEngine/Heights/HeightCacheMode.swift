/// The height cache strategies of the `height-pass` workload (docs/modes.md), by their CSV `mode` name.
public enum HeightCacheMode: String, CaseIterable, Sendable {
    case none
    case fdIndexPath = "fd-index-path"
    case indexPath = "index-path"
    case keyed
    case widthKeyed = "width-keyed"

    /// One sentence for listings, naming the library reproduced.
    public var summary: String {
        switch self {
        case .none:
            return "No cache: every row is measured by its template cell on every pass."
        case .fdIndexPath:
            return "FDTemplateLayoutCell's index-path cache as shipped: portrait and landscape tables, an O(row) build "
                + "loop on every lookup, batch calls applied in call order with its bugs (ascending section deletes, moves as swaps)."
        case .indexPath:
            return "Index-path cache with O(1) lookups that follows batches with UIKit's semantics (arrays edited once per batch)."
        case .keyed:
            return "Cache by stable item id (FD's cacheByKey, lpd-tableview-kit's height in the view model): a batch is O(changes)."
        case .widthKeyed:
            return "Cache by item id and width (Listable's SizeKey): a width change measures again, a return to an earlier width hits."
        }
    }

    /// Whether the mode returns a fresh measurement's height for every row after any change.
    public var isExact: Bool { self != .fdIndexPath }
}
