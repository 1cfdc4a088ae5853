/// The exact O(log n + k) rect query.
///
/// Sections are found by binary search over their prefix sums. Inside a section the items are
/// considered in order of minY (their own order when already sorted, else a permutation) with a
/// **prefix maximum of maxY**: the first candidate is the first position whose prefix maximum
/// passes the rect's top — so a tall item that starts earlier is never missed, and rows of mixed
/// heights (flow with `align: center`) need no special case — and the walk stops at the first
/// minY at or below the rect's bottom. When a section's items are sorted and do not overlap
/// vertically (a list), that maximum is each item's own maxY. The search reads one flat array
/// (`searchMaxY`, 8 bytes an item), so a probe costs one load.
///
/// The search runs in section-relative coordinates with a tiny slack; the final test of each
/// candidate uses the same absolute coordinates as every other mode, so the answer is exactly
/// the set `linear` returns.
public struct BinaryQuery: RectQueryIndex {
    @usableFromInline enum Order: UInt8 {
        /// Sorted by minY, and each item ends before the next begins: maxY is monotone.
        case disjoint
        /// Sorted by minY but overlapping: uses `prefixMaxY`.
        case sorted
        /// Not sorted: uses `permutation` and `prefixMaxY` in permuted order.
        case permuted
    }

    @usableFromInline var orders: [Order] = []
    /// Per item position (global), the maximum local maxY of the positions up to it in its section.
    @usableFromInline var searchMaxY: [Double] = []
    /// Per item position (global), the item at that position in minY order (permuted sections only).
    @usableFromInline var permutation: [Int32] = []

    public init(frames: LayoutFrames) {
        let sectionCount = frames.sectionCount
        orders.reserveCapacity(sectionCount)
        searchMaxY.reserveCapacity(frames.itemCount)
        let minY = frames.itemMinY
        for s in 0..<sectionCount {
            let range = frames.itemRange(inSection: s)
            var isSorted = true, isDisjoint = true
            var previousMinY = -Double.infinity, previousMaxY = -Double.infinity
            for i in range {
                let top = minY[i]
                if top < previousMinY { isSorted = false; isDisjoint = false; break }
                if top < previousMaxY { isDisjoint = false }
                previousMinY = top
                previousMaxY = top + frames.itemHeight[i]
            }
            let order: Order = isDisjoint ? .disjoint : (isSorted ? .sorted : .permuted)
            orders.append(order)
            if order == .permuted {
                if permutation.isEmpty { permutation = [Int32](repeating: 0, count: frames.itemCount) }
                var sorted = Array(range)
                sorted.sort { minY[$0] < minY[$1] || (minY[$0] == minY[$1] && $0 < $1) }
                for (offset, item) in sorted.enumerated() { permutation[range.lowerBound + offset] = Int32(item) }
            }
            var running = -Double.infinity
            for position in range {
                let item = order == .permuted ? Int(permutation[position]) : position
                running = Swift.max(running, minY[item] + frames.itemHeight[item])
                searchMaxY.append(running)
            }
        }
    }

    public func appendElements(in rect: Rect, frames: LayoutFrames, to results: inout [LayoutAttributes]) {
        if rect.isEmpty { return }
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        // An item's absolute maxY can pass its section's bottom by an ulp, hence the slack.
        let sectionSlack = 1e-9 * (1 + frames.contentHeight)
        var s = frames.firstSection(endingBelow: rectMinY - sectionSlack)
        let sectionCount = frames.sectionCount
        while s < sectionCount {
            let sectionTop = frames.sectionTops[s]
            if sectionTop >= rectMaxY + sectionSlack { break }
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            // A conservative window in section-relative coordinates.
            let slack = 1e-9 * (1 + abs(sectionTop) + abs(rectMinY) + abs(rectMaxY))
            let localTop = rectMinY - sectionTop - slack
            let localBottom = rectMaxY - sectionTop + slack
            let range = frames.itemRange(inSection: s)
            let order = orders[s]
            // First position whose (prefix) maxY passes localTop.
            let low = searchMaxY.withUnsafeBufferPointer { keys in
                var low = range.lowerBound, high = range.upperBound
                while low < high {
                    let mid = (low &+ high) &>> 1
                    if keys[mid] > localTop { high = mid } else { low = mid &+ 1 }
                }
                return low
            }
            var position = low
            while position < range.upperBound {
                let i = order == .permuted ? Int(permutation[position]) : position
                let localMinY = frames.itemMinY[i]
                if localMinY >= localBottom { break }
                let minX = frames.itemMinX[i], minY = sectionTop + localMinY
                if Rect.intersects(
                    minX: minX, minY: minY, maxX: minX + frames.itemWidth[i], maxY: minY + frames.itemHeight[i],
                    withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                {
                    results.append(LayoutAttributes(
                        id: .item(i - range.lowerBound, section: s),
                        frame: Rect(x: minX, y: minY, width: frames.itemWidth[i], height: frames.itemHeight[i])))
                }
                position += 1
            }
            s += 1
        }
    }

    public var allocatedBytes: Int { orders.capacity + searchMaxY.capacity * 8 + permutation.capacity * 4 }
}
