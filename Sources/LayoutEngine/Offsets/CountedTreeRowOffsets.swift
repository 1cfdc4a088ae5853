/// `btree`: the rows' heights in a counted B+-tree (`CountedHeightTree`), so that a measured
/// height, an offset, a row-at-offset, and also an insert or a removal in the middle all cost
/// O(log n) — the case a Fenwick tree cannot handle without a rebuild.
public struct CountedTreeRowOffsets: RowOffsets {
    private var tree: CountedHeightTree

    public init(heights: [Double]) throws(RowOffsetsError) {
        for height in heights { try Self.checkHeight(height) }
        tree = CountedHeightTree(heights)
    }

    public init(count: Int, estimate: Double) throws(RowOffsetsError) {
        guard count >= 0 else { throw RowOffsetsError.invalidCount(count) }
        try Self.checkHeight(estimate)
        tree = CountedHeightTree(Array(repeating: estimate, count: count))
    }

    public var count: Int { tree.count }
    public func height(of row: Int) -> Double { tree.value(at: row) }
    public func offset(of row: Int) -> Double { tree.prefixSum(upTo: row) }

    public func row(at y: Double) throws(RowOffsetsError) -> Int {
        try Self.checkOffset(y)
        guard count > 0 else { return 0 }
        return Swift.min(tree.lastIndex(withPrefixSumAtMost: y), count - 1)
    }

    public mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError) {
        try Self.checkRow(row, count: count)
        try Self.checkHeight(height)
        tree.setValue(height, at: row)
    }

    public mutating func insert(heights new: [Double], at row: Int) throws(RowOffsetsError) {
        try Self.checkInsert(new, at: row, count: count)
        for (i, height) in new.enumerated() { tree.insert(height, at: row + i) }
    }

    public mutating func remove(at row: Int, count removing: Int) throws(RowOffsetsError) {
        try Self.checkRemove(at: row, removing: removing, count: count)
        for _ in 0..<removing { tree.remove(at: row) }
    }

    public var storageBytes: Int { tree.storageBytes }
}

extension CountedTreeRowOffsets: InvariantChecking {
    /// The tree's own invariants.
    public func invariantViolation() -> String? { tree.invariantViolation() }
}
