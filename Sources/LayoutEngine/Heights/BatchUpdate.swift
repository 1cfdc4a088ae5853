/// The calls of one `performBatchUpdates` (or `beginUpdates`/`endUpdates`) block, in the order
/// the app made them, with the new data they bring.
///
/// UIKit's rules (docs/engine-semantics.md) give the block its meaning whatever the call order: deletes and
/// reloads name pre-update index paths, inserts name post-update ones, a move is a delete at its
/// source plus an insert at its destination (never a swap), and section operations come before
/// item operations. `TableModel.plan(_:)` checks a batch against those rules. The call order is
/// kept because FDTemplateLayoutCell's cache follows it (`FDIndexPathHeightCache`).
public struct BatchUpdate: Hashable, Sendable {
    public enum Call: Hashable, Sendable {
        /// New sections at post-update indices, each with its items.
        case insertSections([SectionContent])
        /// Sections at pre-update indices.
        case deleteSections([Int])
        /// Sections at pre-update indices, replaced by new items.
        case reloadSections([SectionContent])
        /// A section from its pre-update index to its post-update index.
        case moveSection(from: Int, to: Int)
        /// New items at post-update index paths.
        case insertItems([PlacedItem])
        /// Items at pre-update index paths.
        case deleteItems([ItemPath])
        /// Items at pre-update index paths, given new content (their ids stay).
        case reloadItems([PlacedItem])
        /// An item from its pre-update index path to its post-update index path.
        case moveItem(from: ItemPath, to: ItemPath)
    }

    public var calls: [Call]

    public init(_ calls: [Call] = []) { self.calls = calls }

    public var isEmpty: Bool { calls.isEmpty }

    public mutating func insertSection(_ items: [TableItem], at index: Int) {
        calls.append(.insertSections([SectionContent(index: index, items: items)]))
    }
    public mutating func deleteSections(_ indices: [Int]) { calls.append(.deleteSections(indices)) }
    public mutating func reloadSection(_ index: Int, items: [TableItem]) {
        calls.append(.reloadSections([SectionContent(index: index, items: items)]))
    }
    public mutating func moveSection(_ from: Int, to: Int) { calls.append(.moveSection(from: from, to: to)) }
    public mutating func insertItem(_ item: TableItem, at path: ItemPath) {
        calls.append(.insertItems([PlacedItem(path: path, item: item)]))
    }
    public mutating func insertItems(_ items: [PlacedItem]) { calls.append(.insertItems(items)) }
    public mutating func deleteItems(_ paths: [ItemPath]) { calls.append(.deleteItems(paths)) }
    public mutating func reloadItem(at path: ItemPath, with item: TableItem) {
        calls.append(.reloadItems([PlacedItem(path: path, item: item)]))
    }
    public mutating func moveItem(from: ItemPath, to: ItemPath) { calls.append(.moveItem(from: from, to: to)) }
}

/// A section's index in a batch call and the items it holds after the update.
public struct SectionContent: Hashable, Sendable {
    public var index: Int
    public var items: [TableItem]
    public init(index: Int, items: [TableItem]) {
        self.index = index
        self.items = items
    }
}

/// An item and its index path in a batch call.
public struct PlacedItem: Hashable, Sendable {
    public var path: ItemPath
    public var item: TableItem
    public init(path: ItemPath, item: TableItem) {
        self.path = path
        self.item = item
    }
}

/// Why a batch was refused. Nothing was changed: not the data, not a cache, not a layout.
public struct BatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which call of the batch (0-based) is wrong.
    public var call: Int
    public var message: String

    public init(call: Int, _ message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "batch update call \(call): \(message)" }
}
