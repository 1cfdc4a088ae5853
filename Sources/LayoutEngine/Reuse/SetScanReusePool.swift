/// `set-scan`: DZTableView's reuse, faithfully. The visible cells are a dictionary from row to
/// cell (`_visibleCellsMap`); every frame `cleanUnusedCellsWithDispalyRange:` walks a copy of it and
/// moves the cells of rows outside the range into one unbounded pool (`_cacheCells`, an
/// `NSMutableSet`); `dequeueDZTalbeViewCellForIdentifiy:` scans that pool for the first cell whose
/// identifier matches, O(pool). Identifiers are compared as integers here, not as strings.
public struct SetScanReusePool: ReusePool {
    private var visibleCells: [Int: Int32] = [:]
    /// The pool; a removal swaps the last cell into the hole, like a set (order does not matter).
    private var pool: [Int32] = []
    public private(set) var cellIdentifiers: [UInt8] = []
    public private(set) var statistics = ReuseStatistics()

    public init() {}

    public mutating func show(_ visible: Range<Int>, identifiers: [UInt8]) {
        // cleanUnusedCellsWithDispalyRange: iterate a copy of the map, enqueue what is off screen.
        let snapshot = visibleCells
        for (row, cell) in snapshot where !visible.contains(row) {
            pool.append(cell)
            visibleCells[row] = nil
        }
        if pool.count > statistics.peakPoolSize { statistics.peakPoolSize = pool.count }
        for row in visible where visibleCells[row] == nil {
            visibleCells[row] = dequeue(identifier: identifiers[row])
        }
    }

    private mutating func dequeue(identifier: UInt8) -> Int32 {
        statistics.dequeues += 1
        for i in pool.indices where cellIdentifiers[Int(pool[i])] == identifier {
            let cell = pool[i]
            pool.swapAt(i, pool.count - 1)
            pool.removeLast()
            return cell
        }
        statistics.cellsCreated += 1
        cellIdentifiers.append(identifier)
        return Int32(cellIdentifiers.count - 1)
    }

    public func cell(forRow row: Int) -> Int? { visibleCells[row].map(Int.init) }
    public var visibleCellCount: Int { visibleCells.count }
}
