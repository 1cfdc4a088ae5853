/// `rebuild`: DZTableView's `reduceContentSize`, faithfully: every change (a measured height, an
/// insert, a removal) rebuilds the end offset of every row from the heights, O(n); the first visible
/// row is found the way its `displayRange` does on every frame, by a linear prefix sum of the
/// heights from row 0, O(row).
///
/// DZTableView keeps `vector<float>` heights and a `map<int, float>` of end offsets; here both are
/// flat `Double` arrays (the float drift is shown by `RowOffsetsPrecisionTests`; a map lookup would add a
/// log n factor to `offset(of:)`).
public struct RebuildRowOffsets: RowOffsets {
    private var heights: [Double]
    /// `ends[i]`: where row i ends (DZTableView's `_cellYOffsets`).
    private var ends: [Double] = []

    public init(heights: [Double]) throws(RowOffsetsError) {
        for height in heights { try Self.checkHeight(height) }
        self.heights = heights
        rebuild()
    }

    public init(count: Int, estimate: Double) throws(RowOffsetsError) {
        guard count >= 0 else { throw RowOffsetsError.invalidCount(count) }
        try Self.checkHeight(estimate)
        try self.init(heights: Array(repeating: estimate, count: count))
    }

    /// `reduceContentSize`: every end offset again, from row 0.
    private mutating func rebuild() {
        ends.removeAll(keepingCapacity: true)
        ends.reserveCapacity(heights.count)
        var y = 0.0
        for height in heights {
            y += height
            ends.append(y)
        }
    }

    public var count: Int { heights.count }
    public func height(of row: Int) -> Double { heights[row] }
    public func offset(of row: Int) -> Double { row == 0 ? 0 : ends[row - 1] }

    public func row(at y: Double) throws(RowOffsetsError) -> Int {
        try Self.checkOffset(y)
        guard count > 0 else { return 0 }
        // displayRange: sum the heights from row 0 until the sum passes y.
        var sum = 0.0
        for row in 0..<(count - 1) {
            sum += heights[row]
            if sum > y { return row }
        }
        return count - 1
    }

    public mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError) {
        try Self.checkRow(row, count: count)
        try Self.checkHeight(height)
        heights[row] = height
        rebuild()
    }

    public mutating func insert(heights new: [Double], at row: Int) throws(RowOffsetsError) {
        try Self.checkInsert(new, at: row, count: count)
        heights.insert(contentsOf: new, at: row)
        rebuild()
    }

    public mutating func remove(at row: Int, count removing: Int) throws(RowOffsetsError) {
        try Self.checkRemove(at: row, removing: removing, count: count)
        heights.removeSubrange(row..<(row + removing))
        rebuild()
    }

    public var storageBytes: Int { 8 * (heights.capacity + ends.capacity) }
}
