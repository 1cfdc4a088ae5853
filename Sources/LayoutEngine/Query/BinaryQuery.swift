/// The exact O(log n + k) rect query.
///
/// Sections are found by binary search over their prefix sums. Inside a section the items are
/// taken in their own order with a **prefix maximum of maxY**: the first candidate is the first
/// position whose prefix maximum passes the rect's top, so a tall item that starts earlier is never
/// missed. The walk stops once no later item can start above the rect's bottom: at the first minY at
/// or below it when the section is sorted by minY (lists, shortest-first waterfalls), else at a
/// **suffix minimum of minY** — so flow rows whose items are centred or bottom-aligned (minY not
/// monotone within a row) need neither a sort nor a special case. When a section's items are sorted
/// and do not overlap vertically (a list), the prefix maximum is each item's own maxY.
///
/// The search runs in section-relative coordinates with a tiny slack; the final test of each
/// candidate uses the same absolute coordinates as every other mode, so the answer is exactly
/// the set `linear` returns.
public struct BinaryQuery: RectQueryIndex {
    @usableFromInline enum Order: UInt8 {
        /// Sorted by minY, and each item ends before the next begins.
        case disjoint
        /// Sorted by minY but overlapping.
        case sorted
        /// Not sorted by minY: the walk stops by `suffixMinY`.
        case unsorted
    }

    @usableFromInline var orders: [Order] = []
    /// Per item (global index), the maximum local maxY of the items up to it in its section.
    @usableFromInline var searchMaxY = ItemColumn()
    /// Per item (global index) of unsorted sections, the minimum local minY of the items from it
    /// to the end of its section (empty when every section is sorted).
    @usableFromInline var suffixMinY = ItemColumn()

    public init(frames: LayoutFrames) {
        rebuild(frames: frames)
    }

    /// Builds the index for `frames` again, in the storage of the last build when it has the
    /// right size (a relayout of the same items allocates nothing).
    public mutating func rebuild(frames: LayoutFrames) {
        // After a full layout the tops are plain values: read them as one flat array.
        let built: Void? = frames.itemMinY.withUnshiftedValues { minY in
            frames.itemHeight.withUnsafeBufferPointer { heights in build(frames, minY: { minY[$0] }, height: { heights[$0] }) }
        }
        if built == nil {
            let minY = frames.itemMinY
            build(frames, minY: { minY[$0] }, height: { frames.itemHeight[$0] })
        }
    }

    /// Per section: classify the order and write the prefix maxima; then, if any section is
    /// unsorted, the suffix minima of the unsorted sections (infinity elsewhere). Linear; no sort.
    @inline(__always)
    private mutating func build(_ frames: LayoutFrames, minY: (Int) -> Double, height: (Int) -> Double) {
        let sectionCount = frames.sectionCount, itemCount = frames.itemCount
        // Moved out while they are written, so that they stay uniquely referenced.
        var orders = self.orders, keys = searchMaxY, suffix = suffixMinY
        self.orders = []
        searchMaxY = ItemColumn()
        suffixMinY = ItemColumn()
        orders.removeAll(keepingCapacity: true)
        orders.reserveCapacity(sectionCount)
        if keys.count != itemCount {
            keys = ItemColumn()  // the old storage goes before the new one is mapped
            keys = ItemColumn(uninitializedCount: itemCount)
        }
        var anyUnsorted = false
        keys.withUnsafeMutableBufferPointer { keys in
            for s in 0..<sectionCount {
                let range = frames.itemRange(inSection: s)
                var isSorted = true, isDisjoint = true
                var previousMinY = -Double.infinity, running = -Double.infinity
                for i in range {
                    let top = minY(i), bottom = top + height(i)
                    if top < previousMinY { isSorted = false }
                    if top < running { isDisjoint = false }
                    previousMinY = top
                    running = Swift.max(running, bottom)
                    keys[i] = running
                }
                let order: Order = !isSorted ? .unsorted : (isDisjoint ? .disjoint : .sorted)
                orders.append(order)
                if order == .unsorted { anyUnsorted = true }
            }
        }
        if !anyUnsorted {
            suffix = ItemColumn()
        } else {
            if suffix.count != itemCount {
                suffix = ItemColumn()
                suffix = ItemColumn(uninitializedCount: itemCount)
            }
            suffix.withUnsafeMutableBufferPointer { suffix in
                for s in 0..<sectionCount {
                    let range = frames.itemRange(inSection: s)
                    if orders[s] != .unsorted {
                        for i in range { suffix[i] = .infinity }
                        continue
                    }
                    var lowest = Double.infinity
                    var i = range.upperBound
                    while i > range.lowerBound {
                        i -= 1
                        lowest = Swift.min(lowest, minY(i))
                        suffix[i] = lowest
                    }
                }
            }
        }
        self.orders = orders
        searchMaxY = keys
        suffixMinY = suffix
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        if rect.isEmpty { return }
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        for s in frames.sectionRange(meetingMinY: rectMinY, maxY: rectMaxY) {
            let sectionTop = frames.pointee.sectionTops[s]
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            // A conservative window in section-relative coordinates.
            let slack = 1e-9 * (1 + abs(sectionTop) + abs(rectMinY) + abs(rectMaxY))
            let localTop = rectMinY - sectionTop - slack
            let localBottom = rectMaxY - sectionTop + slack
            let range = frames.pointee.itemRange(inSection: s)
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
            var i = low
            while i < range.upperBound {
                let localMinY = frames.pointee.itemMinY[i]
                if order == .unsorted {
                    if suffixMinY[i] >= localBottom { break }
                } else if localMinY >= localBottom {
                    break
                }
                let minX = frames.pointee.itemMinX[i], minY = sectionTop + localMinY
                if Rect.intersects(
                    minX: minX, minY: minY, maxX: minX + frames.pointee.itemWidth[i], maxY: minY + frames.pointee.itemHeight[i],
                    withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                {
                    results.append(LayoutAttributes(
                        id: .item(i - range.lowerBound, section: s),
                        frame: Rect(x: minX, y: minY, width: frames.pointee.itemWidth[i], height: frames.pointee.itemHeight[i])))
                }
                i += 1
            }
        }
    }

    public var allocatedBytes: Int { orders.capacity + (searchMaxY.capacity + suffixMinY.capacity) * 8 }
}
