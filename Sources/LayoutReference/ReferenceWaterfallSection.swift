import LayoutEngine

/// docs/engine-semantics.md, `waterfall`, with the engine's render directions and full-width items:
///
/// - Columns: `available = regionWidth - (columns - 1) * itemSpacing`; column c is
///   `available / columns` wide (or `available * weight[c] / sum of weights`) and starts after
///   the columns to its left and one `itemSpacing` after each of them.
/// - An item goes to a column chosen by the direction: `shortest-first` by the placement rule
///   (below); `left-to-right` column `i mod columns`;
///   `right-to-left` column `columns - 1 - i mod columns` (i = the item's index in its section,
///   full-width items counted). Its top is the column's bottom, plus `lineSpacing` when the
///   column already holds an item; the column's bottom becomes the item's bottom.
/// - A full-width item spans the items region: its top is the tallest column's bottom, plus
///   `lineSpacing` when any item was placed before it in the section; afterwards every column
///   ends at its bottom and counts as holding an item.
/// - The items region ends at the tallest column (its top when the section is empty).
/// - The placement rules of `shortest-first`:
///   - `leftmost`: the column with the smallest bottom; of equal ones, the leftmost.
///   - `last-index` (TanStack Virtual, `getFurthestMeasurement`: sort the lanes by end, then by
///     the index of their furthest item): the smallest bottom; of equal ones, the column whose
///     last item has the smaller section index, a column without items counting as -1 and a
///     full-width item as the last item of every column; of those, the leftmost.
///   - `grid-lanes` (css-grid-3, the grid-lanes layout algorithm, with `flow-tolerance`): every
///     column has a running position, where its next item starts (its bottom, plus `lineSpacing`
///     once it holds an item). The possible columns are those whose running position is at most
///     the smallest running position plus the tolerance. The item takes the first possible
///     column at or after the auto-placement cursor, or if there is none, the first possible
///     column; then the cursor moves to the line after the item (its column + 1; after a
///     full-width item, which spans every track, past the last column, so the next item wraps).
/// - Item widths from the data are ignored: an item is as wide as its column.
///
/// With remembered lanes (the `stable-lanes` rule), an item that has a lane goes to that column
/// whatever the direction says; one without a lane gets the direction's column and keeps it.
///
/// With `nearTieLeft` (the left edge another layout gave item i, or nil), a shortest-first choice
/// between columns whose bottoms are equal within `ReferenceTolerance` takes the column that
/// layout took: which of two such columns is "shortest", or whether they tie at all, depends on
/// how the sums were rounded, and a layout that adds the same heights in another order (a suffix
/// shifted by δ) may see it the other way. Every coordinate is still this reference's own. Only
/// checks of arbitrary (non-dyadic) inputs use it: with dyadic ones every sum is exact and the
/// leftmost rule must hold.
enum ReferenceWaterfallSection {
    /// The lane of an item that has none yet.
    static let unassigned = -2
    /// The lane of a full-width item.
    static let spanning = -1

    /// Left edges and widths of the columns.
    static func columns(_ input: ReferenceSectionInput, style: WaterfallStyle) -> (lefts: [Double], widths: [Double]) {
        let spacing = input.style.itemSpacing
        let available = input.regionWidth - Double(style.columns - 1) * spacing
        var lefts: [Double] = [], widths: [Double] = []
        if let weights = style.weights {
            var total = 0.0
            for weight in weights { total += weight }
            var left = input.regionLeft
            for weight in weights {
                let width = available * weight / total
                lefts.append(left)
                widths.append(width)
                left += width + spacing
            }
        } else {
            let width = available / Double(style.columns)
            for c in 0..<style.columns {
                lefts.append(input.regionLeft + Double(c) * (width + spacing))
                widths.append(width)
            }
        }
        return (lefts, widths)
    }

    /// Appends the section-relative frame of every item to `frames`; returns the bottom of the
    /// items region (its top when the section is empty).
    static func place(
        _ input: ReferenceSectionInput, style: WaterfallStyle, lanes: inout [Int]?,
        nearTieLeft: ((Int) -> Double?)? = nil, into frames: inout [Rect]
    ) -> Double {
        let (lefts, widths) = columns(input, style: style)
        let lineSpacing = input.style.lineSpacing
        var columnBottoms = [Double](repeating: input.regionTop, count: style.columns)
        var columnHoldsItem = [Bool](repeating: false, count: style.columns)
        // For the placement rules: each column's last item (nil: none yet), the cursor.
        var lastItem = [Int?](repeating: nil, count: style.columns)
        var cursor = 0

        for i in 0..<input.count {
            let height = input.height(i)
            if input.spans(i) {
                var top = columnBottoms.max()!
                if columnHoldsItem.contains(true) { top += lineSpacing }
                frames.append(Rect(x: input.regionLeft, y: top, width: input.regionWidth, height: height))
                for c in 0..<style.columns {
                    columnBottoms[c] = top + height
                    columnHoldsItem[c] = true
                    lastItem[c] = i
                }
                cursor = style.columns
                lanes?[i] = spanning
            } else {
                var c = lanes.map { $0[i] } ?? unassigned
                if c == unassigned {
                    if style.direction == .shortestFirst {
                        c = column(
                            placement: style.placement, columnBottoms: columnBottoms, holdsItem: columnHoldsItem,
                            lastItem: lastItem, cursor: cursor, lineSpacing: lineSpacing)
                        if let left = nearTieLeft?(i) {
                            c = nearTie(
                                of: c, towardLeft: left, lefts: lefts, placement: style.placement,
                                columnBottoms: columnBottoms, holdsItem: columnHoldsItem, lastItem: lastItem,
                                cursor: cursor, lineSpacing: lineSpacing)
                        }
                    } else {
                        c = column(forItem: i, direction: style.direction, columnBottoms: columnBottoms)
                    }
                    lanes?[i] = c
                }
                lastItem[c] = i
                cursor = c + 1
                var top = columnBottoms[c]
                if columnHoldsItem[c] { top += lineSpacing }
                frames.append(Rect(x: lefts[c], y: top, width: widths[c], height: height))
                columnBottoms[c] = top + height
                columnHoldsItem[c] = true
            }
        }
        return columnBottoms.max()!
    }

