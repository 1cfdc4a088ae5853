/// The constants of one waterfall section's placement: its columns, items region and spacing.
@usableFromInline
struct WaterfallGeometry {
    @usableFromInline let columns: WaterfallColumns
    @usableFromInline let regionLeft: Double
    @usableFromInline let regionWidth: Double
    @usableFromInline let lineSpacing: Double
    @usableFromInline let direction: RenderDirection
    /// The placement rule as `shortest-first` applies it: `.leftmost` for the fixed directions,
    /// which ignore the rule, so that only a rule that reads the order state keeps one.
    @usableFromInline let placement: PlacementKind
    /// `grid-lanes`' tolerance (0 otherwise).
    @usableFromInline let tolerance: Double

    /// The geometry of a waterfall section of `style` whose items region starts at `regionLeft`
    /// and is `regionWidth` wide; nil for list and flow styles.
    @inlinable
    init?(style: SectionStyle, regionLeft: Double, regionWidth: Double) {
        guard case .waterfall(let waterfall) = style.kind else { return nil }
        self.regionLeft = regionLeft
        self.regionWidth = regionWidth
        lineSpacing = style.lineSpacing
        direction = waterfall.direction
        placement = waterfall.direction == .shortestFirst ? PlacementKind(waterfall.placement) : .leftmost
        tolerance = waterfall.placement.tolerance
        columns = WaterfallColumns(style: waterfall, regionLeft: regionLeft, regionWidth: regionWidth, spacing: style.itemSpacing)
    }

    /// The geometry of a waterfall section of `style` in a viewport `contentWidth` wide.
    @inlinable
    init?(style: SectionStyle, contentWidth: Double) {
        self.init(style: style, regionLeft: style.insets.left, regionWidth: contentWidth - style.insets.horizontal)
    }

    /// Geometry per style (nil for list and flow styles), computed once per layout or updater.
    static func perStyle(_ styles: [SectionStyle], contentWidth: Double) -> [WaterfallGeometry?] {
        styles.map { WaterfallGeometry(style: $0, contentWidth: contentWidth) }
    }
}

/// The placement rule without its parameter, for the cursor's branches.
@usableFromInline
enum PlacementKind: UInt8 {
    case leftmost, lastIndex, gridLanes

    @inlinable
    init(_ placement: WaterfallPlacementRule) {
        switch placement {
        case .leftmost: self = .leftmost
        case .lastIndex: self = .lastIndex
        case .gridLanes: self = .gridLanes
        }
    }
}

/// Where a waterfall placed one item: its frame in section coordinates and its column (-1 for
/// a full-width item).
@usableFromInline
struct WaterfallPlacement {
    @usableFromInline var minX: Double
    @usableFromInline var width: Double
    @usableFromInline var minY: Double
    @usableFromInline var column: Int

    @inlinable
    init(minX: Double, width: Double, minY: Double, column: Int) {
        self.minX = minX
        self.width = width
        self.minY = minY
        self.column = column
    }
}

/// The waterfall placement rules of docs/engine-semantics.md, in one place: the full layout
/// (`WaterfallSectionLayout`), the `incremental` updater and the `stable-lanes` updater all
/// place items through a cursor, opened once over a `ColumnState` by `ColumnState.withCursor`.
///
/// - An item goes to the column the render direction picks (shortest-first: by the placement
///   rule — the smallest bottom, ties to the leftmost, strict `<`, by default; or by index), or to
///   a given lane; its top is the column's bottom plus `lineSpacing` when the column already
///   holds an item.
/// - A full-width item starts at the tallest column's bottom (plus `lineSpacing` when any column
///   holds an item) and levels every column to its bottom; it counts as an item in every column.
/// - The `last-index` and `grid-lanes` rules also read and write the order state (`order`: each
///   column's last item index, then the auto-placement cursor); `leftmost` never touches it, so
///   its path is the one it always was (`tracksOrder` is false).
@usableFromInline
struct WaterfallCursor {
    @usableFromInline let bottoms: UnsafeMutableBufferPointer<Double>
    @usableFromInline let occupied: UnsafeMutableBufferPointer<Bool>
    @usableFromInline let order: UnsafeMutableBufferPointer<Int>
    @usableFromInline let columnMinX: UnsafeBufferPointer<Double>
    @usableFromInline let columnWidth: UnsafeBufferPointer<Double>
    @usableFromInline let regionLeft: Double
    @usableFromInline let regionWidth: Double
    @usableFromInline let lineSpacing: Double
    @usableFromInline let direction: RenderDirection
    @usableFromInline let placement: PlacementKind
    @usableFromInline let tolerance: Double

