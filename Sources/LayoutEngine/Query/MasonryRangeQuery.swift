/// TanStack Virtual's masonry range (`lanes > 1`), reproduced faithfully — a heuristic, inexact by
/// design; the harness reports its recall.
///
/// The source is `calculateRangeImpl` in `packages/virtual-core/src/index.ts` of TanStack/virtual
/// (what `Virtualizer.calculateRange` returns; `getVirtualItems` renders that range of indexes,
/// widened by `overscan`, which is left out here: overscan is a render budget, not part of the
/// answer to a rect). On the measurements in index order, with `scrollOffset` = the rect's top and
/// `outerSize` = its height:
///
/// 1. `findNearestBinarySearch` on the items' *starts* for `scrollOffset` (the largest index whose
///    start is below it, or an exact match) — a binary search over starts that, in a masonry, are
///    not sorted;
/// 2. with `lanes > 1`: walk `endIndex` forward, recording each item's end as its lane's end, while
///    some lane's recorded end is still above `scrollOffset + outerSize` ("expand forward until we
///    include the visible items from all lanes");
/// 3. walk `startIndex` backward, recording each item's start as its lane's start, while some lane's
///    recorded start is still at or below `scrollOffset`;
/// 4. align: `startIndex` down to a multiple of `lanes`, `endIndex` up to one less than a multiple
///    (as if item i were in lane i % lanes);
/// 5. with one lane: binary search, then walk forward while the item ends above the bottom.
/// A list with no more items than lanes renders everything. Every item of `startIndex...endIndex`
/// is returned, as TanStack renders them all (extras), and x is not looked at.
///
/// What it costs is extras, not misses, on a waterfall: every lane runs down in index order, so
/// walking back until each lane has a start above the rect and forward until each has an end
/// below it brackets every intersecting item wherever the binary search on unsorted starts
/// lands (`MasonryQueryTests` holds it to recall 1 on random waterfalls). An item several
/// viewports tall in one lane makes the backward walk run back to it, and columns whose bottoms
/// drift apart make both walks long: everything in between is returned. (Before #937, the bug of
/// #936, lanes had only the single-lane forward walk, which missed exactly those items.) It can
/// miss only where a lane is not in y order: a section with more than `maxLanes` distinct `minX`
/// is one lane, searched by start as if sorted.
///
/// Mapping onto `LayoutFrames`: a TanStack list is one section here (headers, footers and
/// backgrounds are answered exactly, sections are found by binary search); an item's lane is the
/// rank of its `minX` among the distinct `minX` of its section's items, so a full-width item
/// counts as lane 0 (TanStack has no spanning items); a section with more than `maxLanes` distinct
/// `minX` (a flow section) is one lane. Index: one byte per item and one lane count per section;
/// a query is O(log n + walked items + lanes), with the per-lane scratch on the stack.
public struct MasonryRangeQuery: RectQueryIndex {
    /// The most lanes a section may have; a section whose items have more distinct `minX` is
    /// treated as one lane.
    public static let maxLanes = 64

    /// Per item (global index), its lane in its section.
    @usableFromInline var itemLane: [UInt8] = []
    /// Per section, its lane count (at least 1).
    @usableFromInline var sectionLanes: [Int32] = []

    public init(frames: LayoutFrames) {
        rebuild(frames: frames)
    }

