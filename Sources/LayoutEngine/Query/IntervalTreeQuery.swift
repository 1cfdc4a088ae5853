/// react-virtualized's Masonry lookup (`PositionCache.range`, an interval tree over every cell's
/// `[top, top + height]`, `source/Masonry/PositionCache.js` over `source/vendor/intervalTree.js`,
/// Mikola Lysenko's interval-tree-1d), as an exact mode over flat arrays.
///
/// react-virtualized inserts each cell into a centred interval tree of node objects and answers a
/// viewport by `queryInterval(scrollTop, scrollTop + clientHeight)` (closed intervals). Here the
/// same question is answered by an **implicit augmented interval tree** (the layout of Heng Li's
/// cgranges): per section, the items sorted by their top are the nodes of a complete binary search
/// tree laid out in order (node `i` at level `k` has its children at `i ∓ 2^(k−1)`), and each node
/// keeps the largest bottom of its subtree. A query descends from the root with a 64-cell stack on
/// the machine stack, pruning subtrees whose largest bottom is above the rect and stopping at tops
/// below it; small subtrees (level ≤ 3) are scanned. Three Doubles and an Int32 per item, no node
/// objects; the build sorts each section by top (O(n log n), or O(n) when already sorted), a query
/// is O(log n + k) per section. Sections are found by binary search, headers, footers and
/// backgrounds answered directly.
///
/// Exact: the tree yields every item whose vertical extent meets the rect, widened by a tiny
/// slack, and each candidate is tested with the same absolute coordinates as `linear` (open
/// intervals, x included), so the answer is exactly `linear`'s.
public struct IntervalTreeQuery: RectQueryIndex {
    /// Per entry (entries of section `s` are `sectionItemStarts[s]...`), the global item index;
    /// entries of a section are in ascending order of top.
    @usableFromInline var entryItem: [Int32] = []
    /// Per entry, the item's absolute top and bottom.
    @usableFromInline var entryMinY: [Double] = []
    @usableFromInline var entryMaxY: [Double] = []
    /// Per entry, the largest bottom in the subtree of the implicit tree rooted at it.
    @usableFromInline var entrySubtreeMaxY: [Double] = []

    public init(frames: LayoutFrames) {
        rebuild(frames: frames)
    }

    /// Builds the trees again, in the storage of the last build.
    public mutating func rebuild(frames: LayoutFrames) {
        precondition(frames.itemCount < Int(Int32.max), "too many items for Int32 indices")
        let itemCount = frames.itemCount
        var items = entryItem, minY = entryMinY, maxY = entryMaxY, subtree = entrySubtreeMaxY
        entryItem = []
        entryMinY = []
        entryMaxY = []
        entrySubtreeMaxY = []
        if items.count != itemCount {
            items = []
            minY = []
            maxY = []
            subtree = []
            items = Array(repeating: 0, count: itemCount)
            minY = Array(repeating: 0, count: itemCount)
            maxY = Array(repeating: 0, count: itemCount)
            subtree = Array(repeating: 0, count: itemCount)
        }
        var keys: [Double] = []  // scratch: the tops of one section, in item order
        for s in 0..<frames.sectionCount {
            let range = frames.itemRange(inSection: s)
            if range.isEmpty { continue }
            let base = range.lowerBound, sectionTop = frames.sectionTops[s]
            keys.removeAll(keepingCapacity: true)
            var sorted = true
            for i in range {
                let top = sectionTop + frames.itemMinY[i]
                if let previous = keys.last, top < previous { sorted = false }
                keys.append(top)
                items[i] = Int32(i)
            }
            if !sorted {
                items[range].sort { a, b in
                    let ka = keys[Int(a) - base], kb = keys[Int(b) - base]
                    return ka < kb || (ka == kb && a < b)
                }
            }
            for e in range {
                let i = Int(items[e])
                let top = keys[i - base]
                minY[e] = top
                maxY[e] = top + frames.itemHeight[i]
            }
            minY.withUnsafeBufferPointer { minY in
                maxY.withUnsafeBufferPointer { maxY in
                    subtree.withUnsafeMutableBufferPointer { subtree in
                        Self.index(
                            maxY: UnsafeBufferPointer(rebasing: maxY[range]),
                            subtreeMaxY: UnsafeMutableBufferPointer(rebasing: subtree[range]))
                    }
                }
            }
        }
        entryItem = items
        entryMinY = minY
        entryMaxY = maxY
        entrySubtreeMaxY = subtree
    }

