/// One change to a layout's data, as a batch-update call would make it.
public enum LayoutChange: Hashable, Sendable {
    case appendItems(section: Int, items: [ItemSize])
    case insertItems(section: Int, at: Int, items: [ItemSize])
    case removeItems(section: Int, at: Int, count: Int)
    case setHeight(section: Int, item: Int, height: Double)
    case insertSection(at: Int, items: [ItemSize])
    case removeSection(at: Int)

    /// Applies the change to `data` (validating it).
    public func apply(to data: inout LayoutData) throws(LayoutError) {
        switch self {
        case .appendItems(let section, let items): try data.appendItems(items, section: section)
        case .insertItems(let section, let at, let items): try data.insertItems(items, section: section, at: at)
        case .removeItems(let section, let at, let count): try data.removeItems(section: section, at: at, count: count)
        case .setHeight(let section, let item, let height): try data.setHeight(height, section: section, item: item)
        case .insertSection(let at, let items): try data.insertSection(items, at: at)
        case .removeSection(let at): try data.removeSection(at: at)
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
        }
    }
}
