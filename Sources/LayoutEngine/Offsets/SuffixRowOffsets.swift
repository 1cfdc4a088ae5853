/// `suffix`: the row starts are kept in an array and re-summed from the first changed row only
/// (TanStack Virtual's `pendingMin`, react-virtualized's `_lastMeasuredIndex`): O(n − i) per change
/// at row i, O(log n) row-at-offset by binary search over the starts.
public struct SuffixRowOffsets: RowOffsets {
    private var heights: [Double]
    /// `starts[i]`: where row i starts; `starts[count]` is the content height.
    private var starts: [Double]

    public init(heights: [Double]) throws(RowOffsetsError) {
        for height in heights { try Self.checkHeight(height) }
        self.heights = heights
        starts = Array(repeating: 0, count: heights.count + 1)
        resum(from: 0)
    }

    public init(count: Int, estimate: Double) throws(RowOffsetsError) {
        guard count >= 0 else { throw RowOffsetsError.invalidCount(count) }
        try Self.checkHeight(estimate)
        try self.init(heights: Array(repeating: estimate, count: count))
    }

    /// Re-sums the starts of rows `first + 1 ... count` (`starts` already has `count + 1` slots).
    private mutating func resum(from first: Int) {
        heights.withUnsafeBufferPointer { heights in
            starts.withUnsafeMutableBufferPointer { starts in
                var y = starts[first]
                for row in first..<heights.count {
                    y += heights[row]
                    starts[row + 1] = y
                }
            }
        }
    }

    public var count: Int { heights.count }
    public func height(of row: Int) -> Double { heights[row] }
    public func offset(of row: Int) -> Double { starts[row] }

    public func row(at y: Double) throws(RowOffsetsError) -> Int {
        try Self.checkOffset(y)
        guard count > 0 else { return 0 }
        // The number of rows among 1..<count that start at or above y.
        var low = 1, high = count
        while low < high {
            let middle = (low + high) >> 1
            if starts[middle] <= y { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    public mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError) {
        try Self.checkRow(row, count: count)
        try Self.checkHeight(height)
        heights[row] = height
        resum(from: row)
    }

    public mutating func insert(heights new: [Double], at row: Int) throws(RowOffsetsError) {
        try Self.checkInsert(new, at: row, count: count)
        heights.insert(contentsOf: new, at: row)
        starts.insert(contentsOf: repeatElement(0, count: new.count), at: row + 1)
        resum(from: row)
    }

    public mutating func remove(at row: Int, count removing: Int) throws(RowOffsetsError) {
        try Self.checkRemove(at: row, removing: removing, count: count)
        heights.removeSubrange(row..<(row + removing))
        starts.removeSubrange((row + 1)..<(row + 1 + removing))
        resum(from: row)
    }

    public var storageBytes: Int { 8 * (heights.capacity + starts.capacity) }
}
