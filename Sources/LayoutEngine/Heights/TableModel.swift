/// A table's data as view models, in the spirit of lpd-tableview-kit: sections of item models,
/// each with a stable id, a reuse identifier, its content and optionally a known height.
///
/// Changes go through batches: build one with `insert`/`remove`/`replace`/`move` (which resolve
/// ids to pre-update index paths) or by hand, then `perform` it — it is checked first and either
/// applied whole or refused with one `BatchError`, leaving the model as it was.
///
/// `path(of:)` finds an item by id in O(1): a dictionary from id to index path whose entries
/// are exact for the sections before the first one a batch changed; the first lookup after a
/// batch that lands in a changed section re-indexes from that section once. lpd-tableview-kit's
/// `indexPathForCellViewModel:` scans every row on every call.
public struct TableModel: Sendable {
    public private(set) var sections: [[TableItem]]
    /// Every id in the table; the paths of sections from `staleFromSection` on may be out of date.
    private var pathByID: [Int: ItemPath] = [:]
    private var staleFromSection = 0

    /// A model holding `sections`; throws when two items share an id.
    public init(sections: [[TableItem]]) throws(BatchError) {
        self.sections = sections
        pathByID.reserveCapacity(sections.reduce(0) { $0 + $1.count })
        for (s, items) in sections.enumerated() {
            for (i, item) in items.enumerated() {
                if let other = pathByID.updateValue(ItemPath(section: s, item: i), forKey: item.id) {
                    throw BatchError(call: 0, "duplicate item id \(item.id) at \(other) and \(ItemPath(section: s, item: i))")
                }
            }
        }
        staleFromSection = sections.count
    }

    public var sectionCount: Int { sections.count }
    public var itemCount: Int { pathByID.count }
    public func itemCount(inSection section: Int) -> Int { sections[section].count }

    @inlinable
    public subscript(path: ItemPath) -> TableItem { sections[path.section][path.item] }

    public func contains(id: Int) -> Bool { pathByID[id] != nil }

    /// The index path of the item with this id, or nil. O(1) amortised (see the type's notes).
    public mutating func path(of id: Int) -> ItemPath? {
        guard let path = pathByID[id] else { return nil }
        if path.section < staleFromSection { return path }
        for s in staleFromSection..<sections.count {
            for (i, item) in sections[s].enumerated() { pathByID[item.id] = ItemPath(section: s, item: i) }
        }
        staleFromSection = sections.count
        return pathByID[id]
    }

    // MARK: Building batches by id

    /// Adds an insert of `item` at post-update path `path` to `batch`.
    public func insert(_ item: TableItem, at path: ItemPath, in batch: inout BatchUpdate) {
        batch.insertItem(item, at: path)
    }

    /// Adds a delete of the item with id `id` to `batch`.
    public mutating func remove(id: Int, in batch: inout BatchUpdate) throws(BatchError) {
        batch.deleteItems([try existingPath(of: id, call: batch.calls.count)])
    }

    /// Adds a reload of the item with id `id`, which gets `content` (and `knownHeight`).
    public mutating func replace(
        id: Int, with content: RowContent, reuseIdentifier: ReuseIdentifier? = nil, knownHeight: Double? = nil,
        in batch: inout BatchUpdate
    ) throws(BatchError) {
        let path = try existingPath(of: id, call: batch.calls.count)
        var item = self[path]
        item.content = content
        if let reuseIdentifier { item.reuseIdentifier = reuseIdentifier }
        item.knownHeight = knownHeight
        batch.reloadItem(at: path, with: item)
    }

    /// Adds a move of the item with id `id` to post-update path `path`.
    public mutating func move(id: Int, to path: ItemPath, in batch: inout BatchUpdate) throws(BatchError) {
        batch.moveItem(from: try existingPath(of: id, call: batch.calls.count), to: path)
    }

    private mutating func existingPath(of id: Int, call: Int) throws(BatchError) -> ItemPath {
        guard let path = path(of: id) else { throw BatchError(call: call, "no item has id \(id)") }
        return path
    }

    // MARK: Performing batches

    /// Checks `batch` and applies it whole, or throws and changes nothing.
    @discardableResult
    public mutating func perform(_ batch: BatchUpdate) throws(BatchError) -> BatchPlan {
        let plan = try plan(batch)
        apply(plan)
        return plan
    }

