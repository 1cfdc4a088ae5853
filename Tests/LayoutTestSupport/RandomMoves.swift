import LayoutEngine

/// Random item moves, section moves and reloads (UIKit's `moveItem(at:to:)`,
/// `moveSection(_:toSection:)` and `reloadItems(at:)`) for the updaters' differential tests, valid
/// for the data they are drawn for, and invalid ones that each updater must refuse as the data does.
enum RandomMoves {
    /// A valid move or reload for `data`: half the item moves stay in their section (the
    /// destination anywhere in it, itself included), half go to a section drawn at random; a
    /// section move between two random indices (itself included); a reload of one to four items
    /// with new sizes from `newItems(section, count, &rng)`. Nil when there is nothing to move.
    static func change(
        for data: LayoutData, newItems: (_ section: Int, _ count: Int, inout SeededRandom) -> [ItemSize], _ rng: inout SeededRandom
    ) -> LayoutChange? {
        let sections = data.sectionCount
        guard sections > 0 else { return nil }
        switch rng.int(0...4) {
        case 0, 1:
            let nonEmpty = (0..<sections).filter { data.itemCount(inSection: $0) > 0 }
            guard !nonEmpty.isEmpty else { return nil }
            let from = rng.pick(nonEmpty)
            let item = rng.int(0...(data.itemCount(inSection: from) - 1))
            let to = rng.chance(0.5) ? from : rng.int(0...(sections - 1))
            // After the removal the source section holds one item fewer.
            let last = to == from ? data.itemCount(inSection: to) - 1 : data.itemCount(inSection: to)
            return .moveItem(from: ItemPath(section: from, item: item), to: ItemPath(section: to, item: rng.int(0...last)))
        case 2:
            return .moveSection(from: rng.int(0...(sections - 1)), to: rng.int(0...(sections - 1)))
        default:
            let s = rng.int(0...(sections - 1))
            let count = data.itemCount(inSection: s)
            guard count > 0 else { return nil }
            let at = rng.int(0...(count - 1))
            return .reloadItems(section: s, at: at, items: newItems(s, min(rng.int(1...4), count - at), &rng))
        }
    }

    /// A move or reload `data` refuses: a source, destination or reloaded item that does not
    /// exist (one past the end, or negative), or a reload with a negative height.
    static func invalidChange(for data: LayoutData, _ rng: inout SeededRandom) -> LayoutChange {
        let sections = data.sectionCount
        let count0 = sections > 0 ? data.itemCount(inSection: 0) : 0
        switch rng.int(0...5) {
        case 0: return .moveItem(from: ItemPath(section: sections, item: 0), to: ItemPath(section: 0, item: 0))
        case 1: return .moveItem(from: ItemPath(section: 0, item: count0), to: ItemPath(section: 0, item: 0))
        case 2: return .moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: max(count0, 1)))
        case 3: return .moveSection(from: 0, to: rng.chance(0.5) ? sections : -1)
        case 4: return .reloadItems(section: 0, at: count0, items: [ItemSize(height: 1)])
        default: return .reloadItems(section: 0, at: 0, items: [ItemSize(height: -1)])
        }
    }
}
