/// Flow rows as CSS flexbox lays them out with `flex-wrap: wrap`, `align-content: flex-start`
/// and no grow or shrink — the rules Yoga implements and HDYogaFlowLayout relies on.
///
/// Greedy, in order: an item opens a new row when the row is not empty and
/// `used + itemSpacing + width > regionWidth` (an exact fit stays; a row's first item is always
/// accepted, even when wider than the row). `justify` spreads each row's free space on top of the
/// spacing; when a row overflows, the space-* values fall back to `start` while `center` and `end`
/// keep their formula. `align` places an item in its row, which is as tall as its tallest item.
public enum FlowSectionLayout {
    /// Where the first item of a row starts and how much space follows each item, for a row
    /// of `count` items with `free` points left over.
    @inlinable
    public static func distribution(justify: Justify, free: Double, count: Int, spacing: Double)
        -> (leading: Double, gap: Double)
    {
        let n = Double(count)
        if free < 0 {
            switch justify {
            case .center: return (free / 2, spacing)
            case .end: return (free, spacing)
            default: return (0, spacing)
            }
        }
        switch justify {
        case .start: return (0, spacing)
        case .center: return (free / 2, spacing)
        case .end: return (free, spacing)
        case .spaceBetween: return count > 1 ? (0, spacing + free / (n - 1)) : (0, spacing)
        case .spaceAround: return (free / (2 * n), spacing + free / n)
        case .spaceEvenly: return (free / (n + 1), spacing + free / (n + 1))
        }
    }

    /// Writes the frames and returns the bottom of the items region (its top when empty).
    public static func placeItems(_ p: SectionPlacement, justify: Justify, align: Align) -> Double {
        let n = p.count
        if n == 0 { return p.regionTop }
        let spacing = p.itemSpacing, lineSpacing = p.lineSpacing
        let regionWidth = p.regionWidth
        var rowTop = p.regionTop
        var rowStart = 0
        while rowStart < n {
            // Gather the row.
            var used = p.widths[rowStart]
            var rowHeight = p.heights[rowStart]
            var rowEnd = rowStart + 1
            while rowEnd < n {
                let width = p.widths[rowEnd]
                if used + spacing + width > regionWidth { break }
                used += spacing + width
                rowHeight = Swift.max(rowHeight, p.heights[rowEnd])
                rowEnd += 1
            }
            // Place it.
            let (leading, gap) = distribution(
                justify: justify, free: regionWidth - used, count: rowEnd - rowStart, spacing: spacing)
            var x = p.regionLeft + leading
            for i in rowStart..<rowEnd {
                let width = p.widths[i], height = p.heights[i]
                let offset: Double
                switch align {
                case .start: offset = 0
                case .center: offset = (rowHeight - height) / 2
                case .end: offset = rowHeight - height
                }
                p.minX[i] = x
                p.width[i] = width
                p.minY[i] = rowTop + offset
                p.height[i] = height
                x += width + gap
            }
            rowStart = rowEnd
            rowTop += rowHeight + (rowStart < n ? lineSpacing : 0)
        }
        return rowTop
    }
}
