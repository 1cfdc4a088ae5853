/// The strategies of the `offsets` workload (docs/modes.md), by their CSV names.
public enum RowOffsetsMode: String, CaseIterable, Sendable {
    case rebuild
    case suffix
    case fenwick
    case btree

    /// One sentence for `layout-bench list` and docs/modes.md.
    public var summary: String {
        switch self {
        case .rebuild:
            return "every change rebuilds all row offsets, and the first visible row is found by summing heights from row 0 (DZTableView)"
        case .suffix:
            return "offsets re-summed from the first changed row, binary search for a row (TanStack Virtual, react-virtualized)"
        case .fenwick:
            return "Fenwick tree of measured-minus-estimate deltas: O(log n) update, offset and row-at-offset (binary lifting); inserts rebuild it"
        case .btree:
            return "counted B+-tree of heights (32 per leaf, 32 children per branch): middle inserts and deletes are O(log n) too"
        }
    }

    /// The structure for rows with these heights; `estimate` is the single estimate the Fenwick
    /// tree stores its deltas from.
    public func make(heights: [Double], estimate: Double) throws(RowOffsetsError) -> any RowOffsets {
        guard estimate.isFinite, estimate >= 0 else { throw RowOffsetsError.invalidHeight(estimate) }
        switch self {
        case .rebuild: return try RebuildRowOffsets(heights: heights)
        case .suffix: return try SuffixRowOffsets(heights: heights)
        case .fenwick: return try FenwickRowOffsets(heights: heights, estimate: estimate)
        case .btree: return try CountedTreeRowOffsets(heights: heights)
        }
    }
}
