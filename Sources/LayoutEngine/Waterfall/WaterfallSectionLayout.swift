/// The waterfall (masonry) placement of SPEC §3, recomputed from scratch: the `full` mode, and
/// the reference every faster mode is checked against.
///
/// An item goes to the column chosen by the render direction — by default the column with the
/// smallest current height, ties to the **leftmost** (strict `<`, as CHT and HDWaterFlowLayout) —
/// at that column's bottom plus `lineSpacing` when the column already holds an item. A full-width
/// item starts at the tallest column's bottom (plus `lineSpacing` if any item was placed) and
/// levels every column to its bottom; it counts as an item in every column. Item widths are ignored.
public enum WaterfallSectionLayout {
    /// Running state of a waterfall: the bottom of each column and whether it holds an item.
    public struct ColumnState: Hashable, Sendable {
        public var bottoms: [Double]
        public var occupied: [Bool]

        public init(columns: Int, top: Double) {
            bottoms = [Double](repeating: top, count: columns)
            occupied = [Bool](repeating: false, count: columns)
        }

        /// The tallest column's bottom: where the items region ends.
        public var tallest: Double { bottoms.max() ?? 0 }

        /// The column the next item goes to.
        @inlinable
        public func column(forItem index: Int, direction: RenderDirection) -> Int {
            switch direction {
            case .shortestFirst:
                var best = 0
                var bestBottom = bottoms[0]
                for c in 1..<bottoms.count where bottoms[c] < bestBottom {
                    best = c
                    bestBottom = bottoms[c]
                }
                return best
            case .leftToRight:
                return index % bottoms.count
            case .rightToLeft:
                return bottoms.count - 1 - index % bottoms.count
            }
        }
    }

    /// Writes the frames and returns the bottom of the items region (its top when empty).
    public static func placeItems(_ p: SectionPlacement, style: WaterfallStyle) -> Double {
        let columns = WaterfallColumns(
            style: style, regionLeft: p.regionLeft, regionWidth: p.regionWidth, spacing: p.style.itemSpacing)
        var state = ColumnState(columns: style.columns, top: p.regionTop)
        for i in 0..<p.count {
            place(item: i, p, columns: columns, style: style, state: &state)
        }
        return p.count == 0 ? p.regionTop : state.tallest
    }

    /// Places item `i` of the section from `state` and advances the state.
    @inlinable
    public static func place(
        item i: Int, _ p: SectionPlacement, columns: WaterfallColumns, style: WaterfallStyle,
        state: inout ColumnState
    ) {
        let height = p.heights[i]
        let lineSpacing = p.style.lineSpacing
        if p.spansAllColumns[i] {
            var top = state.bottoms[0]
            var anyOccupied = state.occupied[0]
            for c in 1..<state.bottoms.count {
                top = Swift.max(top, state.bottoms[c])
                anyOccupied = anyOccupied || state.occupied[c]
            }
            if anyOccupied { top += lineSpacing }
            p.minX[i] = p.regionLeft
            p.width[i] = p.regionWidth
            p.minY[i] = top
            p.height[i] = height
            for c in 0..<state.bottoms.count {
                state.bottoms[c] = top + height
                state.occupied[c] = true
            }
        } else {
            let c = state.column(forItem: i, direction: style.direction)
            let top = state.bottoms[c] + (state.occupied[c] ? lineSpacing : 0)
            p.minX[i] = columns.minX[c]
            p.width[i] = columns.width[c]
            p.minY[i] = top
            p.height[i] = height
            state.bottoms[c] = top + height
            state.occupied[c] = true
        }
    }
}