    @inlinable
    init(bottoms: UnsafeMutableBufferPointer<Double>, occupied: UnsafeMutableBufferPointer<Bool>,
         order: UnsafeMutableBufferPointer<Int>,
         columnMinX: UnsafeBufferPointer<Double>, columnWidth: UnsafeBufferPointer<Double>, geometry: WaterfallGeometry) {
        self.bottoms = bottoms
        self.occupied = occupied
        self.order = order
        self.columnMinX = columnMinX
        self.columnWidth = columnWidth
        regionLeft = geometry.regionLeft
        regionWidth = geometry.regionWidth
        lineSpacing = geometry.lineSpacing
        direction = geometry.direction
        placement = geometry.placement
        tolerance = geometry.tolerance
    }

    /// Whether the rule reads the order state (`last-index`, `grid-lanes` under shortest-first).
    @inlinable @inline(__always)
    var tracksOrder: Bool { placement != .leftmost }

    /// The column item `index` (section-local) goes to under the render direction, ties to the
    /// leftmost: the `leftmost` rule's path, which reads no order state.
    @inlinable @inline(__always)
    func column(forItem index: Int) -> Int {
        WaterfallSectionLayout.column(forItem: index, direction: direction, bottoms: UnsafeBufferPointer(bottoms))
    }

    /// The column item `index` (section-local) goes to under the render direction and the rule.
    @inlinable @inline(__always)
    func ruleColumn(forItem index: Int) -> Int {
        switch placement {
        case .leftmost:
            return column(forItem: index)
        case .lastIndex:
            return WaterfallSectionLayout.lastIndexColumn(
                bottoms: UnsafeBufferPointer(bottoms), order: UnsafeBufferPointer(order))
        case .gridLanes:
            return WaterfallSectionLayout.gridLanesColumn(
                bottoms: UnsafeBufferPointer(bottoms), occupied: UnsafeBufferPointer(occupied),
                order: UnsafeBufferPointer(order), lineSpacing: lineSpacing, tolerance: tolerance)
        }
    }

    /// Records that item `index` went to column `c` (-1: full width) in the order state.
    @inlinable @inline(__always)
    func record(item index: Int, column c: Int) {
        let columns = bottoms.count
        if c >= 0 {
            order[c] = index
            order[columns] = c + 1
        } else {
            for k in 0..<columns { order[k] = index }
            order[columns] = columns
        }
    }

    /// Where a full-width item would start: the tallest column's bottom, plus `lineSpacing` when
    /// any column holds an item.
    @inlinable @inline(__always)
    func fullWidthTop() -> Double {
        var top = bottoms[0]
        var anyOccupied = occupied[0]
        for c in 1..<bottoms.count {
            top = Swift.max(top, bottoms[c])
            anyOccupied = anyOccupied || occupied[c]
        }
        return anyOccupied ? top + lineSpacing : top
    }

    /// Places the next item, section-local index `index`: full-width when `spansAllColumns`,
    /// otherwise in the column the render direction picks.
    @inlinable @inline(__always)
    /// This is the `leftmost` rule's path (callers branch on `tracksOrder` once, outside their
    /// loops, and take `placeTracking` otherwise).
    func place(item index: Int, height: Double, spansAllColumns: Bool) -> WaterfallPlacement {
        if spansAllColumns { return placeFullWidth(height: height) }
        if direction == .shortestFirst {
            // The shortest column's bottom comes with it: the next item's top waits on no reload.
            let (c, bottom) = WaterfallSectionLayout.shortestColumn(bottoms: UnsafeBufferPointer(bottoms))
            return place(height: height, inColumn: c, bottom: bottom)
        }
        return place(height: height, inColumn: column(forItem: index))
    }

    /// Places the next item, section-local index `index`, under a rule that keeps an order state
    /// (`tracksOrder`): full-width when `spansAllColumns`, otherwise in the rule's column.
    @inlinable @inline(__always)
    func placeTracking(item index: Int, height: Double, spansAllColumns: Bool) -> WaterfallPlacement {
        if spansAllColumns { return placeFullWidth(height: height, item: index) }
        let c = ruleColumn(forItem: index)
        record(item: index, column: c)
        return place(height: height, inColumn: c)
    }

