/// HDWaterFlowLayout's per-column rect query (`columAttsArr`), made exact for any placement.
///
/// Per section, items are grouped into columns by their exact `(minX, width)` — a waterfall's
/// columns, or a list's single column. The candidate x ranges are found from the frames (at most
/// `maxColumns` distinct ones; more means the section is no waterfall) and a set of pairwise
/// disjoint ones covering the most items becomes the columns. Full-width items and every item
/// that matches no column go into one extra "spanning" group. Each group is kept in minY order
/// with a **prefix maximum of maxY**, so it stays exact even when a group overlaps itself (a
/// flow section's rows, a render direction that does not fill columns top-down). A query per
/// group is a lower bound on the prefix maximum plus a walk while minY < rect.maxY:
/// O(C log(n/C) + k) per visible section. Sections are found by binary search.
///
/// Items that cannot intersect anything (zero width or height) are not indexed. The final test
/// of each candidate uses the same absolute coordinates as `linear`, so the answers are equal.
public struct PerColumnQuery: RectQueryIndex {
    /// The most distinct `(minX, width)` pairs a section may have for its items to be split into
    /// columns; a section with more (a flow section, usually) gets a single spanning group.
    public static let maxColumns = 16

    /// `sectionCount + 1` offsets into the group arrays.
    @usableFromInline var sectionGroupStarts: [Int32] = [0]
    /// `groupCount + 1` offsets into the entry arrays.
    @usableFromInline var groupStarts: [Int32] = [0]
    /// Per group, the union of its items' x ranges: a group outside the rect's x range is skipped.
    @usableFromInline var groupMinX: [Double] = []
    @usableFromInline var groupMaxX: [Double] = []
    /// Per entry, the global item index; entries of a group are in minY order.
    @usableFromInline var entryItem: [Int32] = []
    /// Per entry, the largest section-relative maxY of the group's entries up to it.
    @usableFromInline var entryPrefixMaxY: [Double] = []

    public init(frames: LayoutFrames) {
        precondition(frames.itemCount < Int(Int32.max), "too many items for Int32 indices")
        let sectionCount = frames.sectionCount
        sectionGroupStarts.reserveCapacity(sectionCount + 1)
        entryItem.reserveCapacity(frames.itemCount)
        entryPrefixMaxY.reserveCapacity(frames.itemCount)

        // Scratch, reused by every section: candidate columns and the group of each item.
        var candidates = ColumnCandidates()
        var itemGroup: [Int32] = []
        var groupCounts: [Int] = []
        var cursor: [Int] = []

        for s in 0..<sectionCount {
            let range = frames.itemRange(inSection: s)
            let sectionTop = frames.sectionTops[s]
            candidates.removeAll()
            itemGroup.removeAll(keepingCapacity: true)

            // 1. Distinct x ranges of the items that can intersect something.
            for i in range where Self.canIntersect(i, sectionTop: sectionTop, frames: frames) {
                candidates.add(minX: frames.itemMinX[i], width: frames.itemWidth[i])
                if candidates.isOverflowing { break }
            }
            // 2. The columns: disjoint candidates covering the most items.
            let columns = candidates.chooseColumns()
            let spanningGroup = columns.count

            // 3. Group of each item (-1: not indexed), counted.
            groupCounts.removeAll(keepingCapacity: true)
            groupCounts.append(contentsOf: repeatElement(0, count: columns.count + 1))
            for i in range {
                var group = -1
                if Self.canIntersect(i, sectionTop: sectionTop, frames: frames) {
                    group = spanningGroup
                    let minX = frames.itemMinX[i], width = frames.itemWidth[i]
                    for (c, candidate) in columns.enumerated()
                    where candidates.minX[candidate] == minX && candidates.width[candidate] == width {
                        group = c
                        break
                    }
                    groupCounts[group] += 1
                }
                itemGroup.append(Int32(group))
            }

            // 4. Entries, group after group (an empty group takes none), in index order.
            let sectionFirstEntry = entryItem.count
            cursor.removeAll(keepingCapacity: true)
            var next = sectionFirstEntry
            for g in 0...spanningGroup {
                cursor.append(next)
                next += groupCounts[g]
            }
            entryItem.append(contentsOf: repeatElement(0, count: next - sectionFirstEntry))
            entryPrefixMaxY.append(contentsOf: repeatElement(0, count: next - sectionFirstEntry))
            for (offset, group) in itemGroup.enumerated() where group >= 0 {
                entryItem[cursor[Int(group)]] = Int32(range.lowerBound + offset)
                cursor[Int(group)] += 1
            }

            // 5. Per non-empty group: minY order, prefix maximum of maxY, x extent.
            var start = sectionFirstEntry
            for g in 0...spanningGroup {
                let end = start + groupCounts[g]
                defer { start = end }
                if end == start { continue }
                sortByMinY(start..<end, frames: frames)
                var running = -Double.infinity
                var left = Double.infinity, right = -Double.infinity
                for e in start..<end {
                    let i = Int(entryItem[e])
                    running = Swift.max(running, frames.itemMinY[i] + frames.itemHeight[i])
                    entryPrefixMaxY[e] = running
                    left = Swift.min(left, frames.itemMinX[i])
                    right = Swift.max(right, frames.itemMinX[i] + frames.itemWidth[i])
                }
                groupStarts.append(Int32(end))
                groupMinX.append(left)
                groupMaxX.append(right)
            }
            sectionGroupStarts.append(Int32(groupMinX.count))
        }
    }

