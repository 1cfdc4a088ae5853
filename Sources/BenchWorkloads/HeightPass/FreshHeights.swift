import LayoutEngine

/// The fresh measurements `height-pass` verification compares every cache against, shared by
/// every mode and operation of one group.
///
/// A fresh measurement (`HeightTable.freshHeight(at:)`: a new solver for a constraint template,
/// the row's text shaped and broken again) depends on the row — its content, template and known
/// height — and the width alone, not on the cache being checked nor on the operation that brought
/// the table there; the registry's templates are the fixture's, the same for every table. So a
/// row is measured once per group and width, and the check of each cache after each step compares
/// its heights with that measurement, where each mode's operation used to measure every row
/// afresh for itself (four caches, eight operations: the same rows thirty-two times over). A row
/// changed by a batch (another content under its id) is another row: both versions are kept, since
/// every mode's trace starts again from the fixture's rows.
final class FreshHeights {
    private struct Key: Hashable {
        var item: TableItem
        var width: UInt64
    }

    private var known: [Key: Double] = [:]
    /// Fresh measurements taken so far (the tests hold a second verification of every mode to none).
    private(set) var measured = 0

    /// The fresh height of the row at `path` of `table` at the table's width, measured the first
    /// time this row (as it is now) is asked for at that width.
    func height<Cache: HeightCache>(at path: ItemPath, in table: HeightTable<Cache>) -> Double {
        let item = table.model[path]
        let key = Key(item: item, width: table.width.bitPattern)
        if let height = known[key] { return height }
        let height = table.freshHeight(at: path)
        measured += 1
        known[key] = height
        return height
    }

    /// Records `height` as the fresh measurement of `item` at `width` (one the fixture took anyway,
    /// by the same `freshHeight` path).
    func record(_ item: TableItem, width: Double, height: Double) {
        known[Key(item: item, width: width.bitPattern)] = height
    }
}
