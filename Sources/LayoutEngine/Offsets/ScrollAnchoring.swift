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
    /// scroll offset (TanStack Virtual's rule: `scrollTop += Δ` for a change to an item that starts
    /// above the viewport top).
    ///
    /// The anchor is the first row that starts at or below `scrollOffset` (the end of the content if
    /// none does). A change above it — a measurement of a row that starts above the viewport top
    /// (the partly visible top row included), an insert at or before it, a removal before it — moves it by the returned
    /// correction; scrolling by that much keeps it, and everything below it, at the same screen
    /// position. A change at or below the anchor needs no correction. Computed from the structure's
    /// own offsets, so every strategy reports it and all agree. Invalid changes throw and change
    /// nothing.
    public mutating func apply(_ change: RowChange, anchoredAt scrollOffset: Double) throws(RowOffsetsError) -> Double {
        try Self.checkOffset(scrollOffset)
        let oldCount = count
        var anchor = 0
        if count > 0 {
            anchor = try row(at: scrollOffset)
            if offset(of: anchor) < scrollOffset { anchor += 1 }
        }
        let anchorTop = offset(of: anchor)
        var newAnchor = anchor
        switch change {
        case .setHeight(let row, let height):
            try setHeight(height, of: row)
        case .insert(let at, let heights):
            try insert(heights: heights, at: at)
            // Rows inserted at the anchor go above it; rows appended after the last row do not.
            if at < anchor || (at == anchor && anchor < oldCount) { newAnchor = anchor + heights.count }
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
