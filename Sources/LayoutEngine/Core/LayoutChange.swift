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