    /// The column whose left edge is `left` when it would be chosen had sums within the tolerance
    /// been rounded the other way; otherwise `chosen`. For `leftmost` and `last-index`: its bottom
    /// ties with `chosen`'s within the tolerance. For `grid-lanes`: it is the choice when every
    /// running position within the tolerance of another (or of the limit) is taken as equal to it.
    static func nearTie(
        of chosen: Int, towardLeft left: Double, lefts: [Double], placement: WaterfallPlacementRule,
        columnBottoms: [Double], holdsItem: [Bool], lastItem: [Int?], cursor: Int, lineSpacing: Double
    ) -> Int {
        guard let c = lefts.firstIndex(where: { ReferenceTolerance.equal($0, left) }), c != chosen else { return chosen }
        switch placement {
        case .leftmost, .lastIndex:
            return ReferenceTolerance.equal(columnBottoms[c], columnBottoms[chosen]) ? c : chosen
        case .gridLanes(let tolerance):
            let positions = runningPositions(columnBottoms, holdsItem: holdsItem, lineSpacing: lineSpacing)
            let limit = positions.min()! + tolerance
            func possible(_ k: Int) -> Bool {
                positions[k] <= limit || ReferenceTolerance.equal(positions[k], limit)
            }
            // c must be possible (up to rounding), and every column the cursor reaches before it
            // must be impossible but for rounding.
            guard possible(c) else { return chosen }
            let columns = columnBottoms.count
            var k = cursor < columns && (cursor..<columns).contains(where: possible) ? cursor : 0
            while k != c {
                if positions[k] <= limit && !ReferenceTolerance.equal(positions[k], limit) { return chosen }
                k = (k + 1) % columns
            }
            return c
        }
    }

    /// Each column's running position (css-grid-3): where its next item starts.
    static func runningPositions(_ columnBottoms: [Double], holdsItem: [Bool], lineSpacing: Double) -> [Double] {
        var positions: [Double] = []
        for c in 0..<columnBottoms.count {
            positions.append(holdsItem[c] ? columnBottoms[c] + lineSpacing : columnBottoms[c])
        }
        return positions
    }

    /// The column a `shortest-first` item goes to under `placement`.
    static func column(
        placement: WaterfallPlacementRule, columnBottoms: [Double], holdsItem: [Bool], lastItem: [Int?], cursor: Int,
        lineSpacing: Double
    ) -> Int {
        let columns = columnBottoms.count
        switch placement {
        case .leftmost:
            return column(forItem: 0, direction: .shortestFirst, columnBottoms: columnBottoms)
        case .lastIndex:
            // Sort the columns by (bottom, index of the last item, column); take the first.
            let sorted = (0..<columns).sorted { a, b in
                if columnBottoms[a] != columnBottoms[b] { return columnBottoms[a] < columnBottoms[b] }
                let lastA = lastItem[a] ?? -1, lastB = lastItem[b] ?? -1
                if lastA != lastB { return lastA < lastB }
                return a < b
            }
            return sorted[0]
        case .gridLanes(let tolerance):
            let positions = runningPositions(columnBottoms, holdsItem: holdsItem, lineSpacing: lineSpacing)
            let smallest = positions.min()!
            let possible = (0..<columns).filter { positions[$0] <= smallest + tolerance }
            return possible.first(where: { $0 >= cursor }) ?? possible[0]
        }
    }

    /// The column of the item at section index `i`.
    static func column(forItem i: Int, direction: RenderDirection, columnBottoms: [Double]) -> Int {
        let columns = columnBottoms.count
        switch direction {
        case .shortestFirst:
            var shortest = 0
            for c in 0..<columns where columnBottoms[c] < columnBottoms[shortest] {
                shortest = c  // strictly shorter: a tie keeps the column further left
            }
            return shortest
        case .leftToRight:
            return i % columns
        case .rightToLeft:
            return columns - 1 - i % columns
        }
    }
}
