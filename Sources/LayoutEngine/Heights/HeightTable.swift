/// A self-sizing table without UIKit: the data (`TableModel`), the template cells that measure
/// rows (`TemplateRegistry`), one height cache strategy and the table width, kept in step.
///
/// `height(at:)` is `tableView:heightForRowAtIndexPath:` with a height cache: a known height
/// (lpd's item height) wins, then the cache, then a measurement, which is stored.
/// `perform(_:)` applies a batch to the data and the cache at once, or to neither.
/// `layoutChanges(for:)` turns an accepted batch into the `LayoutChange`s that bring a
/// `LayoutUpdater` (a list, or a waterfall through its incremental updater) up to date without a
/// full reload. Every data or width change bumps `generation`, which cancels a `Precache`.
public struct HeightTable<Cache: HeightCache> {
    public private(set) var model: TableModel
    /// The template cells; register more before rows name them.
    public var registry: TemplateRegistry
    @usableFromInline var storage: Cache
    public private(set) var width: Double
    /// Bumped by every batch, width change and reload.
    public private(set) var generation = 0

    /// A table over `model` whose rows are measured by `registry`'s templates at `width`; the
    /// cache is emptied and shaped for the model (consumed, so that a new cache is not copied).
    public init(model: TableModel, registry: TemplateRegistry, cache: consuming Cache, width: Double) {
        cache.removeAll(sectionCounts: model.sections.map(\.count))
        cache.widthChanged(to: width)
        self.model = model
        self.registry = registry
        self.storage = cache
        self.width = width
    }

    public var cache: Cache { storage }

    /// The height of the row at `path`, measured only when neither the item nor the cache knows it.
    @inlinable
    @_specialize(where Cache == NoHeightCache)
    @_specialize(where Cache == FDIndexPathHeightCache)
    @_specialize(where Cache == IndexPathHeightCache)
    @_specialize(where Cache == KeyedHeightCache)
    @_specialize(where Cache == WidthKeyedHeightCache)
    public mutating func height(at path: ItemPath) -> Double {
        let id = model.sections[path.section][path.item].id
        if let known = model.sections[path.section][path.item].knownHeight { return known }
        if let cached = storage.cachedHeight(id: id, at: path) { return cached }
        let item = model.sections[path.section][path.item]
        let height = registry.height(of: item.content, reuseIdentifier: item.reuseIdentifier, width: width)
        storage.store(height, id: id, at: path)
        return height
    }

    /// What a fresh measurement gives for the row at `path` (not counted, cache untouched).
    public func freshHeight(at path: ItemPath) -> Double {
        let item = model[path]
        if let known = item.knownHeight { return known }
        return registry.freshHeight(of: item.content, reuseIdentifier: item.reuseIdentifier, width: width)
    }

    /// Asks every row for its height, in order, as a UITableView without estimated heights does
    /// on `reloadData`; returns the content height.
    @inlinable
    @_specialize(where Cache == NoHeightCache)
    @_specialize(where Cache == FDIndexPathHeightCache)
    @_specialize(where Cache == IndexPathHeightCache)
    @_specialize(where Cache == KeyedHeightCache)
    @_specialize(where Cache == WidthKeyedHeightCache)
    public mutating func fullPass() -> Double {
        var total = 0.0
        for s in 0..<model.sections.count {
            for i in 0..<model.sections[s].count {
                total += height(at: ItemPath(section: s, item: i))
            }
        }
        return total
    }

    /// The rows `paths` asked again, as when they scroll into view; returns the sum of their heights.
    @inlinable
    public mutating func pass(over paths: [ItemPath]) -> Double {
        var total = 0.0
        for path in paths { total += height(at: path) }
        return total
    }

