/// A batch checked against the data it changes and put in UIKit's order (docs/engine-semantics.md): which old
/// section (if any) each new section comes from, and per surviving section the items removed
/// (deletes and move sources, pre-update indices), reloaded (pre-update indices) and inserted
/// (inserts and move destinations, post-update indices). Data, index-path caches and layouts
/// all follow the same plan, so they cannot disagree.
///
/// Made by `TableModel.plan(_:)`, which refuses an invalid batch with one `BatchError`.
public struct BatchPlan: Sendable {
    /// Where a post-update section comes from.
    public enum SectionSource: Hashable, Sendable {
        /// An old section that keeps its place among the surviving sections.
        case kept(old: Int)
        /// An old section moved here (removed, then inserted with its items).
        case moved(old: Int)
        /// A new section: `sectionItems[items]`.
        case inserted(items: Int)
        /// An old section whose items are all replaced by `sectionItems[items]`.
        case reloaded(old: Int, items: Int)

        /// The old section, for kept, moved and reloaded sections.
        public var oldSection: Int? {
            switch self {
            case .kept(let old), .moved(let old), .reloaded(let old, _): return old
            case .inserted: return nil
            }
        }
    }

    /// Where an inserted item comes from.
    public enum InsertSource: Hashable, Sendable {
        /// `newItems[index]`.
        case new(Int)
        /// The item at this pre-update path, moved.
        case moved(ItemPath)
    }

    /// The item changes of one kept or moved section.
    public struct ItemChanges: Sendable {
        public var oldSection: Int
        public var newSection: Int
        /// Pre-update indices, ascending: deletes and move sources.
        public var removed: [Int] = []
        /// Pre-update indices, ascending, each with its payload in `newItems`.
        public var reloaded: [(item: Int, payload: Int)] = []
        /// Post-update indices, ascending.
        public var inserted: [(item: Int, source: InsertSource)] = []

        /// The post-update index of the surviving pre-update item `old` (neither removed nor
        /// the source of a move). O(changes).
        public func newIndex(ofSurviving old: Int) -> Int {
            var removedBefore = 0
            while removedBefore < removed.count, removed[removedBefore] < old { removedBefore += 1 }
            var index = old - removedBefore
            for insert in inserted where insert.item <= index { index += 1 }
            return index
        }
    }

    public let oldSectionCount: Int
    /// One entry per post-update section.
    public internal(set) var newSections: [SectionSource] = []
    /// Whether any section was inserted, deleted, moved or reloaded.
    public internal(set) var changesSections = false
    /// Item changes of kept and moved sections, by ascending new section.
    public internal(set) var itemChanges: [ItemChanges] = []
    /// Items of inserted and reloaded sections.
    public internal(set) var sectionItems: [[TableItem]] = []
    /// Inserted and reloaded items.
    public internal(set) var newItems: [TableItem] = []
    /// Ids that leave the table: deleted items and the items of deleted and reloaded sections.
    public internal(set) var removedIDs: [Int] = []
    /// Ids whose content changed: reloaded items.
    public internal(set) var reloadedIDs: [Int] = []
    /// The first post-update section whose position or items changed (`newSections.count` if none).
    public internal(set) var firstChangedSection = 0

    init(oldSectionCount: Int) { self.oldSectionCount = oldSectionCount }

    public var newSectionCount: Int { newSections.count }

    /// Applies the plan to per-section arrays shaped like the pre-update data: `section(p)` makes
    /// the array of inserted or reloaded section `sectionItems[p]`, `item(p)` the element of
    /// `newItems[p]`, `reload(&e, p)` updates the element of a reloaded item. Moved elements
    /// travel. O(sections + the items of changed sections from their first change).
    public func apply<Element>(
        to sections: inout [[Element]],
        section: (Int) -> [Element], item: (Int) -> Element, reload: (inout Element, Int) -> Void
    ) {
        precondition(sections.count == oldSectionCount, "the arrays must have the pre-update shape")
        // Moved items, read at their old paths before anything moves.
        var moved: [Element] = []
        for changes in itemChanges {
            for insert in changes.inserted {
                if case .moved(let from) = insert.source { moved.append(sections[from.section][from.item]) }
            }
        }
        for changes in itemChanges {
            for reloaded in changes.reloaded { reload(&sections[changes.oldSection][reloaded.item], reloaded.payload) }
        }
        if changesSections {
            var old = sections
            sections = []
            sections.reserveCapacity(newSections.count)
            for source in newSections {
                switch source {
                case .kept(let o), .moved(let o):
                    var taken: [Element] = []
                    swap(&taken, &old[o])
                    sections.append(taken)
                case .inserted(let p), .reloaded(_, let p):
                    sections.append(section(p))
                }
            }
        }
        var nextMoved = 0
        for changes in itemChanges {
            Self.remove(changes.removed, from: &sections[changes.newSection])
            var values: [Element] = []
            values.reserveCapacity(changes.inserted.count)
            for insert in changes.inserted {
                switch insert.source {
                case .new(let p): values.append(item(p))
                case .moved:
                    values.append(moved[nextMoved])
                    nextMoved += 1
                }
            }
            Self.insert(values, at: changes.inserted.lazy.map(\.item), into: &sections[changes.newSection])
        }
    }

    /// Removes the elements at the ascending indices `indices` in one pass from the first.
    static func remove<Element>(_ indices: [Int], from array: inout [Element]) {
        guard let first = indices.first else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            var write = first, next = 0
            for read in first..<buffer.count {
                if next < indices.count, indices[next] == read {
                    next += 1
                } else {
                    buffer.swapAt(write, read)
                    write += 1
                }
            }
        }
        array.removeLast(indices.count)
    }

    /// Inserts `values` so that they end up at the ascending indices `indices`, in one pass from
    /// the back down to the first of them.
    static func insert<Element, Indices: Collection<Int>>(_ values: [Element], at indices: Indices, into array: inout [Element]) {
        guard let first = values.first else { return }
        let oldCount = array.count
        array.append(contentsOf: repeatElement(first, count: values.count))
        let targets = Array(indices)
        array.withUnsafeMutableBufferPointer { buffer in
            var read = oldCount - 1
            var next = values.count - 1
            var write = buffer.count - 1
            while next >= 0 {
                if targets[next] == write {
                    buffer[write] = values[next]
                    next -= 1
                } else {
                    buffer.swapAt(write, read)
                    read -= 1
                }
                write -= 1
            }
        }
    }
}
