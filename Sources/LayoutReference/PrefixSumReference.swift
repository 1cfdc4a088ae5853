import LayoutEngine

/// The plain answer every `RowOffsets` strategy is verified against: an array of heights and an
/// array of their prefix sums, re-summed from the changed row on every change. Obviously right, O(n).
public struct PrefixSumReference: RowOffsets {
    public private(set) var heights: [Double]
    private var starts: [Double] = [0]

    public init(heights: [Double]) throws(RowOffsetsError) {
        for height in heights { try Self.checkHeight(height) }
        self.heights = heights
        recompute(from: 0)
    }

    public init(count: Int, estimate: Double) throws(RowOffsetsError) {
        guard count >= 0 else { throw RowOffsetsError.invalidCount(count) }
        try Self.checkHeight(estimate)
        try self.init(heights: Array(repeating: estimate, count: count))
    }

    /// Re-sums from row `first`: `starts[i]` is the sum of the heights of rows `0 ..< i`, added in
    /// order. The starts up to `first` stand (the rows above it did not change); the array is first
    /// brought to `count + 1` values, then overwritten in place from `first + 1` on.
    private mutating func recompute(from first: Int) {
        let wanted = heights.count + 1
        if starts.count > wanted {
            starts.removeLast(starts.count - wanted)
        } else if starts.count < wanted {
            starts.append(contentsOf: repeatElement(0, count: wanted - starts.count))
        }
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

    /// All row starts plus the content height (`count + 1` values).
    public var allOffsets: [Double] { starts }

    public func row(at y: Double) throws(RowOffsetsError) -> Int {
        try Self.checkOffset(y)
        guard count > 0 else { return 0 }
        // The last row whose start is at or above y: the number of starts <= y among rows 1..<count.
        var low = 1, high = count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= y { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    public mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError) {
        try Self.checkRow(row, count: count)
        try Self.checkHeight(height)
        heights[row] = height
        recompute(from: row)
    }

    public mutating func insert(heights new: [Double], at row: Int) throws(RowOffsetsError) {
        try Self.checkInsert(new, at: row, count: count)
        heights.insert(contentsOf: new, at: row)
        recompute(from: row)
    }

    public mutating func remove(at row: Int, count removing: Int) throws(RowOffsetsError) {
        try Self.checkRemove(at: row, removing: removing, count: count)
        heights.removeSubrange(row..<(row + removing))
        recompute(from: row)
    }

    public var storageBytes: Int { 8 * (heights.capacity + starts.capacity) }
}