    /// Assigns the lanes again, in the storage of the last build.
    public mutating func rebuild(frames: LayoutFrames) {
        var lanes = itemLane, counts = sectionLanes
        itemLane = []
        sectionLanes = []
        lanes.removeAll(keepingCapacity: true)
        lanes.reserveCapacity(frames.itemCount)
        counts.removeAll(keepingCapacity: true)
        counts.reserveCapacity(frames.sectionCount)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.maxLanes + 1) { distinct in
            for s in 0..<frames.sectionCount {
                let range = frames.itemRange(inSection: s)
                // The distinct minX of the section, up to one more than maxLanes.
                var count = 0
                for i in range {
                    let x = frames.itemMinX[i]
                    var seen = false
                    for d in 0..<count where distinct[d] == x {
                        seen = true
                        break
                    }
                    if seen { continue }
                    distinct[count] = x
                    count += 1
                    if count > Self.maxLanes { break }
                }
                if count > Self.maxLanes || count <= 1 {
                    counts.append(1)
                    lanes.append(contentsOf: repeatElement(0, count: range.count))
                    continue
                }
                // Ascending, so that lane 0 is the leftmost (insertion sort: at most maxLanes).
                for a in 1..<count {
                    let x = distinct[a]
                    var b = a
                    while b > 0 && distinct[b - 1] > x {
                        distinct[b] = distinct[b - 1]
                        b -= 1
                    }
                    distinct[b] = x
                }
                counts.append(Int32(count))
                for i in range {
                    let x = frames.itemMinX[i]
                    var low = 0, high = count - 1
                    while low < high {
                        let mid = (low + high) >> 1
                        if distinct[mid] < x { low = mid + 1 } else { high = mid }
                    }
                    lanes.append(UInt8(low))
                }
            }
        }
        itemLane = lanes
        sectionLanes = counts
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        // TanStack: `outerSize === 0` gives no range.
        if rect.isEmpty { return }
        for s in frames.sectionRange(meetingMinY: rect.minY, maxY: rect.maxY) {
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            let range = frames.pointee.itemRange(inSection: s)
            if range.isEmpty { continue }
            let (first, last) = Self.range(
                section: s, items: range, lanes: Int(sectionLanes[s]),
                scrollOffset: rect.minY, outerSize: rect.height, frames: frames, itemLane: itemLane)
            if first > last { continue }
            for item in first...last {
                results.append(frames.itemAttributes(global: range.lowerBound + item, section: s))
            }
        }
    }

    /// `calculateRangeImpl` over the items of section `s` (indexes relative to the section).
    @inline(__always)
    static func range(
        section s: Int, items: Range<Int>, lanes: Int, scrollOffset: Double, outerSize: Double,
        frames: UnsafePointer<LayoutFrames>, itemLane: [UInt8]
    ) -> (Int, Int) {
        let base = items.lowerBound, sectionTop = frames.pointee.sectionTops[s]
        @inline(__always) func start(_ i: Int) -> Double { sectionTop + frames.pointee.itemMinY[base + i] }
        @inline(__always) func end(_ i: Int) -> Double { start(i) + frames.pointee.itemHeight[base + i] }
        let lastIndex = items.count - 1
        // "handle case when item count is less than or equal to lanes"
        if items.count <= lanes { return (0, lastIndex) }

        // findNearestBinarySearch(0, lastIndex, getStart, scrollOffset)
        var low = 0, high = lastIndex, found = -1
        while low <= high {
            let middle = (low + high) / 2
            let value = start(middle)
            if value < scrollOffset {
                low = middle + 1
            } else if value > scrollOffset {
                high = middle - 1
            } else {
                found = middle
                break
            }
        }
        var startIndex = found >= 0 ? found : (low > 0 ? low - 1 : 0)
        var endIndex = startIndex
        let limit = scrollOffset + outerSize

        if lanes == 1 {
            while endIndex < lastIndex && end(endIndex) < limit { endIndex += 1 }
            return (startIndex, endIndex)
        }

        withUnsafeTemporaryAllocation(of: Double.self, capacity: lanes) { perLane in
            itemLane.withUnsafeBufferPointer { itemLane in
                // Expand forward while `endPerLane.some(pos => pos < limit)`; `covered` counts the
                // lanes whose recorded end is not below the limit.
                for l in 0..<lanes { perLane[l] = 0 }
                var covered = 0 < limit ? 0 : lanes
                while endIndex < lastIndex && covered < lanes {
                    let lane = Int(itemLane[base + endIndex])
                    let old = perLane[lane], new = end(endIndex)
                    if !(old < limit) { covered -= 1 }
                    if !(new < limit) { covered += 1 }
                    perLane[lane] = new
                    endIndex += 1
                }
                // Expand backward while `startPerLane.some(pos => pos >= scrollOffset)`; `covered`
                // counts the lanes whose recorded start is below the offset.
                for l in 0..<lanes { perLane[l] = limit }
                covered = limit >= scrollOffset ? 0 : lanes
                while startIndex >= 0 && covered < lanes {
                    let lane = Int(itemLane[base + startIndex])
                    let old = perLane[lane], new = start(startIndex)
                    if !(old >= scrollOffset) { covered -= 1 }
                    if !(new >= scrollOffset) { covered += 1 }
                    perLane[lane] = new
                    startIndex -= 1
                }
            }
        }
        // "Align startIndex to the beginning of its lane" (JavaScript's % truncates, as Swift's).
        startIndex = Swift.max(0, startIndex - (startIndex % lanes))
        endIndex = Swift.min(lastIndex, endIndex + (lanes - 1 - (endIndex % lanes)))
        return (startIndex, endIndex)
    }

    public var allocatedBytes: Int { itemLane.capacity + sectionLanes.capacity * 4 }
}
