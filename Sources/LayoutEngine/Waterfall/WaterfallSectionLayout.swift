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

        /// A state with no columns and no storage, to leave behind when a state is moved out.
        public static let empty = ColumnState(columns: 0, top: 0)

        /// The tallest column's bottom: where the items region ends.
        public var tallest: Double { bottoms.max() ?? 0 }

        /// The column the next item goes to.
        @inlinable @inline(__always)
        public func column(forItem index: Int, direction: RenderDirection) -> Int {
            bottoms.withUnsafeBufferPointer { WaterfallSectionLayout.column(forItem: index, direction: direction, bottoms: $0) }
        }
    }

    /// The column item `index` goes to, given the column bottoms: the shortest (ties to the
    /// leftmost, strict `<`), or by index for the fixed render directions.
    @inlinable @inline(__always)
    public static func column(forItem index: Int, direction: RenderDirection, bottoms: UnsafeBufferPointer<Double>) -> Int {
        switch direction {
        case .shortestFirst:
            var best = 0
            var bestBottom = bottoms[0]
            var c = 1
            while c < bottoms.count {
                if bottoms[c] < bestBottom {
                    best = c
                    bestBottom = bottoms[c]
                }
                c += 1
            }
            return best
        case .leftToRight:
            return index % bottoms.count
        case .rightToLeft:
            return bottoms.count - 1 - index % bottoms.count
        }
    }

    /// Writes the frames and returns the bottom of the items region (its top when empty).
    /// The same placement as `place(item:…)` item by item, over unsafe buffers.
    public static func placeItems(_ p: SectionPlacement, style: WaterfallStyle) -> Double {
        if p.count == 0 { return p.regionTop }
        let columns = WaterfallColumns(
            style: style, regionLeft: p.regionLeft, regionWidth: p.regionWidth, spacing: p.style.itemSpacing)
        let columnCount = style.columns, direction = style.direction, lineSpacing = p.style.lineSpacing
        var bottoms = [Double](repeating: p.regionTop, count: columnCount)
        var occupied = [Bool](repeating: false, count: columnCount)
        bottoms.withUnsafeMutableBufferPointer { bottoms in
            occupied.withUnsafeMutableBufferPointer { occupied in
                columns.minX.withUnsafeBufferPointer { columnMinX in
                    columns.width.withUnsafeBufferPointer { columnWidth in
                        for i in 0..<p.count {
                            let height = p.heights[i]
                            if p.spansAllColumns[i] {
                                var top = bottoms[0]
                                var anyOccupied = occupied[0]
                                for c in 1..<columnCount {
                                    top = Swift.max(top, bottoms[c])
                                    anyOccupied = anyOccupied || occupied[c]
                                }
                                if anyOccupied { top += lineSpacing }
                                p.minX[i] = p.regionLeft
                                p.width[i] = p.regionWidth
                                p.minY[i] = top
                                p.height[i] = height
                                for c in 0..<columnCount {
                                    bottoms[c] = top + height
                                    occupied[c] = true
                                }
                            } else {
                                let c = column(forItem: i, direction: direction, bottoms: UnsafeBufferPointer(bottoms))
                                let top = bottoms[c] + (occupied[c] ? lineSpacing : 0)
                                p.minX[i] = columnMinX[c]
                                p.width[i] = columnWidth[c]
                                p.minY[i] = top
                                p.height[i] = height
                                bottoms[c] = top + height
                                occupied[c] = true
                            }
                        }
                    }
                }
            }
        }
        return bottoms.max()!
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
