/// The strategies of the `offsets` workload (docs/modes.md), by their CSV names.
public enum RowOffsetsMode: String, CaseIterable, Sendable {
    case rebuild
    case suffix
    case fenwick
    case btree

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
