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
    ///
    /// The `last-index` and `grid-lanes` rules also keep an order state, an `[Int]` beside it
    /// (`startOrder(columns:)`): the section index of each column's last item, -1 while it has
    /// none, then the auto-placement cursor, the column after the last item's (0 at the start).
    /// It lives apart so that the default rule's state is what it always was.
    public struct ColumnState: Hashable, Sendable {
        public var bottoms: [Double]
        public var occupied: [Bool]

        public init(columns: Int, top: Double) {
            bottoms = [Double](repeating: top, count: columns)
            occupied = [Bool](repeating: false, count: columns)
        }

        /// The order state at the top of a section of `columns` columns.
        public static func startOrder(columns: Int) -> [Int] {
            var order = [Int](repeating: -1, count: columns + 1)
            order[columns] = 0
            return order
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

    /// `last-index` (TanStack Virtual): the column with the smallest bottom; among equal bottoms
    /// the one whose last item (`order[c]`, -1 when empty) has the smaller index; what still ties
    /// goes to the leftmost.
    @inlinable @inline(__always)
    public static func lastIndexColumn(bottoms: UnsafeBufferPointer<Double>, order: UnsafeBufferPointer<Int>) -> Int {
        var best = 0
        var bestBottom = bottoms[0]
        var bestLast = order[0]
        var c = 1
        while c < bottoms.count {
            let bottom = bottoms[c]
            if bottom < bestBottom || (bottom == bestBottom && order[c] < bestLast) {
                best = c
                bestBottom = bottom
                bestLast = order[c]
            }
            c += 1
        }
        return best
    }

    /// `grid-lanes` (css-grid-3): a column's running position is where its next item would start
    /// (its bottom, plus `lineSpacing` when it holds an item); the columns whose running position
    /// is at most the smallest plus `tolerance` are the possible ones, and the first of them at
    /// or after the auto-placement cursor (`order[columns]`) is taken, or else the first.
    @inlinable @inline(__always)
    public static func gridLanesColumn(
        bottoms: UnsafeBufferPointer<Double>, occupied: UnsafeBufferPointer<Bool>, order: UnsafeBufferPointer<Int>,
        lineSpacing: Double, tolerance: Double
    ) -> Int {
        let columns = bottoms.count
        var smallest = Double.infinity
        for c in 0..<columns {
            let position = occupied[c] ? bottoms[c] + lineSpacing : bottoms[c]
            smallest = Swift.min(smallest, position)
        }
        let limit = smallest + tolerance
        let cursor = order[columns]
        var c = cursor
        while c < columns {
            if (occupied[c] ? bottoms[c] + lineSpacing : bottoms[c]) <= limit { return c }
            c += 1
        }
        c = 0
        while c < cursor {
            if (occupied[c] ? bottoms[c] + lineSpacing : bottoms[c]) <= limit { return c }
            c += 1
        }
        return 0  // unreachable: the smallest is always possible
    }

    /// Writes the frames and returns the bottom of the items region (its top when empty), placing
    /// each item through a `WaterfallCursor`, the rules shared with the update modes.
    public static func placeItems(_ p: SectionPlacement, style: WaterfallStyle) -> Double {
        if p.count == 0 { return p.regionTop }
        let geometry = WaterfallGeometry(
            waterfall: style, itemSpacing: p.itemSpacing, lineSpacing: p.lineSpacing,
            regionLeft: p.regionLeft, regionWidth: p.regionWidth)
        if case .leftmost = style.placement {} else if style.direction == .shortestFirst {
            return placeItemsKeepingOrder(p, columns: style.columns, geometry: geometry, rule: WaterfallRule(style))
        }
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

    /// `placeItems` under a rule that keeps an order state.
    @inline(never)
    static func placeItemsKeepingOrder(
        _ p: SectionPlacement, columns: Int, geometry: WaterfallGeometry, rule: WaterfallRule
    ) -> Double {
        var state = ColumnState(columns: columns, top: p.regionTop)
        var order = ColumnState.startOrder(columns: columns)
        state.withCursor(geometry, rule: rule, order: &order) { cursor in
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