    /// Whether item `i` has a positive area as the queries compute it (others intersect nothing).
    @inline(__always)
    static func canIntersect(_ i: Int, sectionTop: Double, frames: LayoutFrames) -> Bool {
        let minX = frames.itemMinX[i], minY = sectionTop + frames.itemMinY[i]
        return minX < minX + frames.itemWidth[i] && minY < minY + frames.itemHeight[i]
    }

    /// Sorts the entries in `range` by section-relative minY, ties by index, unless already sorted
    /// (waterfall columns and full-width items in index order usually are).
    private mutating func sortByMinY(_ range: Range<Int>, frames: LayoutFrames) {
        let minY = frames.itemMinY
        var sorted = true
        var previous = -Double.infinity
        for e in range {
            let y = minY[Int(entryItem[e])]
            if y < previous { sorted = false; break }
            previous = y
        }
        if sorted { return }
        entryItem[range].sort { a, b in
            let ya = minY[Int(a)], yb = minY[Int(b)]
            return ya < yb || (ya == yb && a < b)
        }
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        if rect.isEmpty { return }
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        for s in frames.sectionRange(meetingMinY: rectMinY, maxY: rectMaxY) {
            let sectionTop = frames.pointee.sectionTops[s]
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            let sectionStart = frames.pointee.sectionItemStarts[s]
            // A conservative window in section-relative coordinates.
            let slack = 1e-9 * (1 + abs(sectionTop) + abs(rectMinY) + abs(rectMaxY))
            let localTop = rectMinY - sectionTop - slack
            let localBottom = rectMaxY - sectionTop + slack
            for g in Int(sectionGroupStarts[s])..<Int(sectionGroupStarts[s + 1]) {
                if rectMaxX <= groupMinX[g] || rectMinX >= groupMaxX[g] { continue }
                let end = Int(groupStarts[g + 1])
                var entry = firstEntry(in: Int(groupStarts[g])..<end, endingBelow: localTop)
                while entry < end {
                    let i = Int(entryItem[entry])
                    let localMinY = frames.pointee.itemMinY[i]
                    if localMinY >= localBottom { break }
                    let minX = frames.pointee.itemMinX[i], minY = sectionTop + localMinY
                    let width = frames.pointee.itemWidth[i], height = frames.pointee.itemHeight[i]
                    if Rect.intersects(
                        minX: minX, minY: minY, maxX: minX + width, maxY: minY + height,
                        withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                    {
                        results.append(LayoutAttributes(
                            id: .item(i - sectionStart, section: s),
                            frame: Rect(x: minX, y: minY, width: width, height: height)))
                    }
                    entry += 1
                }
            }
        }
    }

    /// The first entry of `range` whose prefix maximum of maxY passes `y` (lower bound).
    @inlinable
    func firstEntry(in range: Range<Int>, endingBelow y: Double) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low &+ high) &>> 1
            if entryPrefixMaxY[mid] > y { high = mid } else { low = mid &+ 1 }
        }
        return low
    }

    /// The number of groups (columns plus spanning groups) over all sections.
    public var groupCount: Int { groupMinX.count }

    public var allocatedBytes: Int {
        (sectionGroupStarts.capacity + groupStarts.capacity + entryItem.capacity) * 4
            + (groupMinX.capacity + groupMaxX.capacity + entryPrefixMaxY.capacity) * 8
    }
}

/// The distinct `(minX, width)` pairs of one section's items with their counts, up to
/// `PerColumnQuery.maxColumns`; build-time scratch for `PerColumnQuery`.
struct ColumnCandidates {
    var minX: [Double] = []
    var width: [Double] = []
    var count: [Int] = []
    /// More distinct pairs than `maxColumns`: the section gets no columns.
    var isOverflowing = false

    mutating func removeAll() {
        minX.removeAll(keepingCapacity: true)
        width.removeAll(keepingCapacity: true)
        count.removeAll(keepingCapacity: true)
        isOverflowing = false
    }

    mutating func add(minX x: Double, width w: Double) {
        for c in minX.indices where minX[c] == x && width[c] == w {
            count[c] += 1
            return
        }
        if minX.count == PerColumnQuery.maxColumns {
            isOverflowing = true
            return
        }
        minX.append(x)
        width.append(w)
        count.append(1)
    }

    /// The candidates that become columns, by increasing minX: pairwise disjoint x ranges with
    /// the largest total item count (weighted interval scheduling over at most `maxColumns`).
    func chooseColumns() -> [Int] {
        if isOverflowing || minX.isEmpty { return [] }
        // By end of range; dp[k] = best total using the first k candidates in that order.
        let order = minX.indices.sorted { (minX[$0] + width[$0], $0) < (minX[$1] + width[$1], $1) }
        var best = [Int](repeating: 0, count: order.count + 1)
        var take = [Bool](repeating: false, count: order.count + 1)
        var previous = [Int](repeating: 0, count: order.count + 1)
        for k in 1...order.count {
            let c = order[k - 1]
            // The last candidate (in end order) that ends at or before this one starts.
            var p = k - 1
            while p > 0 && minX[order[p - 1]] + width[order[p - 1]] > minX[c] { p -= 1 }
            previous[k] = p
            let with = best[p] + count[c]
            if with > best[k - 1] {
                best[k] = with
                take[k] = true
            } else {
                best[k] = best[k - 1]
            }
        }
        var chosen: [Int] = []
        var k = order.count
        while k > 0 {
            if take[k] {
                chosen.append(order[k - 1])
                k = previous[k]
            } else {
                k -= 1
            }
        }
        return chosen.sorted { minX[$0] < minX[$1] }
    }
}
