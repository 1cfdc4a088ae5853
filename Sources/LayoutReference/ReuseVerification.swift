import LayoutEngine

extension ReusePool {
    /// Checks the pool after `show(visible, identifiers:)`: every visible row has exactly one cell,
    /// no cell shows two rows, no cell shows under another identifier than its own, and no row
    /// outside the range holds a cell. Returns the first problem, or nil. `seen` is scratch space
    /// (one flag per cell) reused between calls.
    public func firstProblem(visible: Range<Int>, identifiers: [UInt8], seen: inout [Bool]) -> String? {
        let cells = cellIdentifiers
        if seen.count < cells.count { seen.append(contentsOf: repeatElement(false, count: cells.count - seen.count)) }
        defer { for row in visible { if let cell = cell(forRow: row), cell < seen.count { seen[cell] = false } } }
        guard visibleCellCount == visible.count else {
            return "\(visibleCellCount) rows hold a cell; the visible range \(visible) has \(visible.count)"
        }
        for row in visible {
            guard let cell = cell(forRow: row) else { return "visible row \(row) has no cell" }
            guard cell >= 0, cell < cells.count else { return "row \(row) shows cell \(cell), which was never created" }
            guard !seen[cell] else { return "cell \(cell) shows two rows (one of them \(row))" }
            seen[cell] = true
            guard cells[cell] == identifiers[row] else {
                return "row \(row) (identifier \(identifiers[row])) shows cell \(cell), created for identifier \(cells[cell])"
            }
        }
        for row in [visible.lowerBound - 1, visible.upperBound] where row >= 0 && row < identifiers.count {
            if cell(forRow: row) != nil { return "row \(row), outside \(visible), still holds a cell" }
        }
        return nil
    }
}
