/// The constants of one waterfall section's placement: its columns, items region and spacing.
@usableFromInline
struct WaterfallGeometry {
    @usableFromInline let columns: WaterfallColumns
    @usableFromInline let regionLeft: Double
    @usableFromInline let regionWidth: Double
    @usableFromInline let lineSpacing: Double
    @usableFromInline let direction: RenderDirection

    /// The geometry of a waterfall section of `style` whose items region starts at `regionLeft`
    /// and is `regionWidth` wide; nil for list and flow styles.
    @inlinable
    init?(style: SectionStyle, regionLeft: Double, regionWidth: Double) {
        guard case .waterfall(let waterfall) = style.kind else { return nil }
        self.init(
            waterfall: waterfall, itemSpacing: style.itemSpacing, lineSpacing: style.lineSpacing,
            regionLeft: regionLeft, regionWidth: regionWidth)
    }

    /// The geometry of a waterfall of `waterfall` columns `itemSpacing` apart whose items region
    /// starts at `regionLeft` and is `regionWidth` wide.
    @inlinable
    init(waterfall: WaterfallStyle, itemSpacing: Double, lineSpacing: Double, regionLeft: Double, regionWidth: Double) {
        self.regionLeft = regionLeft
        self.regionWidth = regionWidth
        self.lineSpacing = lineSpacing
        direction = waterfall.direction
        columns = WaterfallColumns(style: waterfall, regionLeft: regionLeft, regionWidth: regionWidth, spacing: itemSpacing)
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

/// The placement rule of a waterfall section as `shortest-first` applies it, kept apart from
/// `WaterfallGeometry` so that the default rule's geometry and cursor are what they always were:
/// `.leftmost` for the fixed directions, which ignore the rule.
@usableFromInline
struct WaterfallRule: Equatable, Sendable {
    @usableFromInline let kind: PlacementKind
    /// `grid-lanes`' tolerance (0 otherwise).
    @usableFromInline let tolerance: Double

    @inlinable
    init(kind: PlacementKind, tolerance: Double) {
        self.kind = kind
        self.tolerance = tolerance
    }

    @inlinable static var leftmost: WaterfallRule { WaterfallRule(kind: .leftmost, tolerance: 0) }

    /// The rule of a waterfall style (`.leftmost` unless its direction is shortest-first).
    @inlinable
    init(_ style: WaterfallStyle) {
        guard style.direction == .shortestFirst else {
            self = .leftmost
            return
        }
        switch style.placement {
        case .leftmost: self = .leftmost
        case .lastIndex: self.init(kind: .lastIndex, tolerance: 0)
        case .gridLanes(let tolerance): self.init(kind: .gridLanes, tolerance: tolerance)
        }
    }

    /// Whether the rule reads and writes an order state (`last-index`, `grid-lanes`).
    @inlinable var keepsOrder: Bool { kind != .leftmost }

    /// The rule per style (`.leftmost` for list and flow styles).
    static func perStyle(_ styles: [SectionStyle]) -> [WaterfallRule] {
        styles.map { style in
            if case .waterfall(let waterfall) = style.kind { return WaterfallRule(waterfall) }
            return .leftmost
        }
    }
}

/// The placement rule without its parameter, for the cursor's branches.
@usableFromInline
enum PlacementKind: UInt8, Sendable {
    case leftmost, lastIndex, gridLanes
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
/// - An item goes to the column the render direction picks (shortest-first: the smallest bottom,
///   ties to the leftmost, strict `<`; or by index), or to a given lane; its top is the column's
///   bottom plus `lineSpacing` when the column already holds an item.
/// - A full-width item starts at the tallest column's bottom (plus `lineSpacing` when any column
///   holds an item) and levels every column to its bottom; it counts as an item in every column.
///
/// This cursor is the `leftmost` rule's (and the fixed directions'); the rules that read an
/// order state place through `OrderedWaterfallCursor`, which wraps one, so that the default's
/// path is the one it was before the rules existed.
@usableFromInline
struct WaterfallCursor {
    @usableFromInline let bottoms: UnsafeMutableBufferPointer<Double>
    @usableFromInline let occupied: UnsafeMutableBufferPointer<Bool>
    @usableFromInline let columnMinX: UnsafeBufferPointer<Double>
    @usableFromInline let columnWidth: UnsafeBufferPointer<Double>
    @usableFromInline let regionLeft: Double
    @usableFromInline let regionWidth: Double
    @usableFromInline let lineSpacing: Double
    @usableFromInline let direction: RenderDirection

    @inlinable
    init(bottoms: UnsafeMutableBufferPointer<Double>, occupied: UnsafeMutableBufferPointer<Bool>,
         columnMinX: UnsafeBufferPointer<Double>, columnWidth: UnsafeBufferPointer<Double>, geometry: WaterfallGeometry) {
        self.bottoms = bottoms
        self.occupied = occupied
        self.columnMinX = columnMinX
        self.columnWidth = columnWidth
        regionLeft = geometry.regionLeft
        regionWidth = geometry.regionWidth
        lineSpacing = geometry.lineSpacing
        direction = geometry.direction
    }

    /// The column item `index` (section-local) goes to under the render direction.
    @inlinable @inline(__always)
    func column(forItem index: Int) -> Int {
        WaterfallSectionLayout.column(forItem: index, direction: direction, bottoms: UnsafeBufferPointer(bottoms))
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
    func place(item index: Int, height: Double, spansAllColumns: Bool) -> WaterfallPlacement {
        if spansAllColumns { return placeFullWidth(height: height) }
        if direction == .shortestFirst {
            // The shortest column's bottom comes with it: the next item's top waits on no reload.
            let (c, bottom) = WaterfallSectionLayout.shortestColumn(bottoms: UnsafeBufferPointer(bottoms))
            return place(height: height, inColumn: c, bottom: bottom)
        }
        return place(height: height, inColumn: column(forItem: index))
    }

    /// Places the next item, section-local index `index`, keeping its lane: full-width when
    /// `spansAllColumns`, otherwise in `lane` when it is a column (>= 0), else in the column the
    /// render direction picks (an item that has no lane yet).
    @inlinable @inline(__always)
    func place(item index: Int, height: Double, spansAllColumns: Bool, lane: Int) -> WaterfallPlacement {
        if spansAllColumns { return placeFullWidth(height: height) }
        return place(height: height, inColumn: lane >= 0 ? lane : column(forItem: index))
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

/// A `WaterfallCursor` for the rules that keep an order state (`last-index`, `grid-lanes`):
/// `order` holds each column's last item index (-1 while empty), then the auto-placement cursor
/// (`ColumnState.startOrder`). Every item placed through it is recorded there.
@usableFromInline
struct OrderedWaterfallCursor {
    @usableFromInline let base: WaterfallCursor
    @usableFromInline let order: UnsafeMutableBufferPointer<Int>
    @usableFromInline let rule: WaterfallRule

    @inlinable
    init(base: WaterfallCursor, order: UnsafeMutableBufferPointer<Int>, rule: WaterfallRule) {
        self.base = base
        self.order = order
        self.rule = rule
    }

    /// The column the rule gives the next item, section-local index `index` (`.leftmost` is also
    /// the fixed directions' rule: by index).
    @inlinable @inline(__always)
    func ruleColumn(forItem index: Int) -> Int {
        switch rule.kind {
        case .leftmost:
            return base.column(forItem: index)
        case .lastIndex:
            return WaterfallSectionLayout.lastIndexColumn(
                bottoms: UnsafeBufferPointer(base.bottoms), order: UnsafeBufferPointer(order))
        case .gridLanes:
            return WaterfallSectionLayout.gridLanesColumn(
                bottoms: UnsafeBufferPointer(base.bottoms), occupied: UnsafeBufferPointer(base.occupied),
                order: UnsafeBufferPointer(order), lineSpacing: base.lineSpacing, tolerance: rule.tolerance)
        }
    }

    /// Records that item `index` went to column `c` (-1: full width) in the order state.
    @inlinable @inline(__always)
    func record(item index: Int, column c: Int) {
        let columns = base.bottoms.count
        if c >= 0 {
            order[c] = index
            order[columns] = c + 1
        } else {
            for k in 0..<columns { order[k] = index }
            order[columns] = columns
        }
    }

    /// Places the next item, section-local index `index`: full-width when `spansAllColumns`,
    /// otherwise in the rule's column.
    @inlinable @inline(__always)
    func place(item index: Int, height: Double, spansAllColumns: Bool) -> WaterfallPlacement {
        if spansAllColumns { return placeFullWidth(item: index, height: height) }
        let c = ruleColumn(forItem: index)
        record(item: index, column: c)
        return base.place(height: height, inColumn: c)
    }

    /// A full-width item, section-local index `index`, recorded as the last of every column.
    @inlinable @inline(__always)
    func placeFullWidth(item index: Int, height: Double) -> WaterfallPlacement {
        record(item: index, column: -1)
        return base.placeFullWidth(height: height)
    }
}

extension WaterfallSectionLayout.ColumnState {
    /// Calls `body` with a cursor that places items on this state, its arrays opened once.
    @inlinable
    mutating func withCursor<R>(_ geometry: WaterfallGeometry, _ body: (WaterfallCursor) throws -> R) rethrows -> R {
        try bottoms.withUnsafeMutableBufferPointer { bottoms in
            try occupied.withUnsafeMutableBufferPointer { occupied in
                try geometry.columns.minX.withUnsafeBufferPointer { columnMinX in
                    try geometry.columns.width.withUnsafeBufferPointer { columnWidth in
                        try body(WaterfallCursor(
                            bottoms: bottoms, occupied: occupied, columnMinX: columnMinX, columnWidth: columnWidth,
                            geometry: geometry))
                    }
                }
            }
        }
    }

    /// Calls `body` with a cursor that places items on this state and records them in `order`,
    /// the order state of a rule that keeps one (`startOrder(columns:)`).
    @inlinable
    mutating func withCursor<R>(
        _ geometry: WaterfallGeometry, rule: WaterfallRule, order: inout [Int],
        _ body: (OrderedWaterfallCursor) throws -> R
    ) rethrows -> R {
        try order.withUnsafeMutableBufferPointer { order in
            try withCursor(geometry) { cursor in try body(OrderedWaterfallCursor(base: cursor, order: order, rule: rule)) }
        }
    }
}
