import LayoutEngine

/// The plain answer every `RowOffsets` strategy is verified against, computed as a reader of the
/// definition would: row `i` starts at the sum of the heights of rows `0 ..< i`, added in order
/// from the top; the row at offset `y` is the last one that starts at or above it.
///
/// It keeps no state between changes but the heights: after every change the starts are summed
/// again from row 0, so nothing a change leaves behind (a stale start, the wrong first row to
/// re-sum from, a shifted slot after an insert) can reach an answer. That is deliberately not
/// the `suffix` strategy's algorithm (re-summing from the changed row, a binary search), which
/// this checks. O(n) per change, O(log n) per `row(at:)`: the `offsets` workload records its traces
/// against it once per fixture, and refuses at load the traces that would take too many changes
/// of too many rows (`ScenarioLimits.maxStormRowSums`).
public struct PrefixSumReference: RowOffsets {
    public private(set) var heights: [Double]
    /// All row starts plus the content height (`count + 1` values).
    public private(set) var allOffsets: [Double] = []

    public init(heights: [Double]) throws(RowOffsetsError) {
        for height in heights { try Self.checkHeight(height) }
        self.heights = heights
        sumFromTheTop()
    }

    public init(count: Int, estimate: Double) throws(RowOffsetsError) {
        guard count >= 0 else { throw RowOffsetsError.invalidCount(count) }
        try Self.checkHeight(estimate)
        try self.init(heights: Array(repeating: estimate, count: count))
    }

    /// Every start again: 0, then each row's height added to the running sum, top to bottom
    /// (through buffer pointers: a trace records thousands of changes of a million rows). The
    /// starts are resized in place, so an insert or a remove reuses their storage.
    private mutating func sumFromTheTop() {
        let wanted = heights.count + 1
        if allOffsets.count > wanted {
            allOffsets.removeLast(allOffsets.count - wanted)
        } else if allOffsets.count < wanted {
            allOffsets.append(contentsOf: repeatElement(0, count: wanted - allOffsets.count))
        }
        heights.withUnsafeBufferPointer { heights in
            allOffsets.withUnsafeMutableBufferPointer { starts in
                var sum = 0.0
                for row in 0..<heights.count {
                    starts[row] = sum
                    sum += heights[row]
                }
                starts[heights.count] = sum
            }
        }
    }

    public var count: Int { heights.count }
    public func height(of row: Int) -> Double { heights[row] }
    public func offset(of row: Int) -> Double { allOffsets[row] }

    /// The last row that starts at or above `y` (row 0 when none does), by halving an interval
    /// whose lower end always starts at or above `y` (or is row 0) and whose upper end is past the
    /// answer: the starts never decrease, heights being at least 0. (A walk from the top would be
    /// O(row) per query, too slow for the reuse workload's million-frame traces.)
    public func row(at y: Double) throws(RowOffsetsError) -> Int {
        try Self.checkOffset(y)
        var atOrAbove = 0, past = Swift.max(count, 1)
        while past - atOrAbove > 1 {
            let probe = atOrAbove + (past - atOrAbove) / 2
            if allOffsets[probe] <= y { atOrAbove = probe } else { past = probe }
        }
        return atOrAbove
    }

    public mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError) {
        try Self.checkRow(row, count: count)
        try Self.checkHeight(height)
        heights[row] = height
        sumFromTheTop()
    }

    public mutating func insert(heights new: [Double], at row: Int) throws(RowOffsetsError) {
        try Self.checkInsert(new, at: row, count: count)
        heights.insert(contentsOf: new, at: row)
        sumFromTheTop()
    }

    public mutating func remove(at row: Int, count removing: Int) throws(RowOffsetsError) {
        try Self.checkRemove(at: row, removing: removing, count: count)
        heights.removeSubrange(row..<(row + removing))
        sumFromTheTop()
    }

    public var storageBytes: Int { 8 * (heights.capacity + allOffsets.capacity) }
}
