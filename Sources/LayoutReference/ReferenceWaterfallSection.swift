import LayoutEngine

/// docs/engine-semantics.md, `waterfall`, with the engine's render directions and full-width items:
///
/// - Columns: `available = regionWidth - (columns - 1) * itemSpacing`; column c is
///   `available / columns` wide (or `available * weight[c] / sum of weights`) and starts after
///   the columns to its left and one `itemSpacing` after each of them.
/// - An item goes to a column chosen by the direction: `shortest-first` the column with the
///   smallest bottom, ties to the leftmost; `left-to-right` column `i mod columns`;
///   `right-to-left` column `columns - 1 - i mod columns` (i = the item's index in its section,
///   full-width items counted). Its top is the column's bottom, plus `lineSpacing` when the
///   column already holds an item; the column's bottom becomes the item's bottom.
/// - A full-width item spans the items region: its top is the tallest column's bottom, plus
///   `lineSpacing` when any item was placed before it in the section; afterwards every column
///   ends at its bottom and counts as holding an item.
/// - The items region ends at the tallest column (its top when the section is empty).
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

        for i in 0..<input.count {
            let height = input.height(i)
            if input.spans(i) {
                var top = columnBottoms.max()!
                if columnHoldsItem.contains(true) { top += lineSpacing }
                frames.append(Rect(x: input.regionLeft, y: top, width: input.regionWidth, height: height))
                for c in 0..<style.columns {
                    columnBottoms[c] = top + height
                    columnHoldsItem[c] = true
                }
                lanes?[i] = spanning
            } else {
                var c = lanes.map { $0[i] } ?? unassigned
                if c == unassigned {
                    c = column(forItem: i, direction: style.direction, columnBottoms: columnBottoms)
                    if style.direction == .shortestFirst, let left = nearTieLeft?(i) {
                        c = nearTie(of: c, towardLeft: left, lefts: lefts, columnBottoms: columnBottoms)
                    }
                    lanes?[i] = c
                }
                var top = columnBottoms[c]
                if columnHoldsItem[c] { top += lineSpacing }
                frames.append(Rect(x: lefts[c], y: top, width: widths[c], height: height))
                columnBottoms[c] = top + height
                columnHoldsItem[c] = true
            }
        }
        return columnBottoms.max()!
    }

    /// The column whose left edge is `left` when its bottom ties with `shortest`'s within the
    /// tolerance; otherwise `shortest`.
    static func nearTie(of shortest: Int, towardLeft left: Double, lefts: [Double], columnBottoms: [Double]) -> Int {
        guard let c = lefts.firstIndex(where: { ReferenceTolerance.equal($0, left) }), c != shortest,
              ReferenceTolerance.equal(columnBottoms[c], columnBottoms[shortest])
        else { return shortest }
        return c
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
