import LayoutEngine

/// docs/engine-semantics.md, `flow`: CSS flexbox rows with `flex-wrap: wrap`, written out rule by rule.
///
/// 1. Rows are filled greedily in order. A row's `used` width is the sum of its items' widths and
///    of the `itemSpacing` between them. An item opens a new row when the row is not empty and
///    `used + itemSpacing + width > regionWidth` (an exact fit stays; the first item of a row is
///    always accepted).
/// 2. A row is as tall as its tallest item; rows are `lineSpacing` apart.
/// 3. `justify` turns the row's free space `regionWidth - used` into a lead before the first item
///    and an extra gap between items (see `lead(justify:free:count:)`); when `free < 0` the space-*
///    values act as `start`, `center` and `end` keep their formula.
/// 4. `align` moves an item down within its row: start 0, center half, end all of the difference
///    between the row's height and the item's.
enum ReferenceFlowSection {
    /// One row: the section indices of its items, its used width and its height.
    struct Row {
        var items: Range<Int>
        var used: Double
        var height: Double
    }

    /// Rule 1 and 2: the rows of the section.
    static func rows(_ input: ReferenceSectionInput) -> [Row] {
        let spacing = input.style.itemSpacing
        var rows: [Row] = []
        var i = 0
        while i < input.count {
            var row = Row(items: i..<(i + 1), used: input.width(i), height: input.height(i))
            var next = i + 1
            while next < input.count {
                let width = input.width(next)
                if row.used + spacing + width > input.regionWidth { break }
                row.used += spacing + width
                row.height = max(row.height, input.height(next))
                next += 1
            }
            row.items = i..<next
            rows.append(row)
            i = next
        }
        return rows
    }

    /// Rule 3: the space before the first item and the extra space between two items.
    static func lead(justify: Justify, free: Double, count: Int) -> (lead: Double, extraGap: Double) {
        let n = Double(count)
        switch justify {
        case .start:
            return (0, 0)
        case .center:
            return (free / 2, 0)
        case .end:
            return (free, 0)
        case .spaceBetween:
            if free < 0 || count == 1 { return (0, 0) }
            return (0, free / (n - 1))
        case .spaceAround:
            if free < 0 { return (0, 0) }
            return (free / (2 * n), free / n)
        case .spaceEvenly:
            if free < 0 { return (0, 0) }
            return (free / (n + 1), free / (n + 1))
        }
    }

    /// Appends the section-relative frame of every item to `frames`; returns the bottom of the
    /// items region (its top when the section is empty).
    static func place(_ input: ReferenceSectionInput, justify: Justify, align: Align, into frames: inout [Rect]) -> Double {
        let rows = rows(input)
        var rowTop = input.regionTop
        for (rowIndex, row) in rows.enumerated() {
            let (lead, extraGap) = lead(justify: justify, free: input.regionWidth - row.used, count: row.items.count)
            let gap = input.style.itemSpacing + extraGap
            var x = input.regionLeft + lead
            for i in row.items {
                let width = input.width(i), height = input.height(i)
                let drop: Double
                switch align {
                case .start: drop = 0
                case .center: drop = (row.height - height) / 2
                case .end: drop = row.height - height
                }
                frames.append(Rect(x: x, y: rowTop + drop, width: width, height: height))
                x += width + gap
            }
            // The next row starts one row height plus one line spacing below this one.
            let isLastRow = rowIndex == rows.count - 1
            rowTop += row.height + (isLastRow ? 0 : input.style.lineSpacing)
        }
        return rowTop
    }
}
