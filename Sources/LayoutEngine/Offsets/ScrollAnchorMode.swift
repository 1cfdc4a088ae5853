/// How a list keeps (or fails to keep) what the user sees when estimated heights are replaced by
/// measured ones, rows are inserted or removed, or the width changes (the `offsets` workload's
/// `anchor` key, docs/modes.md). Each reproduces one shipping toolkit's rule; the engine computes
/// the scroll correction the rule applies, `LayoutReference.ScrollAnchorReference` the same from
/// its own plain model.
public enum ScrollAnchorMode: String, CaseIterable, Sendable, Codable {
    /// UITableView with `estimatedRowHeight` and no correction: the content offset never moves, so
    /// every height change above the viewport top shifts the visible rows.
    case none
    /// The first row that starts at or below the viewport top keeps its screen position through
    /// every change (measurements, inserts, removals, a width change): the correction is how far
    /// that row moved in the content.
    case exact
    /// TanStack Virtual's `resizeItem` default predicate (`anchorTo: "start"`): a first
    /// measurement of a row that starts above the scroll offset adds its delta to the offset; a
    /// re-measurement does only for a row entirely above it and never while scrolling backward;
    /// inserts and removals move nothing (count changes keep `scrollTop`).
    case tanstack
    /// Flutter's `RenderSliverList`: children are laid out next to the first laid-out child
    /// (viewport plus the 250 pt cache extent), so a child laid out above it corrects the scroll
    /// offset (`scrollOffsetCorrection`), a child at or below it does not, edits keep the pixel
    /// offset (index-based children), and the scroll extent is extrapolated from the laid-out
    /// children (`estimateMaxScrollOffset`: trailing edge + their average extent × the rows left).
    case flutter

    /// Flutter's default cache extent (`RenderAbstractViewport.defaultCacheExtent`): children are
    /// laid out this far above and below the viewport.
    public static let flutterCacheExtent = 250.0
}

/// What a rule needs to know of the moment of a change besides the rows: whether the row was
/// measured before (TanStack keeps sizes by key), the direction of the last scroll, and Flutter's
/// first laid-out child.
public struct ScrollAnchorContext: Hashable, Sendable {
    /// The change re-measures a row that has a measurement already (TanStack's `itemSizeCache`
    /// holds its key).
    public var isRemeasurement: Bool
    /// The last scroll moved toward the top (TanStack's `scrollDirection == "backward"`).
    public var scrollingBackward: Bool
    /// Flutter: the index of the first laid-out child when the change is made.
    public var firstLaidOut: Int

    public init(isRemeasurement: Bool = false, scrollingBackward: Bool = false, firstLaidOut: Int = 0) {
        self.isRemeasurement = isRemeasurement
        self.scrollingBackward = scrollingBackward
        self.firstLaidOut = firstLaidOut
    }
}

extension RowOffsets {
    /// Applies `change` and returns the scroll correction `mode` applies for it (0 when the rule
    /// leaves the offset alone). `.exact` is `apply(_:anchoredAt:)`. Invalid changes throw and
    /// change nothing.
    public mutating func apply(_ change: RowChange, anchoredAt scrollOffset: Double, mode: ScrollAnchorMode,
                               context: ScrollAnchorContext) throws(RowOffsetsError) -> Double {
        switch mode {
        case .exact:
            return try apply(change, anchoredAt: scrollOffset)
        case .none:
            try Self.checkOffset(scrollOffset)
            try apply(change)
            return 0
        case .tanstack:
            try Self.checkOffset(scrollOffset)
            guard case .setHeight(let row, let height) = change else {
                try apply(change)
                return 0
            }
            try Self.checkRow(row, count: count)
            let start = offset(of: row), old = self.height(of: row)
            try setHeight(height, of: row)
            let adjusts = context.isRemeasurement
                ? start + old <= scrollOffset && !context.scrollingBackward
                : start < scrollOffset
            return adjusts ? height - old : 0
        case .flutter:
            try Self.checkOffset(scrollOffset)
            guard case .setHeight(let row, let height) = change else {
                try apply(change)
                return 0
            }
            try Self.checkRow(row, count: count)
            let old = self.height(of: row)
            try setHeight(height, of: row)
            return row < context.firstLaidOut ? height - old : 0
        }
    }

    /// Flutter's scroll extent for the laid-out children `laidOut` (`SliverChildBuilderDelegate`'s
    /// `estimateMaxScrollOffset`): the exact end when the last row is laid out, otherwise the
    /// trailing edge plus the children's average extent times the rows after them. The content
    /// height for an empty range or list.
    public func flutterEstimatedContentHeight(laidOut: Range<Int>) -> Double {
        guard !laidOut.isEmpty, laidOut.upperBound < count else { return contentHeight }
        let leading = offset(of: laidOut.lowerBound), trailing = offset(of: laidOut.upperBound)
        let average = (trailing - leading) / Double(laidOut.count)
        return trailing + average * Double(count - laidOut.upperBound)
    }
}
