/// One change to a layout's data, as a batch-update call would make it. A batch's changes are
/// applied one after the other, each to the data the previous ones left (index paths of a change
/// name the data as it is just before it, and a move's destination the data just after it).
public enum LayoutChange: Hashable, Sendable {
    case appendItems(section: Int, items: [ItemSize])
    case insertItems(section: Int, at: Int, items: [ItemSize])
    case removeItems(section: Int, at: Int, count: Int)
    case setHeight(section: Int, item: Int, height: Double)
    case insertSection(at: Int, items: [ItemSize])
    case removeSection(at: Int)
    /// UIKit's `moveItem(at:to:)`: the item at `from` ends up at `to`, within its section or in
    /// another; a removal at the source and an insert at the destination, never a swap.
    case moveItem(from: ItemPath, to: ItemPath)
    /// UIKit's `moveSection(_:toSection:)`: section `from`, whole, ends up at index `to`.
    case moveSection(from: Int, to: Int)
    /// UIKit's `reloadItems(at:)` with the items' new sizes, width included: items
    /// `at ..< at + items.count` of `section` take the sizes of `items`.
    case reloadItems(section: Int, at: Int, items: [ItemSize])

    /// Applies the change to `data` (validating it).
    public func apply(to data: inout LayoutData) throws(LayoutError) {
        switch self {
        case .appendItems(let section, let items): try data.appendItems(items, section: section)
        case .insertItems(let section, let at, let items): try data.insertItems(items, section: section, at: at)
        case .removeItems(let section, let at, let count): try data.removeItems(section: section, at: at, count: count)
        case .setHeight(let section, let item, let height): try data.setHeight(height, section: section, item: item)
        case .insertSection(let at, let items): try data.insertSection(items, at: at)
        case .removeSection(let at): try data.removeSection(at: at)
        case .moveItem(let from, let to): try data.moveItem(from: from, to: to)
        case .moveSection(let from, let to): try data.moveSection(from: from, to: to)
        case .reloadItems(let section, let at, let items): try data.reloadItems(items, section: section, at: at)
        }
    }
}

/// A layout kept up to date through a sequence of changes, by one update strategy.
/// The append and edit workloads drive these; each strategy is verified against its reference.
public protocol LayoutUpdater {
    /// Lays out `data` from scratch.
    init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError)
    var data: LayoutData { get }
    var frames: LayoutFrames { get }
    /// Applies one change and brings `frames` up to date.
    mutating func apply(_ change: LayoutChange) throws(LayoutError)
}

/// The work of an incremental updater after a change has been applied to its data, one step per
/// kind of change; `LayoutChange.route(to:data:)` picks the step.
protocol ChangeSteps {
    mutating func itemsInserted(section: Int, at: Int, count: Int)
    mutating func itemsRemoved(section: Int, at: Int, count: Int)
    mutating func heightChanged(section: Int, item: Int)
    mutating func sectionInserted(at: Int, itemCount: Int)
    mutating func sectionRemoved(at: Int)
    /// An item moved from `from` to `to` (the data already has it at `to`).
    mutating func itemMoved(from: ItemPath, to: ItemPath)
    /// A section moved whole from index `from` to index `to`.
    mutating func sectionMoved(from: Int, to: Int)
    /// Items `at ..< at + count` of `section` took new sizes (widths, heights, full-width flags).
    mutating func itemsReloaded(section: Int, at: Int, count: Int)
}

extension LayoutChange {
    /// Calls the step of `steps` for this change, which `data` already reflects (an append is an
    /// insert at the old end of its section).
    func route<Steps: ChangeSteps>(to steps: inout Steps, data: LayoutData) {
        switch self {
        case .appendItems(let section, let items):
            steps.itemsInserted(section: section, at: data.itemCount(inSection: section) - items.count, count: items.count)
        case .insertItems(let section, let at, let items):
            steps.itemsInserted(section: section, at: at, count: items.count)
        case .removeItems(let section, let at, let count):
            steps.itemsRemoved(section: section, at: at, count: count)
        case .setHeight(let section, let item, _):
            steps.heightChanged(section: section, item: item)
        case .insertSection(let at, let items):
            steps.sectionInserted(at: at, itemCount: items.count)
        case .removeSection(let at):
            steps.sectionRemoved(at: at)
        case .moveItem(let from, let to):
            steps.itemMoved(from: from, to: to)
        case .moveSection(let from, let to):
            steps.sectionMoved(from: from, to: to)
        case .reloadItems(let section, let at, let items):
            steps.itemsReloaded(section: section, at: at, count: items.count)
        }
    }
}
