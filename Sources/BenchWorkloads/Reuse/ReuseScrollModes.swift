import LayoutEngine
import BenchResults

/// The reuse strategies, as a user reads them.
extension ReuseMode: WorkloadMode {
    package var about: String {
        switch self {
        case .none: return "a new cell for every row that appears; cells that leave are dropped"
        case .setScan: return "a row-to-cell dictionary copied and filtered every frame, one unbounded pool scanned for the identifier"
        case .stacks: return "one bounded LIFO stack per reuse identifier; the visible range is a ring diffed against the previous one, O(change)"
        }
    }

    package var reproduces: String {
        switch self {
        case .none: return "no reuse"
        case .setScan: return "DZTableView"
        case .stacks: return "UITableView's queue per reuse identifier"
        }
    }

    /// Every strategy is exact.
    package var accuracyMetric: Metric? { nil }

    /// What the mode keeps per item at most: pools hold the visible cells, not one per item
    /// (`ModeFootprintTests`).
    package var bytesPerItem: Double {
        switch self {
        case .none, .setScan, .stacks: 8
        }
    }
}