    /// Checks `batch`, then applies it to the data and the cache; throws (changing nothing) when
    /// the batch breaks UIKit's rules or names a reuse identifier this table has not registered.
    @discardableResult
    public mutating func perform(_ batch: BatchUpdate) throws(BatchError) -> BatchPlan {
        let plan = try model.plan(batch)
        for items in plan.sectionItems { try checkIdentifiers(items, batch: batch) }
        try checkIdentifiers(plan.newItems, batch: batch)
        model.apply(plan)
        storage.apply(batch, plan: plan)
        generation += 1
        return plan
    }

    private func checkIdentifiers(_ items: [TableItem], batch: BatchUpdate) throws(BatchError) {
        for item in items where !registry.contains(item.reuseIdentifier) {
            throw BatchError(call: batch.calls.count - 1, "item id \(item.id) names reuse identifier #\(item.reuseIdentifier.index), which is not registered")
        }
    }

    /// Changes the table width; the cache decides what it keeps.
    public mutating func setWidth(_ newWidth: Double) {
        guard newWidth != width else { return }
        width = newWidth
        storage.widthChanged(to: newWidth)
        generation += 1
    }

    /// `reloadData`: the cache forgets everything.
    public mutating func reloadData() {
        storage.removeAll(sectionCounts: model.sections.map(\.count))
        generation += 1
    }

    /// Zeroes the measurement and cell-creation counters.
    public mutating func resetCounters() { registry.resetCounters() }

    /// The changes that bring a layout of the pre-update rows up to date after `plan` was
    /// performed, in UIKit's order: sections removed (descending), sections inserted, moved or
    /// reloaded (ascending, with their rows), then per kept section its rows removed
    /// (descending), inserted (ascending) and reloaded (`reloadItems`, with the new height). Heights come from this table (measured
    /// where the cache has none). Row widths are 0: list and waterfall rows take their width from
    /// the layout.
    public mutating func layoutChanges(for plan: BatchPlan) -> [LayoutChange] {
        var changes: [LayoutChange] = []
        var removedSections: [Int] = []
        var staying = [Bool](repeating: false, count: plan.oldSectionCount)
        for source in plan.newSections { if case .kept(let o) = source { staying[o] = true } }
        for o in 0..<plan.oldSectionCount where !staying[o] { removedSections.append(o) }
        for o in removedSections.reversed() { changes.append(.removeSection(at: o)) }
        for (t, source) in plan.newSections.enumerated() {
            if case .kept = source { continue }
            changes.append(.insertSection(at: t, items: rowSizes(section: t, rows: 0..<model.sections[t].count)))
        }
        for itemChanges in plan.itemChanges {
            let t = itemChanges.newSection
            guard case .kept = plan.newSections[t] else { continue }
            for item in itemChanges.removed.reversed() { changes.append(.removeItems(section: t, at: item, count: 1)) }
            for insert in itemChanges.inserted {
                changes.append(.insertItems(section: t, at: insert.item, items: rowSizes(section: t, rows: insert.item..<(insert.item + 1))))
            }
            for reload in itemChanges.reloaded {
                let item = itemChanges.newIndex(ofSurviving: reload.item)
                changes.append(.reloadItems(section: t, at: item, items: rowSizes(section: t, rows: item..<(item + 1))))
            }
        }
        return changes
    }

    private mutating func rowSizes(section: Int, rows: Range<Int>) -> [ItemSize] {
        rows.map { ItemSize(height: height(at: ItemPath(section: section, item: $0))) }
    }
}

extension HeightTable: UnsharedCopying where Cache: UnsharedCopying {
    /// A copy whose template cells and cache are its own (`UnsharedCopying`): the warm table an
    /// operation that consumes one starts from, copied instead of measured again. The model stays
    /// shared, as the tables built from one model share it: only a batch writes it (copying it then,
    /// as any table's first batch does), and it is most of a table's memory.
    @usableFromInline package func unsharedCopy() -> HeightTable {
        var copy = self
        copy.registry = registry.unsharedCopy()
        copy.storage = storage.unsharedCopy()
        return copy
    }
}