    /// Applies a plan made by `plan(_:)` from this model's current state.
    public mutating func apply(_ plan: BatchPlan) {
        for id in plan.removedIDs { pathByID[id] = nil }
        plan.apply(
            to: &sections,
            section: { plan.sectionItems[$0] }, item: { plan.newItems[$0] }, reload: { $0 = plan.newItems[$1] })
        // New ids get a placeholder path in a changed section, so the next lookup re-indexes.
        let placeholder = ItemPath(section: plan.firstChangedSection, item: 0)
        for items in plan.sectionItems { for item in items { pathByID[item.id] = placeholder } }
        for changes in plan.itemChanges {
            for insert in changes.inserted { if case .new(let p) = insert.source { pathByID[plan.newItems[p].id] = placeholder } }
        }
        staleFromSection = min(staleFromSection, plan.firstChangedSection)
    }

    /// Checks `batch` against this model with UIKit's rules and orders it, or throws the first
    /// problem: a section or item that does not exist, an insert past the end, a position named
    /// twice, an item changed in a section the batch deletes or reloads, a move onto itself, a
    /// reload that changes an id, a duplicate id.
    public mutating func plan(_ batch: BatchUpdate) throws(BatchError) -> BatchPlan {
        let oldCount = sections.count
        var plan = BatchPlan(oldSectionCount: oldCount)
        // Roles of old sections: 0 kept, 1 deleted, 2 reloaded, 3 moved.
        var role = [UInt8](repeating: 0, count: oldCount)
        var placed: [(index: Int, source: BatchPlan.SectionSource, call: Int)] = []
        var deletedSections = 0, insertedSections = 0
        func claim(_ s: Int, _ newRole: UInt8, _ call: Int, _ verb: String) throws(BatchError) {
            guard s >= 0, s < oldCount else {
                throw BatchError(call: call, "\(verb) section \(s), but there are \(oldCount) sections before the update")
            }
            guard role[s] == 0 else {
                throw BatchError(call: call, "\(verb) section \(s), which this batch already \(Self.roleName(role[s]))")
            }
            role[s] = newRole
        }
        var reloadedSections: [(old: Int, payload: Int)] = []
        for (c, call) in batch.calls.enumerated() {
            switch call {
            case .deleteSections(let indices):
                for s in indices { try claim(s, 1, c, "deletes"); deletedSections += 1 }
            case .reloadSections(let contents):
                for content in contents {
                    try claim(content.index, 2, c, "reloads")
                    reloadedSections.append((content.index, plan.sectionItems.count))
                    plan.sectionItems.append(content.items)
                }
            case .moveSection(let from, let to):
                try claim(from, 3, c, "moves")
                if from == to { throw BatchError(call: c, "moves section \(from) onto itself") }
                placed.append((to, .moved(old: from), c))
            case .insertSections(let contents):
                for content in contents {
                    placed.append((content.index, .inserted(items: plan.sectionItems.count), c))
                    plan.sectionItems.append(content.items)
                    insertedSections += 1
                }
            default: break
            }
        }
        let newCount = oldCount - deletedSections + insertedSections
        var slots = [BatchPlan.SectionSource?](repeating: nil, count: newCount)
        for entry in placed {
            guard entry.index >= 0, entry.index < newCount else {
                throw BatchError(call: entry.call, "puts a section at index \(entry.index), past the end: there are \(newCount) sections after the update")
            }
            guard slots[entry.index] == nil else {
                throw BatchError(call: entry.call, "puts a section at index \(entry.index), where another call of this batch puts one too")
            }
            slots[entry.index] = entry.source
        }
        var reloadPayload = [Int](repeating: -1, count: reloadedSections.isEmpty ? 0 : oldCount)
        for r in reloadedSections { reloadPayload[r.old] = r.payload }
        var oldToNew = [Int](repeating: -1, count: oldCount)
        var nextOld = 0
        for t in 0..<newCount {
            if let source = slots[t] {
                if case .moved(let o) = source { oldToNew[o] = t }
                plan.newSections.append(source)
                continue
            }
            while role[nextOld] == 1 || role[nextOld] == 3 { nextOld += 1 }
            oldToNew[nextOld] = t
            plan.newSections.append(role[nextOld] == 2 ? .reloaded(old: nextOld, items: reloadPayload[nextOld]) : .kept(old: nextOld))
            nextOld += 1
        }
        plan.changesSections = deletedSections > 0 || insertedSections > 0 || !reloadedSections.isEmpty || !placed.isEmpty
        plan.firstChangedSection = newCount
        if plan.changesSections {
            for t in 0..<newCount where plan.newSections[t] != .kept(old: t) {
                plan.firstChangedSection = t
                break
            }
        }

        // Items: pre-update paths (deletes, reloads, move sources) and post-update paths (inserts,
        // move destinations), gathered per old section.
        var changeIndex = [Int](repeating: -1, count: oldCount)
        var changes: [BatchPlan.ItemChanges] = []
        func changesOf(old s: Int) -> Int {
            if changeIndex[s] < 0 {
                changeIndex[s] = changes.count
                changes.append(BatchPlan.ItemChanges(oldSection: s, newSection: oldToNew[s]))
            }
            return changeIndex[s]
        }
        var removedCall: [[Int]] = []   // per change entry, the call of each removed/reloaded index (for messages)
        func checkOld(_ path: ItemPath, _ c: Int, _ verb: String) throws(BatchError) -> Int {
            guard path.section >= 0, path.section < oldCount else {
                throw BatchError(call: c, "\(verb) item \(path), but there are \(oldCount) sections before the update")
            }
            guard role[path.section] == 0 || role[path.section] == 3 else {
                throw BatchError(call: c, "\(verb) item \(path) in section \(path.section), which this batch \(Self.roleName(role[path.section]))")
            }
            guard path.item >= 0, path.item < sections[path.section].count else {
                throw BatchError(call: c, "\(verb) item \(path), but section \(path.section) has \(sections[path.section].count) items before the update")
            }
            let k = changesOf(old: path.section)
            if removedCall.count <= k { removedCall.append([]) }
            return k
        }
        func checkNew(_ path: ItemPath, _ c: Int, _ verb: String) throws(BatchError) -> Int {
            guard path.section >= 0, path.section < newCount else {
                throw BatchError(call: c, "\(verb) item at \(path), but there are \(newCount) sections after the update")
            }
            switch plan.newSections[path.section] {
            case .kept(let o), .moved(let o):
                let k = changesOf(old: o)
                if removedCall.count <= k { removedCall.append([]) }
                return k
            case .inserted:
                throw BatchError(call: c, "\(verb) item at \(path) in section \(path.section), which this batch inserts (give the section its items)")
            case .reloaded:
                throw BatchError(call: c, "\(verb) item at \(path) in section \(path.section), which this batch reloads (give the section its items)")
            }
        }
        var insertCalls: [[Int]] = []
        for (c, call) in batch.calls.enumerated() {
            switch call {
            case .deleteItems(let paths):
                for path in paths {
                    let k = try checkOld(path, c, "deletes")
                    changes[k].removed.append(path.item)
                    removedCall[k].append(c)
                    plan.removedIDs.append(sections[path.section][path.item].id)
                }
            case .reloadItems(let placed):
                for entry in placed {
                    let k = try checkOld(entry.path, c, "reloads")
                    let old = sections[entry.path.section][entry.path.item]
                    guard entry.item.id == old.id else {
                        throw BatchError(call: c, "reloads item \(entry.path) with id \(entry.item.id), but its id is \(old.id) (a reload keeps the id; delete and insert instead)")
                    }
                    changes[k].reloaded.append((entry.path.item, plan.newItems.count))
                    plan.newItems.append(entry.item)
                    plan.reloadedIDs.append(old.id)
                }
            case .moveItem(let from, let to):
                if from == to { throw BatchError(call: c, "moves item \(from) onto itself") }
                let k = try checkOld(from, c, "moves")
                changes[k].removed.append(from.item)
                removedCall[k].append(c)
                let t = try checkNew(to, c, "moves")
                while insertCalls.count <= t { insertCalls.append([]) }
                changes[t].inserted.append((to.item, .moved(from)))
                insertCalls[t].append(c)
            case .insertItems(let placed):
                for entry in placed {
                    let t = try checkNew(entry.path, c, "inserts")
                    while insertCalls.count <= t { insertCalls.append([]) }
                    changes[t].inserted.append((entry.path.item, .new(plan.newItems.count)))
                    insertCalls[t].append(c)
                    plan.newItems.append(entry.item)
                }
            default: break
            }
        }
        for k in changes.indices {
            let s = changes[k].oldSection
            // Removed and reloaded: each pre-update item at most once.
            var order = Array(changes[k].removed.indices)
            order.sort { changes[k].removed[$0] < changes[k].removed[$1] }
            let calls = removedCall[k]
            changes[k].removed = order.map { changes[k].removed[$0] }
            let removedCalls = order.map { calls[$0] }
            for i in changes[k].removed.indices.dropFirst() where changes[k].removed[i] == changes[k].removed[i - 1] {
                throw BatchError(call: removedCalls[i], "deletes or moves item \(ItemPath(section: s, item: changes[k].removed[i])) twice")
            }
            changes[k].reloaded.sort { $0.item < $1.item }
            for i in changes[k].reloaded.indices {
                let item = changes[k].reloaded[i].item
                if i > 0, changes[k].reloaded[i - 1].item == item {
                    throw BatchError(call: batch.calls.count - 1, "reloads item \(ItemPath(section: s, item: item)) twice")
                }
                if Self.binaryContains(changes[k].removed, item) {
                    throw BatchError(call: batch.calls.count - 1, "reloads item \(ItemPath(section: s, item: item)), which this batch also deletes or moves")
                }
            }
            // Inserted: post-update indices, each at most once, none past the end.
            let newItemCount = sections[s].count - changes[k].removed.count + changes[k].inserted.count
            let inserts = changes[k].inserted
            let insertOrder = inserts.indices.sorted { inserts[$0].item < inserts[$1].item }
            changes[k].inserted = insertOrder.map { inserts[$0] }
            let t = changes[k].newSection
            for (position, i) in insertOrder.enumerated() {
                let item = inserts[i].item
                let call = k < insertCalls.count && i < insertCalls[k].count ? insertCalls[k][i] : batch.calls.count - 1
                guard item >= 0, item < newItemCount else {
                    throw BatchError(call: call, "inserts item at \(ItemPath(section: t, item: item)), past the end: section \(t) has \(newItemCount) items after the update")
                }
                if position > 0, inserts[insertOrder[position - 1]].item == item {
                    throw BatchError(call: call, "puts two items at \(ItemPath(section: t, item: item))")
                }
            }
        }
        changes.sort { $0.newSection < $1.newSection }
        changes.removeAll { $0.removed.isEmpty && $0.inserted.isEmpty && $0.reloaded.isEmpty }
        plan.itemChanges = changes
        if let first = changes.first { plan.firstChangedSection = min(plan.firstChangedSection, first.newSection) }

        // Ids: every id that enters the table must be new (or leave it in this batch).
        for source in plan.newSections {
            switch source {
            case .reloaded(let o, _):
                for item in sections[o] { plan.removedIDs.append(item.id) }
            default: break
            }
        }
        for s in 0..<oldCount where role[s] == 1 {
            for item in sections[s] { plan.removedIDs.append(item.id) }
        }
        var entering: [Int] = []
        for items in plan.sectionItems { for item in items { entering.append(item.id) } }
        for changes in plan.itemChanges {
            for insert in changes.inserted { if case .new(let p) = insert.source { entering.append(plan.newItems[p].id) } }
        }
        if !entering.isEmpty {
            var seen = Set<Int>(minimumCapacity: entering.count)
            let leaving = Set(plan.removedIDs)
            for id in entering {
                guard seen.insert(id).inserted else { throw BatchError(call: batch.calls.count - 1, "item id \(id) is inserted twice") }
                if pathByID[id] != nil, !leaving.contains(id) {
                    throw BatchError(call: batch.calls.count - 1, "item id \(id) is already in the table (ids must be unique)")
                }
            }
        }
        return plan
    }

    private static func roleName(_ role: UInt8) -> String {
        switch role {
        case 1: return "deletes"
        case 2: return "reloads"
        default: return "moves"
        }
    }

    private static func binaryContains(_ sorted: [Int], _ value: Int) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == value
    }
}
