/// The waterfall (masonry) placement of docs/engine-semantics.md, recomputed from scratch: the `full` mode.
///
/// An item goes to the column chosen by the render direction — by default the column with the
/// smallest current height, ties to the **leftmost** (strict `<`, as CHT and HDWaterFlowLayout) —
/// at that column's bottom plus `lineSpacing` when the column already holds an item. A full-width
/// item starts at the tallest column's bottom (plus `lineSpacing` if any item was placed) and
/// levels every column to its bottom; it counts as an item in every column. Item widths are ignored.
/// The rules live in `WaterfallCursor`, which the update modes use too.
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
            return shortestColumn(bottoms: bottoms).column
        case .leftToRight:
            return index % bottoms.count
        case .rightToLeft:
            return bottoms.count - 1 - index % bottoms.count
        }
    }

    /// The column with the smallest bottom (ties to the leftmost, strict `<`) and that bottom.
    @inlinable @inline(__always)
    public static func shortestColumn(bottoms: UnsafeBufferPointer<Double>) -> (column: Int, bottom: Double) {
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
        return (best, bestBottom)
    }

    /// Writes the frames and returns the bottom of the items region (its top when empty), placing
    /// each item through a `WaterfallCursor`, the rules shared with the update modes.
    public static func placeItems(_ p: SectionPlacement, style: WaterfallStyle) -> Double {
        if p.count == 0 { return p.regionTop }
        let geometry = WaterfallGeometry(style: p.style, regionLeft: p.regionLeft, regionWidth: p.regionWidth)!
        var state = ColumnState(columns: style.columns, top: p.regionTop)
        state.withCursor(geometry) { cursor in
            let cursor = cursor, p = p  // in registers, not reloaded after each store
            for i in 0..<p.count {
                let height = p.heights[i]
                let placed = cursor.place(item: i, height: height, spansAllColumns: p.spansAllColumns[i])
                p.minX[i] = placed.minX
                p.width[i] = placed.width
                p.minY[i] = placed.minY
                p.height[i] = height
            }
        }
        return state.tallest
    }
}
