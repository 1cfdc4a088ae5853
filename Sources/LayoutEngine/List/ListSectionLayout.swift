/// The list (UITableView / DZTableView) placement: items at the full width of the items region,
/// stacked top to bottom with `lineSpacing` between consecutive items. Item tops are prefix sums
/// of the heights; O(n) with one pass.
public enum ListSectionLayout {
    /// Writes the frames and returns the bottom of the items region (its top when empty).
    @inlinable
    public static func placeItems(_ p: SectionPlacement) -> Double {
        let n = p.count
        if n == 0 { return p.regionTop }
        let left = p.regionLeft, width = p.regionWidth, spacing = p.lineSpacing
        var y = p.regionTop, bottom = p.regionTop
        for i in 0..<n {
            let height = p.heights[i]
            p.minX[i] = left
            p.width[i] = width
            p.minY[i] = y
            p.height[i] = height
            // The region ends at the last item's bottom, as `updateListSection` computes it:
            // `y - spacing` after the loop can round below it (and below an empty region's top).
            bottom = y + height
            y += height + spacing
        }
        return bottom
    }
}
