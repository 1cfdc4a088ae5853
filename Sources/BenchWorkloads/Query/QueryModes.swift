import LayoutEngine
import BenchResults

/// The rect-query strategies, as a user reads them (the algorithms are `RectQueryMode`'s indexes).
extension RectQueryMode: WorkloadMode {
    package var about: String {
        switch self {
        case .linear: return "tests every element"
        case .unionBlocks: return "blocks of 20 elements with their union rect, scanned from both ends"
        case .binaryProbe: return "binary search for any hit, then 40 more probes past the first miss with a 1 pt tolerance (heuristic)"
        case .binary: return "exact binary search on minY-sorted items with a prefix maximum of maxY: O(log n + k)"
        case .perColumn: return "per-column sorted arrays plus a spanning array, made exact with a prefix maximum of maxY"
        case .buckets: return "items registered in fixed-height y buckets (about a viewport), exact for any placement"
        case .coherent: return "moves the previous frame's answer by the scroll delta, galloping from the last walk; a jump searches afresh"
        case .masonryRange: return "binary search on item starts in index order, then expand both ways until every lane has an item past the viewport; returns the whole index range (heuristic)"
        case .intervalTree: return "implicit augmented interval tree per section (items sorted by top, subtree maximum of bottoms), exact: O(log n + k)"
        }
    }

    package var reproduces: String {
        switch self {
        case .linear: return "IGListKit, Listable"
        case .unionBlocks: return "CHTCollectionViewWaterfallLayout"
        case .binaryProbe: return "HDCollectionView"
        case .binary: return "none: the exact search"
        case .perColumn: return "HDWaterFlowLayout, made exact"
        case .buckets: return "none: exact for any placement"
        case .coherent: return "none: scroll-coherent"
        case .masonryRange: return "TanStack Virtual's masonry range (calculateRange with lanes)"
        case .intervalTree: return "react-virtualized's Masonry PositionCache (interval tree)"
        }
    }

    /// A heuristic (`binary-probe`, HDCollectionView's probe; `masonry-range`, TanStack's lanes)
    /// reports its recall.
    package var accuracyMetric: Metric? { isExact ? nil : .recall }

    /// What the mode keeps per item at most: its index beside the shared frames, and the answer
    /// buffer (`ModeFootprintTests`).
    package var bytesPerItem: Double {
        switch self {
        case .linear, .binaryProbe: 32
        case .masonryRange: 40
        case .unionBlocks: 128
        case .binary, .coherent: 64
        case .perColumn, .buckets: 48
        case .intervalTree: 80
        }
    }
}
