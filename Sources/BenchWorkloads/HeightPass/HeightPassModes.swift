import LayoutEngine
import BenchResults

/// The height caches, as a user reads them.
extension HeightCacheMode: WorkloadMode {
    package var about: String {
        switch self {
        case .none: return "no cache: every row is measured by its template cell on every pass"
        case .fdIndexPath:
            return "index-path cache as shipped: portrait and landscape tables, an O(row) build loop on every lookup, "
                + "batch calls applied in call order with its bugs (ascending section deletes, moves as swaps)"
        case .indexPath: return "index-path cache with O(1) lookups that follows batches with UIKit's semantics"
        case .keyed: return "cache by stable item id: a batch is O(changes)"
        case .widthKeyed: return "cache by item id and width: a width change measures again, a return to an earlier width hits"
        }
    }

    package var reproduces: String {
        switch self {
        case .none: return "no cache (a plain self-sizing table)"
        case .fdIndexPath: return "FDTemplateLayoutCell's cacheByIndexPath"
        case .indexPath: return "FDTemplateLayoutCell's idea, with UIKit's batch rules"
        case .keyed: return "FDTemplateLayoutCell's cacheByKey, lpd-tableview-kit"
        case .widthKeyed: return "Listable's SizeKey"
        }
    }

    /// FDTemplateLayoutCell's index-path cache is wrong by design after some batch updates: it
    /// reports its wrong heights.
    package var accuracyMetric: Metric? { isExact ? nil : .wrongHeights }

    /// What the mode keeps per item at most: the table model and the cache, whose keys cost more
    /// than the heights (`ModeFootprintTests`).
    package var bytesPerItem: Double {
        switch self {
        case .none: 160
        case .fdIndexPath: 384
        case .indexPath: 256
        case .keyed: 1024
        case .widthKeyed: 2048
        }
    }
}
