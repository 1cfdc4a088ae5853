import LayoutEngine

/// The plain model the scroll-anchoring rules (`ScrollAnchorMode`) are checked against: rows with
/// heights, their starts as plain prefix sums, and a scroll offset. Each rule is
/// written here from its toolkit's description, as a decision about one change, and the change's
/// effect on what the user sees is measured on the row at the top of the viewport (the first that
/// starts at or below the scroll offset) before the change, followed through it (a removed one's
/// place is taken by the row after the removed block).
/// Shares nothing with the engine's anchoring code.
public struct ScrollAnchorReference {
    public let mode: ScrollAnchorMode
    /// Heights and their prefix sums.
    public private(set) var rows: PrefixSumReference
    /// The scroll offset (the content y at the viewport top).
    public var scroll = 0.0

    public init(heights: [Double], mode: ScrollAnchorMode) throws(RowOffsetsError) {
        rows = try PrefixSumReference(heights: heights)
        self.mode = mode
    }

    /// What one change did: the correction the rule added to the scroll offset, and how far the
    /// row at the top of the viewport moved on screen (positive: down).
    public struct Step: Equatable, Sendable {
        public var correction: Double
        public var screenMove: Double

        public init(correction: Double, screenMove: Double) {
            self.correction = correction
            self.screenMove = screenMove
        }
    }

    /// The first row whose start is at or below `y` (`count` when none is: the end of the content).
    /// Rows of height 0 that start exactly at `y` are passed over: the row the user sees at the
    /// top is the one below them (the last row, if they end the content).
    func firstRow(startingAtOrBelow y: Double) -> Int {
        let starts = rows.allOffsets
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < y { low = middle + 1 } else { high = middle }
        }
        if low < rows.count, starts[low] == y {
            while low + 1 < rows.count, rows.height(of: low) == 0 { low += 1 }
        }
        return low
    }

    /// Applies `change` under the rule, moves `scroll` by the correction, and reports the step.
    public mutating func apply(_ change: RowChange, context: ScrollAnchorContext) throws(RowOffsetsError) -> Step {
        guard !scroll.isNaN else { throw RowOffsetsError.offsetIsNaN }
        let oldCount = rows.count
        let top = firstRow(startingAtOrBelow: scroll)
        let topScreen = rows.offset(of: top) - scroll
        var correction = 0.0
        // Where the top row is after the change: the same identity, or (removed) the row that
        // followed the removed block; the end of the content stays the end.
        var topAfter = top
        switch change {
        case .setHeight(let row, let height):
            try Self.check(row: row, count: oldCount)
            let start = rows.offset(of: row), old = rows.height(of: row)
            try rows.setHeight(height, of: row)
            let delta = height - old
            switch mode {
            case .none: correction = 0
            case .exact: correction = row < top ? delta : 0
            case .tanstack:
                // First measurement: the row begins above the offset. Re-measurement: the row ends
                // at or above it, and the user is not scrolling up.
                if context.isRemeasurement {
                    correction = (start + old <= scroll && !context.scrollingBackward) ? delta : 0
                } else {
                    correction = start < scroll ? delta : 0
                }
            case .flutter: correction = row < context.firstLaidOut ? delta : 0
            }
        case .insert(let at, let heights):
            try rows.insert(heights: heights, at: at)
            // Rows inserted at the top row go above it; rows appended after the last one go below
            // the end of the old content.
            if top == oldCount { topAfter = at == oldCount ? oldCount : rows.count } else if at <= top { topAfter = top + heights.count }
            if mode == .exact { correction = rows.offset(of: topAfter) - (topScreen + scroll) }
        case .remove(let at, let count):
            try rows.remove(at: at, count: count)
            if top == oldCount { topAfter = rows.count } else if at + count <= top { topAfter = top - count } else if at <= top { topAfter = at }
            if mode == .exact { correction = rows.offset(of: topAfter) - (topScreen + scroll) }
        }
        scroll += correction
        return Step(correction: correction, screenMove: rows.offset(of: topAfter) - scroll - topScreen)
    }

    /// The content height the scroll bar shows: every row's height summed, or for Flutter its
    /// extrapolation from the laid-out rows `laidOut` (the exact end once the last row is laid out).
    public func shownContentHeight(laidOut: Range<Int>) -> Double {
        guard mode == .flutter, !laidOut.isEmpty, laidOut.upperBound < rows.count else { return rows.contentHeight }
        var extent = 0.0
        for row in laidOut { extent += rows.height(of: row) }
        let trailing = rows.offset(of: laidOut.upperBound)
        return trailing + extent / Double(laidOut.count) * Double(rows.count - laidOut.upperBound)
    }

    private static func check(row: Int, count: Int) throws(RowOffsetsError) {
        guard row >= 0, row < count else { throw RowOffsetsError.rowOutOfRange(row, count: count) }
    }
}
