/// CHTCollectionViewWaterfallLayout's `unionRects`, reproduced faithfully: all elements in
/// creation order (per section: header, items, footer — plus the background decoration, which CHT
/// does not have, first) are cut into blocks of 20, each block keeps the union of its frames, and
/// a query scans the unions **linearly** from the front to the first intersecting block and from
/// the back to the last, then tests every element in between. Exact, O(n/20 + span); one very
/// tall early element makes its block intersect every rect, and the span approaches n.
public struct UnionBlocksQuery: RectQueryIndex {
    /// CHT's `unionSize`.
    public static let blockSize = 20

    // Every element in creation order, as flat arrays.
    private var ids: [ElementID] = []
    // Width and height (not maxX and maxY) so that frames and edges are computed exactly as
    // `linear` computes them (`maxY = minY + height`); `maxY - minY` can differ in the last bit.
    private var minX: [Double] = [], minY: [Double] = [], width: [Double] = [], height: [Double] = []
    // One union per block; an empty block has minX = +inf so that it intersects nothing.
    private var blockMinX: [Double] = [], blockMinY: [Double] = []
    private var blockMaxX: [Double] = [], blockMaxY: [Double] = []

    public init(frames: LayoutFrames) {
        let count = frames.itemCount + 3 * frames.sectionCount
        ids.reserveCapacity(count)
        minX.reserveCapacity(count); minY.reserveCapacity(count)
        width.reserveCapacity(count); height.reserveCapacity(count)
        func add(_ id: ElementID, _ frame: Rect) {
            ids.append(id)
            minX.append(frame.minX); minY.append(frame.minY)
            width.append(frame.width); height.append(frame.height)
        }
        for s in 0..<frames.sectionCount {
            if frames.hasBackground[s] { add(.decoration(section: s), frames.sectionFrame(s)) }
            if let header = frames.headerFrame(s) { add(.header(section: s), header) }
            let start = frames.sectionItemStarts[s]
            for i in frames.itemRange(inSection: s) {
                add(.item(i - start, section: s), frames.itemFrame(global: i, section: s))
            }
            if let footer = frames.footerFrame(s) { add(.footer(section: s), footer) }
        }
        var blockStart = 0
        while blockStart < ids.count {
            let blockEnd = Swift.min(blockStart + Self.blockSize, ids.count)
            var left = Double.infinity, top = Double.infinity, right = -Double.infinity, bottom = -Double.infinity
            for i in blockStart..<blockEnd {
                let maxX = minX[i] + width[i], maxY = minY[i] + height[i]
                guard minX[i] < maxX && minY[i] < maxY else { continue }
                left = Swift.min(left, minX[i]); top = Swift.min(top, minY[i])
                right = Swift.max(right, maxX); bottom = Swift.max(bottom, maxY)
            }
            blockMinX.append(left); blockMinY.append(top)
            blockMaxX.append(right); blockMaxY.append(bottom)
            blockStart = blockEnd
        }
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        @inline(__always) func blockIntersects(_ b: Int) -> Bool {
            Rect.intersects(
                minX: blockMinX[b], minY: blockMinY[b], maxX: blockMaxX[b], maxY: blockMaxY[b],
                withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
        }
        let blockCount = blockMinX.count
        var first = 0
        while first < blockCount && !blockIntersects(first) { first += 1 }
        if first == blockCount { return }
        var last = blockCount - 1
        while last > first && !blockIntersects(last) { last -= 1 }
        let begin = first * Self.blockSize
        let end = Swift.min((last + 1) * Self.blockSize, ids.count)
        for i in begin..<end
        where Rect.intersects(
            minX: minX[i], minY: minY[i], maxX: minX[i] + width[i], maxY: minY[i] + height[i],
            withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
        {
            let id = ids[i]
            results.append(LayoutAttributes(
                id: id, frame: Rect(x: minX[i], y: minY[i], width: width[i], height: height[i]),
                zIndex: LayoutFrames.zIndex(of: id.kind)))
        }
    }

    public var allocatedBytes: Int {
        ids.capacity * MemoryLayout<ElementID>.stride
            + (minX.capacity + minY.capacity + width.capacity + height.capacity) * 8
            + (blockMinX.capacity + blockMinY.capacity + blockMaxX.capacity + blockMaxY.capacity) * 8
    }
}
