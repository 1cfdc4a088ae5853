/// One change to the rows of a `RowOffsets` structure.
public enum RowChange: Hashable, Sendable {
    /// A row gets its measured height (or is measured again).
    case setHeight(row: Int, height: Double)
    /// Rows inserted so that the first becomes row `at` (a chat loading older messages inserts at 0).
    case insert(at: Int, heights: [Double])
    /// `count` rows removed starting at `at`.
    case remove(at: Int, count: Int)
}

extension RowOffsets {
    /// Applies `change` without moving what the user sees, and returns the correction to add to the
    /// scroll offset (TanStack Virtual's `scrollTop += Δ` for changes above the viewport).
    ///
    /// The anchor is the first visible row, the one covering `scrollOffset`. A change above it (a
    /// measurement, an insert at or before it, a removal entirely before it) moves it by the
    /// returned correction; scrolling by that much keeps its top at the same screen position. A
    /// change to the anchor itself or below it needs no correction. Computed from the structure's
    /// own offsets, so every strategy reports it and all agree. Invalid changes throw and change
    /// nothing.
    public mutating func apply(_ change: RowChange, anchoredAt scrollOffset: Double) throws(RowOffsetsError) -> Double {
        try Self.checkOffset(scrollOffset)
        let anchor = count == 0 ? 0 : try row(at: scrollOffset)
        let anchorTop = offset(of: anchor)
        var newAnchor = anchor
        switch change {
        case .setHeight(let row, let height):
            try setHeight(height, of: row)
        case .insert(let at, let heights):
            try insert(heights: heights, at: at)
            if at <= anchor && count > heights.count { newAnchor = anchor + heights.count }
        case .remove(let at, let removing):
            try remove(at: at, count: removing)
            if at + removing <= anchor { newAnchor = anchor - removing } else if at <= anchor { newAnchor = at }
        }
        newAnchor = Swift.min(newAnchor, count)
        return offset(of: newAnchor) - anchorTop
    }

    /// Applies `change` without anchoring.
    public mutating func apply(_ change: RowChange) throws(RowOffsetsError) {
        switch change {
        case .setHeight(let row, let height): try setHeight(height, of: row)
        case .insert(let at, let heights): try insert(heights: heights, at: at)
        case .remove(let at, let removing): try remove(at: at, count: removing)
        }
    }

    /// The rows that intersect the viewport `[top, top + height)`: the first visible row and the
    /// row after the last visible one (empty for an empty list).
    public func visibleRows(top: Double, height: Double) throws(RowOffsetsError) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let first = try row(at: top)
        var last = try row(at: top + height)
        if last > first, offset(of: last) >= top + height { last -= 1 }
        return first..<(last + 1)
    }
}