    /// Places the next item, section-local index `index`, keeping its lane: full-width when
    /// `spansAllColumns`, otherwise in `lane` when it is a column (>= 0), else in the column the
    /// render direction picks (an item that has no lane yet).
    @inlinable @inline(__always)
    func place(item index: Int, height: Double, spansAllColumns: Bool, lane: Int) -> WaterfallPlacement {
        if spansAllColumns { return placeFullWidth(height: height, item: index) }
        if !tracksOrder { return place(height: height, inColumn: lane >= 0 ? lane : column(forItem: index)) }
        let c = lane >= 0 ? lane : ruleColumn(forItem: index)
        record(item: index, column: c)
        return place(height: height, inColumn: c)
    }

    /// A full-width item, section-local index `index`: `placeFullWidth(height:)`, recorded in the
    /// order state when the rule keeps one.
    @inlinable @inline(__always)
    func placeFullWidth(height: Double, item index: Int) -> WaterfallPlacement {
        if tracksOrder { record(item: index, column: -1) }
        return placeFullWidth(height: height)
    }

    /// A full-width item: from `fullWidthTop()`, levelling every column to its bottom.
    @inlinable @inline(__always)
    func placeFullWidth(height: Double) -> WaterfallPlacement {
        let top = fullWidthTop()
        for c in 0..<bottoms.count {
            bottoms[c] = top + height
            occupied[c] = true
        }
        return WaterfallPlacement(minX: regionLeft, width: regionWidth, minY: top, column: -1)
    }

    /// An item in column `c`: at its bottom, plus `lineSpacing` when it already holds an item.
    @inlinable @inline(__always)
    func place(height: Double, inColumn c: Int) -> WaterfallPlacement {
        place(height: height, inColumn: c, bottom: bottoms[c])
    }

    /// An item in column `c`, whose bottom is `bottom`.
    @inlinable @inline(__always)
    func place(height: Double, inColumn c: Int, bottom: Double) -> WaterfallPlacement {
        let top = bottom + (occupied[c] ? lineSpacing : 0)
        bottoms[c] = top + height
        occupied[c] = true
        return WaterfallPlacement(minX: columnMinX[c], width: columnWidth[c], minY: top, column: c)
    }
}

/// How the loops of the rules that keep an order state place their items. The `leftmost` loops
/// call the cursor directly and stay as they were, so the default pays nothing for the others.
@usableFromInline
enum OrderPlacer {
    @inlinable @inline(__always)
    static func place(_ cursor: WaterfallCursor, item index: Int, height: Double, spansAllColumns: Bool) -> WaterfallPlacement {
        cursor.placeTracking(item: index, height: height, spansAllColumns: spansAllColumns)
    }
    @inlinable @inline(__always)
    static func placeInColumn(_ cursor: WaterfallCursor, item index: Int, height: Double) -> WaterfallPlacement {
        cursor.placeTracking(item: index, height: height, spansAllColumns: false)
    }
    @inlinable @inline(__always)
    static func placeFullWidth(_ cursor: WaterfallCursor, item index: Int, height: Double) -> WaterfallPlacement {
        cursor.record(item: index, column: -1)
        return cursor.placeFullWidth(height: height)
    }
}

extension WaterfallSectionLayout.ColumnState {
    /// Calls `body` with a cursor that places items on this state, its arrays opened once, for
    /// the `leftmost` rule (no order state).
    @inlinable
    mutating func withCursor<R>(_ geometry: WaterfallGeometry, _ body: (WaterfallCursor) throws -> R) rethrows -> R {
        try withCursor(geometry, order: UnsafeMutableBufferPointer(start: nil, count: 0), body)
    }

    /// Calls `body` with a cursor that places items on this state and on `order`, the order
    /// state of the rules that keep one (`startOrder(columns:)`).
    @inlinable
    mutating func withCursor<R>(
        _ geometry: WaterfallGeometry, order: inout [Int], _ body: (WaterfallCursor) throws -> R
    ) rethrows -> R {
        try order.withUnsafeMutableBufferPointer { order in try withCursor(geometry, order: order, body) }
    }

    @inlinable
    mutating func withCursor<R>(
        _ geometry: WaterfallGeometry, order: UnsafeMutableBufferPointer<Int>, _ body: (WaterfallCursor) throws -> R
    ) rethrows -> R {
        try bottoms.withUnsafeMutableBufferPointer { bottoms in
            try occupied.withUnsafeMutableBufferPointer { occupied in
                try geometry.columns.minX.withUnsafeBufferPointer { columnMinX in
                    try geometry.columns.width.withUnsafeBufferPointer { columnWidth in
                        try body(WaterfallCursor(
                            bottoms: bottoms, occupied: occupied, order: order,
                            columnMinX: columnMinX, columnWidth: columnWidth, geometry: geometry))
                    }
                }
            }
        }
    }
}
