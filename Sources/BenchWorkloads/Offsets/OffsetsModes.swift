import LayoutEngine
import BenchResults

/// The offsets structures, as a user reads them.
extension RowOffsetsMode: WorkloadMode {
    package var about: String {
        switch self {
        case .rebuild: return "every change rebuilds all row offsets; the first visible row is found by summing heights from row 0"
        case .suffix: return "offsets re-summed from the first changed row; binary search for a row"
        case .fenwick: return "Fenwick tree of measured-minus-estimate deltas: O(log n) update, offset and row-at-offset; inserts rebuild it"
        case .btree: return "counted B+-tree of heights (32 per leaf, 32 children per branch): middle inserts and deletes are O(log n) too"
        }
    }

    package var reproduces: String {
        switch self {
        case .rebuild: return "DZTableView"
        case .suffix: return "TanStack Virtual, react-virtualized"
        case .fenwick: return "none: a Fenwick tree"
        case .btree: return "none: a counted B+-tree"
        }
    }

    /// Every strategy is exact.
    package var accuracyMetric: Metric? { nil }

    /// What the mode keeps per item at most: heights, estimates and one offsets structure per
    /// operation that keeps its own (`jump-back` and `rotate` start from other heights than the
    /// rest, so they share no storage) (`ModeFootprintTests`).
    package var bytesPerItem: Double {
        switch self {
        case .rebuild, .suffix, .fenwick: 320
        case .btree: 352
        }
    }
}
