/// Tests every element against the rect, as IGListKit (`_rangeOfSectionsInRect:` plus a test of
/// every item) and Listable (`ListLayoutContent.content(in:)`) do. O(n) per query; exact.
public struct LinearQuery: RectQueryIndex {
    public init(frames: LayoutFrames) {}

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        for s in 0..<frames.pointee.sectionCount {
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            let sectionTop = frames.pointee.sectionTops[s]
            for i in frames.pointee.itemRange(inSection: s) {
                let minX = frames.pointee.itemMinX[i], minY = sectionTop + frames.pointee.itemMinY[i]
                if Rect.intersects(
                    minX: minX, minY: minY, maxX: minX + frames.pointee.itemWidth[i], maxY: minY + frames.pointee.itemHeight[i],
                    withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                {
                    results.append(frames.itemAttributes(global: i, section: s))
                }
            }
        }
    }

    public var allocatedBytes: Int { 0 }
}
