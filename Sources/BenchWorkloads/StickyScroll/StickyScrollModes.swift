import LayoutEngine
import BenchResults

extension StickyScrollWorkload {
    package enum Mode: String, WorkloadMode {
        case relayout
        case scan
        case cached
        case viewportQuery = "viewport-query"

        /// The engine's strategy, or nil for the baseline. A switch, not the raw value: a
        /// harness name that matched no engine case would otherwise build the unpinned baseline
        /// and be verified against the unpinned reference (`ModeMappingTests`).
        package var pinningMode: PinningMode? {
            switch self {
            case .relayout: return .relayout
            case .scan: return .scan
            case .cached: return .cached
            case .viewportQuery: return nil
            }
        }

        /// Every strategy is exact.
        package var accuracyMetric: Metric? { nil }

        /// What the mode keeps per item at most: the layout and its pinning state, measured by
        /// `ModeFootprintTests`.
        package var bytesPerItem: Double { 96 }

        package var about: String {
            switch self {
            case .relayout: return "every bounds change recomputes the whole layout, index and pinned frames (no cache)"
            case .scan: return "item frames cached; pinned frames recomputed by scanning sections 0…last visible"
            case .cached:
                return "item frames cached; sections under the visible top and bottom found by a galloping search, "
                    + "only their header and footer recomputed: O(log S)"
            case .viewportQuery:
                return "baseline: the same layout's viewport query at each step's offset, nothing pinned, no invalidation"
            }
        }

        package var reproduces: String {
            switch self {
            case .relayout: return "CHTCollectionViewWaterfallLayout (invalidates on every bounds change)"
            case .scan: return "HDCollectionView's HDHeaderStopHelper, Listable"
            case .cached: return "none: a galloping search from the last step"
            case .viewportQuery: return "a baseline"
            }
        }
    }
}
