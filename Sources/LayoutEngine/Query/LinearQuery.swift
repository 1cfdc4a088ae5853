/// Tests every element against the rect, as IGListKit (`_rangeOfSectionsInRect:` plus a test of
/// every item) and Listable (`ListLayoutContent.content(in:)`) do. O(n) per query; exact.
public struct LinearQuery: RectQueryIndex {
    public init(frames: LayoutFrames) {}

    public func appendElements(in rect: Rect, framesAt pointer: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        Self.appendElements(in: rect, frames: pointer.pointee, at: pointer, to: &results)
    }

    /// The scan, with the frames copied once per query into a parameter (negligible beside O(n)).
    /// Read through the pointer in a loop that may append (and so write anywhere), every item would
    /// load each column's base and count again; a local copy inlined here spills them instead
    /// (fewer instructions, more memory accesses). A parameter lets the compiler keep them in place.
    @inline(never)
    private static func appendElements(
        in rect: Rect, frames: LayoutFrames, at pointer: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]
    ) {
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY
        for s in 0..<frames.sectionCount {
            pointer.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            let sectionTop = frames.sectionTops[s]
            let start = frames.sectionItemStarts[s]
            for i in frames.itemRange(inSection: s) {
                let minX = frames.itemMinX[i], minY = sectionTop + frames.itemMinY[i]
                if Rect.intersects(
                    minX: minX, minY: minY, maxX: minX + frames.itemWidth[i], maxY: minY + frames.itemHeight[i],
                    withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                {
                    results.append(LayoutAttributes(id: .item(i - start, section: s), frame: frames.itemFrame(global: i, section: s)))
                }
            }
        }
    }

    public var allocatedBytes: Int { 0 }
}