    /// The level of the root of the implicit tree over `count` nodes (count ≥ 1): ⌊log₂ count⌋.
    @inline(__always)
    static func rootLevel(count: Int) -> Int { Int.bitWidth - 1 - count.leadingZeroBitCount }

    /// Fills the subtree maxima bottom-up (cgranges' `index_core`): leaves are the even positions;
    /// a node at level k takes the maximum of its own bottom and its children's, where a right
    /// child past the end stands for the last node's subtree (`last`).
    static func index(maxY: UnsafeBufferPointer<Double>, subtreeMaxY: UnsafeMutableBufferPointer<Double>) {
        let n = maxY.count
        var lastIndex = 0, last = 0.0
        var i = 0
        while i < n {
            lastIndex = i
            last = maxY[i]
            subtreeMaxY[i] = maxY[i]
            i += 2
        }
        var k = 1
        while (1 << k) <= n {
            let x = 1 << (k - 1), first = (x << 1) - 1, step = x << 2
            i = first
            while i < n {
                let left = subtreeMaxY[i - x]
                let right = i + x < n ? subtreeMaxY[i + x] : last
                subtreeMaxY[i] = Swift.max(maxY[i], left, right)
                i += step
            }
            // Up to the parent of the last node's ancestor: a right child's parent is x before
            // it, a left child's x after it (possibly past the end).
            lastIndex = (lastIndex >> k) & 1 != 0 ? lastIndex - x : lastIndex + x
            if lastIndex < n && subtreeMaxY[lastIndex] > last { last = subtreeMaxY[lastIndex] }
            k += 1
        }
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        if rect.isEmpty { return }
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        let slack = 1e-9 * (1 + abs(rectMinY) + abs(rectMaxY))
        let low = rectMinY - slack, high = rectMaxY + slack
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { stack in
            for s in frames.sectionRange(meetingMinY: rectMinY, maxY: rectMaxY) {
                frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
                let range = frames.pointee.itemRange(inSection: s)
                if range.isEmpty { continue }
                let base = range.lowerBound, n = range.count
                let sectionTop = frames.pointee.sectionTops[s]

                @inline(__always) func report(_ e: Int) {
                    let i = Int(entryItem[base + e])
                    let minX = frames.pointee.itemMinX[i], minY = sectionTop + frames.pointee.itemMinY[i]
                    let width = frames.pointee.itemWidth[i], height = frames.pointee.itemHeight[i]
                    if Rect.intersects(
                        minX: minX, minY: minY, maxX: minX + width, maxY: minY + height,
                        withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                    {
                        results.append(LayoutAttributes(
                            id: .item(i - base, section: s), frame: Rect(x: minX, y: minY, width: width, height: height)))
                    }
                }

                // A stack cell packs the node, its level and whether its left child was visited.
                @inline(__always) func cell(_ node: Int, _ level: Int, _ leftDone: Int) -> Int { node << 7 | level << 1 | leftDone }
                let rootLevel = Self.rootLevel(count: n)
                var top = 0
                stack[top] = cell((1 << rootLevel) - 1, rootLevel, 0)
                top += 1
                while top > 0 {
                    top -= 1
                    let z = stack[top]
                    let node = z >> 7, level = (z >> 1) & 63, leftDone = z & 1
                    if level <= 3 {
                        // A small subtree: scan it in order of top.
                        let first = (node >> level) << level
                        let end = Swift.min(first + (1 << (level + 1)) - 1, n)
                        var e = first
                        while e < end && entryMinY[base + e] < high {
                            if low < entryMaxY[base + e] { report(e) }
                            e += 1
                        }
                    } else if leftDone == 0 {
                        let left = node - (1 << (level - 1))  // may lie past the end
                        stack[top] = cell(node, level, 1)
                        top += 1
                        if left >= n || entrySubtreeMaxY[base + left] > low {
                            stack[top] = cell(left, level - 1, 0)
                            top += 1
                        }
                    } else if node < n && entryMinY[base + node] < high {
                        if low < entryMaxY[base + node] { report(node) }
                        stack[top] = cell(node + (1 << (level - 1)), level - 1, 0)
                        top += 1
                    }
                }
            }
        }
    }

    public var allocatedBytes: Int {
        entryItem.capacity * 4 + (entryMinY.capacity + entryMaxY.capacity + entrySubtreeMaxY.capacity) * 8
    }
}
