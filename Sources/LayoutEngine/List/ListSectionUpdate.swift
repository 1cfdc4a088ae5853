extension LayoutFrames {
    /// Brings list section `s` up to date after its items changed from `placed.lowerBound` on:
    /// the items in `placed` (inserted, or one whose height changed; empty after a removal) are
    /// placed below their predecessor, and every later item of the section moves by the one δ
    /// between its old top and where the placed items now end — in a list a height change moves
    /// only the items after it, all by the same amount. The move goes through `ShiftedOffsets`
    /// (O(n / 4096 + 128)), so the work is O(placed) placements, not a re-placement of the
    /// section. The item slots must already match `data`; the caller restacks the sections.
    /// Returns the number of items placed.
    mutating func updateListSection(
        _ s: Int, placing placed: Range<Int>, bounds: Rect, style: SectionStyle, heights: [Double]
    ) -> Int {
        let base = sectionItemStarts[s]
        let n = sectionItemStarts[s + 1] - base
        assert(placed.lowerBound >= 0 && placed.upperBound <= n, "placed items lie in the section")
        let regionTop = itemsRegionTops[s]
        let spacing = style.lineSpacing
        let left = style.insets.left, width = bounds.width - style.insets.horizontal
        var y = placed.lowerBound == 0
            ? regionTop
            : itemMinY[base + placed.lowerBound - 1] + itemHeight[base + placed.lowerBound - 1] + spacing
        for i in placed {
            let global = base + i
            let height = heights[global]
            itemMinX[global] = left
            itemWidth[global] = width
            itemMinY[global] = y
            itemHeight[global] = height
            y += height + spacing
        }
        if placed.upperBound < n {
            // The first untouched item still has its old top: everything from it moves by δ.
            let delta = y - itemMinY[base + placed.upperBound]
            itemMinY.shift((base + placed.upperBound)..<(base + n), by: delta)
        }
        // Never above the region's top: shifted tops (old + (y - old)) can round an ulp below y, so a
        // last item of height 0 could end the region before it starts.
        itemsRegionBottoms[s] = n == 0 ? regionTop : Swift.max(regionTop, itemMinY[base + n - 1] + itemHeight[base + n - 1])
        return placed.count
    }
}
