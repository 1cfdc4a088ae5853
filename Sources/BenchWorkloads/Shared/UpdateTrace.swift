import LayoutEngine

/// A sequence of data changes replayed by the `append` and `edit` workloads, one change per
/// timed operation, from the same initial data every time it restarts.
struct UpdateTrace {
    var initial: LayoutData
    var changes: [LayoutChange]

    /// Items the changes add at most (for the headroom of a fresh copy of the data).
    var growth: Int {
        changes.reduce(0) { total, change in
            switch change {
            case .appendItems(_, let items), .insertItems(_, _, let items), .insertSection(_, let items): return total + items.count
            case .removeItems, .setHeight, .removeSection, .moveItem, .moveSection, .reloadItems: return total
            }
        }
    }

    /// A copy of the initial data that shares no storage with the trace, with room for the items
    /// the trace adds: what a long-lived app's arrays look like after amortised growth. Made
    /// outside the timed region, so that the first change after a restart pays neither a
    /// copy-on-write of storage the harness shares nor a reallocation the app would not see.
    func freshInitialData() throws -> LayoutData {
        let capacity = initial.itemCount + growth
        func copy<T>(_ values: [T]) -> [T] {
            var copy: [T] = []
            copy.reserveCapacity(capacity)
            copy.append(contentsOf: values)
            return copy
        }
        return try LayoutData(
            widths: copy(initial.widths), heights: copy(initial.heights), spansAllColumns: copy(initial.spansAllColumns),
            counts: (0..<initial.sectionCount).map(initial.itemCount(inSection:)))
    }
}

extension LayoutChange {
    /// A short description for verification messages.
    var shortDescription: String {
        switch self {
        case .appendItems(let section, let items): return "append \(items.count) items to section \(section)"
        case .insertItems(let section, let at, let items): return "insert \(items.count) items at [\(section), \(at)]"
        case .removeItems(let section, let at, let count): return "remove \(count) items at [\(section), \(at)]"
        case .setHeight(let section, let item, let height): return "height of [\(section), \(item)] to \(height)"
        case .insertSection(let at, let items): return "insert section \(at) with \(items.count) items"
        case .removeSection(let at): return "remove section \(at)"
        case .moveItem(let from, let to): return "move [\(from.section), \(from.item)] to [\(to.section), \(to.item)]"
        case .moveSection(let from, let to): return "move section \(from) to \(to)"
        case .reloadItems(let section, let at, let items):
            return "reload \(items.count) items at [\(section), \(at)] (first to \(items.first.map { "\($0.width)×\($0.height)" } ?? "none"))"
        }
    }
}
