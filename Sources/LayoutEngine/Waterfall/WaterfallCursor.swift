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
        self.regionLeft = regionLeft
        self.regionWidth = regionWidth
        lineSpacing = style.lineSpacing
        direction = waterfall.direction
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
}
