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

        /// Places a full-width item (see `WaterfallSectionLayout.placeFullWidth`); returns its top.
        @inlinable
        public mutating func placeFullWidth(height: Double, lineSpacing: Double) -> Double {
            bottoms.withUnsafeMutableBufferPointer { bottoms in
                occupied.withUnsafeMutableBufferPointer { occupied in
                    WaterfallSectionLayout.placeFullWidth(height: height, lineSpacing: lineSpacing, bottoms: bottoms, occupied: occupied)
                }
            }
        }

        /// Places an item in column `c` (see `WaterfallSectionLayout.place(height:inColumn:…)`); returns its top.
        @inlinable
        public mutating func place(height: Double, inColumn c: Int, lineSpacing: Double) -> Double {
            bottoms.withUnsafeMutableBufferPointer { bottoms in
                occupied.withUnsafeMutableBufferPointer { occupied in
                    WaterfallSectionLayout.place(height: height, inColumn: c, lineSpacing: lineSpacing, bottoms: bottoms, occupied: occupied)
                }
            }
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

    /// Places a full-width item of `height`: it starts at the tallest column's bottom (plus
    /// `lineSpacing` when any column holds an item) and levels every column to its bottom.
    /// Returns its top.
    @inlinable @inline(__always)
    public static func placeFullWidth(
        height: Double, lineSpacing: Double,
        bottoms: UnsafeMutableBufferPointer<Double>, occupied: UnsafeMutableBufferPointer<Bool>
    ) -> Double {
        var top = bottoms[0]
        var anyOccupied = occupied[0]
        for c in 1..<bottoms.count {
            top = Swift.max(top, bottoms[c])
            anyOccupied = anyOccupied || occupied[c]
        }
        if anyOccupied { top += lineSpacing }
        for c in 0..<bottoms.count {
            bottoms[c] = top + height
            occupied[c] = true
        }
        return top
    }

    /// Places an item of `height` in column `c`: at its bottom, plus `lineSpacing` when the column
    /// already holds an item. Returns its top.
    @inlinable @inline(__always)
    public static func place(
        height: Double, inColumn c: Int, lineSpacing: Double,
        bottoms: UnsafeMutableBufferPointer<Double>, occupied: UnsafeMutableBufferPointer<Bool>
    ) -> Double {
        let top = bottoms[c] + (occupied[c] ? lineSpacing : 0)
        bottoms[c] = top + height
        occupied[c] = true
        return top
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
    /// Runs over unsafe buffers; `placeFullWidth` and `place(height:inColumn:…)` are the rules,
    /// shared with the incremental updater.
    public static func placeItems(_ p: SectionPlacement, style: WaterfallStyle) -> Double {
        if p.count == 0 { return p.regionTop }
        let columns = WaterfallColumns(
            style: style, regionLeft: p.regionLeft, regionWidth: p.regionWidth, spacing: p.style.itemSpacing)
        let direction = style.direction, lineSpacing = p.style.lineSpacing
        var bottoms = [Double](repeating: p.regionTop, count: style.columns)
        var occupied = [Bool](repeating: false, count: style.columns)
        bottoms.withUnsafeMutableBufferPointer { bottoms in
            occupied.withUnsafeMutableBufferPointer { occupied in
                columns.minX.withUnsafeBufferPointer { columnMinX in
                    columns.width.withUnsafeBufferPointer { columnWidth in
                        for i in 0..<p.count {
                            let height = p.heights[i]
                            if p.spansAllColumns[i] {
                                p.minX[i] = p.regionLeft
                                p.width[i] = p.regionWidth
                                p.minY[i] = placeFullWidth(
                                    height: height, lineSpacing: lineSpacing, bottoms: bottoms, occupied: occupied)
                            } else {
                                let c = column(forItem: i, direction: direction, bottoms: UnsafeBufferPointer(bottoms))
                                p.minX[i] = columnMinX[c]
                                p.width[i] = columnWidth[c]
                                p.minY[i] = place(
                                    height: height, inColumn: c, lineSpacing: lineSpacing, bottoms: bottoms, occupied: occupied)
                            }
                            p.height[i] = height
                        }
                    }
                }
            }
        }
        return bottoms.max()!
    }
}
