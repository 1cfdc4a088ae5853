/// `keyed`: heights by stable item id (FDTemplateLayoutCell's `cacheByKey:`, lpd-tableview-kit's
/// height in the item view model), so inserts, deletes and moves cost nothing but forgetting the
/// ids that left or were reloaded: a batch is O(changes). A width change forgets everything.
public struct KeyedHeightCache: HeightCache, UnsharedCopying {
    private var table: IDHeightTable

    public init(expectedItems: Int = 0) { table = IDHeightTable(columns: 1, capacity: expectedItems) }

    @usableFromInline package func unsharedCopy() -> KeyedHeightCache {
        var copy = self
        copy.table = table.unsharedCopy()
        return copy
    }

    public mutating func cachedHeight(id: Int, at path: ItemPath) -> Double? {
        let height = table.height(of: id, column: 0)
        return height.isNaN ? nil : height
    }

    public func peekHeight(id: Int, at path: ItemPath) -> Double? {
        let height = table.height(of: id, column: 0)
        return height.isNaN ? nil : height
    }

    public mutating func store(_ height: Double, id: Int, at path: ItemPath) {
        table.setHeight(height, of: id, column: 0)
    }

    public mutating func apply(_ batch: BatchUpdate, plan: BatchPlan) {
        table.remove(contentsOf: plan.removedIDs)
        table.remove(contentsOf: plan.reloadedIDs)
    }

    public mutating func widthChanged(to width: Double) { table.removeAll() }

    public mutating func removeAll(sectionCounts: [Int]) { table.removeAll() }
}

/// `width-keyed`: heights by item id and available width (Listable's `SizeKey`): the last
/// `widthSlots` widths each keep a column of heights, so a width change measures again and a
/// return to an earlier width (rotating back, closing split screen) finds its heights. A fifth
/// width evicts the least recently used one (O(capacity)). A batch is O(changes).
public struct WidthKeyedHeightCache: HeightCache, UnsharedCopying {
    public static let widthSlots = 4
    private var table: IDHeightTable
    private var widths: [Double] = []
    private var lastUse: [Int] = []
    private var clock = 0
    private var column = 0

    public init(expectedItems: Int = 0) {
        table = IDHeightTable(columns: Self.widthSlots, capacity: expectedItems)
    }

    @usableFromInline package func unsharedCopy() -> WidthKeyedHeightCache {
        var copy = self
        copy.table = table.unsharedCopy()
        copy.widths = widths.unsharedCopy()
        copy.lastUse = lastUse.unsharedCopy()
        return copy
    }

    public mutating func cachedHeight(id: Int, at path: ItemPath) -> Double? {
        let height = table.height(of: id, column: column)
        return height.isNaN ? nil : height
    }

    public func peekHeight(id: Int, at path: ItemPath) -> Double? {
        let height = table.height(of: id, column: column)
        return height.isNaN ? nil : height
    }

    public mutating func store(_ height: Double, id: Int, at path: ItemPath) {
        table.setHeight(height, of: id, column: column)
    }

    public mutating func apply(_ batch: BatchUpdate, plan: BatchPlan) {
        table.remove(contentsOf: plan.removedIDs)
        table.remove(contentsOf: plan.reloadedIDs)
    }

    public mutating func widthChanged(to width: Double) {
        clock += 1
        if let c = widths.firstIndex(of: width) {
            column = c
        } else if widths.count < Self.widthSlots {
            column = widths.count
            widths.append(width)
            lastUse.append(0)
        } else {
            column = lastUse.indices.min { lastUse[$0] < lastUse[$1] }!
            widths[column] = width
            table.clear(column: column)
        }
        lastUse[column] = clock
    }

    public mutating func removeAll(sectionCounts: [Int]) {
        table.removeAll()
    }
}
