/// `fenwick`: a Fenwick (binary indexed) tree of `measured − estimate` deltas, so that
/// `offset(of: i) = i · estimate + Σ deltas of rows < i` (the offsets strategies of docs/modes.md).
///
/// - Initialisation with one estimate does no per-row arithmetic: every delta is 0 (two
///   constant-filled arrays: the heights, all `estimate`, and the tree, all 0).
/// - A measured height is a point update, O(log n); an offset is a prefix query, O(log n).
/// - Row-at-offset descends the tree by binary lifting, O(log n): a node covering rows
///   `(p, p + 2^k]` holds the deltas of `2^k` rows, whose true height is that sum plus
///   `2^k · estimate`, never negative, so the descent stays monotone.
/// - A Fenwick tree cannot shift its indices: an insert or removal rebuilds it, O(n) (the case
///   `btree` exists for).
///
/// `offset(of:)` and `row(at:)` add the same nodes in the same order (highest node first), so
/// `row(at: offset(of: i))` is exactly `i` for a row of non-zero height.
public struct FenwickRowOffsets: RowOffsets {
    /// The height every delta is measured from.
    public let estimate: Double
    /// Each row's height (the tree holds their deltas from `estimate`).
    private var heights: [Double]
    /// 1-based: `tree[i]` is the sum of the deltas of rows `i − lowbit(i) ..< i`.
    private var tree: [Double]
    /// The largest power of two <= count (0 for an empty list).
    private var highestBit: Int

    public init(count: Int, estimate: Double) throws(RowOffsetsError) {
        guard count >= 0 else { throw RowOffsetsError.invalidCount(count) }
        try Self.checkHeight(estimate)
        self.estimate = estimate
        heights = Array(repeating: estimate, count: count)
        tree = Array(repeating: 0, count: count + 1)
        highestBit = Self.highestBit(count)
    }

    /// Rows with individual heights (one estimate per reuse identifier, say), measured from the
    /// first row's height; the tree is built in O(n).
    public init(heights: [Double]) throws(RowOffsetsError) {
        try self.init(heights: heights, estimate: heights.first ?? 0)
    }

    /// Rows with individual heights, stored as deltas from `estimate`; the tree is built in O(n).
    public init(heights: [Double], estimate: Double) throws(RowOffsetsError) {
        for height in heights { try Self.checkHeight(height) }
        try Self.checkHeight(estimate)
        self.estimate = estimate
        self.heights = heights
        tree = []
        highestBit = 0
        build()
    }

    private static func highestBit(_ count: Int) -> Int {
        count == 0 ? 0 : 1 << (Int.bitWidth - 1 - count.leadingZeroBitCount)
    }

    /// Builds the tree from the heights in O(n): each node passes its sum on to its parent.
    private mutating func build() {
        let count = heights.count, estimate = self.estimate
        tree.removeAll(keepingCapacity: true)
        tree.append(0)
        tree.append(contentsOf: heights.lazy.map { $0 - estimate })
        tree.withUnsafeMutableBufferPointer { tree in
            for node in 1..<(count + 1) {
                let parent = node + (node & -node)
                if parent <= count { tree[parent] += tree[node] }
            }
        }
        highestBit = Self.highestBit(count)
    }

    public var count: Int { heights.count }
    public func height(of row: Int) -> Double { heights[row] }

    public func offset(of row: Int) -> Double {
        precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
        return tree.withUnsafeBufferPointer { tree in
            var sum = 0.0, position = 0, bit = highestBit
            while bit > 0 {
                if position + bit <= row {
                    position += bit
                    sum += tree[position] + estimate * Double(bit)
                }
                bit >>= 1
            }
            return sum
        }
    }

    public func row(at y: Double) throws(RowOffsetsError) -> Int {
        try Self.checkOffset(y)
        let count = self.count
        guard count > 0 else { return 0 }
        // The largest k with offset(of: k) <= y, by binary lifting.
        let found = tree.withUnsafeBufferPointer { tree in
            var sum = 0.0, position = 0, bit = highestBit
            while bit > 0 {
                let next = position + bit
                if next <= count {
                    let candidate = sum + (tree[next] + estimate * Double(bit))
                    if candidate <= y {
                        position = next
                        sum = candidate
                    }
                }
                bit >>= 1
            }
            return position
        }
        return Swift.min(found, count - 1)
    }

    public mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError) {
        try Self.checkRow(row, count: count)
        try Self.checkHeight(height)
        let change = (height - estimate) - (heights[row] - estimate)
        heights[row] = height
        let count = self.count
        tree.withUnsafeMutableBufferPointer { tree in
            var node = row + 1
            while node <= count {
                tree[node] += change
                node += node & -node
            }
        }
    }

    public mutating func insert(heights new: [Double], at row: Int) throws(RowOffsetsError) {
        try Self.checkInsert(new, at: row, count: count)
        heights.insert(contentsOf: new, at: row)
        build()
    }

    public mutating func remove(at row: Int, count removing: Int) throws(RowOffsetsError) {
        try Self.checkRemove(at: row, removing: removing, count: count)
        heights.removeSubrange(row..<(row + removing))
        build()
    }

    public var storageBytes: Int { 8 * (heights.capacity + tree.capacity) }
}
