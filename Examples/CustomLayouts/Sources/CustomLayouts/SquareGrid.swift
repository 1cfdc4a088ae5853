import LayoutEngine

/// A grid of equal square cells, `columns` per row, every item of every section in one grid (the
/// README's example, taking its column count and item count from its caller).
public struct SquareGrid: CollectionLayout {
    public var columns: Int
    public var bounds: Rect
    /// The first global index of each section, and the total at the end.
    private var sectionStarts: [Int]
    private var side = 0.0

    public init(columns: Int, itemsPerSection: [Int], bounds: Rect) {
        self.columns = columns
        self.bounds = bounds
        var starts = [0]
        for count in itemsPerSection { starts.append(starts[starts.count - 1] + count) }
        sectionStarts = starts
    }

    private var count: Int { sectionStarts[sectionStarts.count - 1] }

    public var contentSize: Size { Size(width: bounds.width, height: side * Double((count + columns - 1) / columns)) }

    public mutating func prepare() throws { side = bounds.width / Double(columns) }

    public mutating func invalidate(with context: InvalidationContext) {
        if let newBounds = context.newBounds { bounds = newBounds }
    }

    public mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {
        // A batch of updates changes only how many items each section has (sizes do not matter).
        guard !updates.isEmpty else { return }
        var counts = (0..<(sectionStarts.count - 1)).map { sectionStarts[$0 + 1] - sectionStarts[$0] }
        for change in updates {
            switch change {
            case .appendItems(let section, let items), .insertItems(let section, _, let items): counts[section] += items.count
            case .removeItems(let section, _, let count): counts[section] -= count
            case .setHeight, .reloadItems: break
            case .insertSection(let at, let items): counts.insert(items.count, at: at)
            case .removeSection(let at): counts.remove(at: at)
            case .moveItem(let from, let to):
                counts[from.section] -= 1
                counts[to.section] += 1
            case .moveSection(let from, let to): counts.insert(counts.remove(at: from), at: to)
            }
        }
        sectionStarts = [0]
        for count in counts { sectionStarts.append(sectionStarts[sectionStarts.count - 1] + count) }
    }

    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { newBounds.width != bounds.width }

    /// Every cell is a square of the grid: a self-sizing cell's preferred size never changes the
    /// layout (UIKit's default answer, said on purpose).
    public func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes
    ) -> Bool {
        false
    }

    public func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)  // no allocation once the buffer has capacity
        guard !rect.isEmpty, side > 0, count > 0 else { return }
        let firstRow = max(0, Int((rect.minY / side).rounded(.down)))
        let lastRow = min((count - 1) / columns, Int((rect.maxY / side).rounded(.up)))
        guard firstRow <= lastRow else { return }
        var section = 0
        for global in (firstRow * columns)..<min(count, (lastRow + 1) * columns) {
            while sectionStarts[section + 1] <= global { section += 1 }
            let id = ElementID.item(global - sectionStarts[section], section: section)
            let frame = frame(global)
            if frame.intersects(rect) { results.append(LayoutAttributes(id: id, frame: frame)) }
        }
    }

    public func attributes(for element: ElementID) throws -> LayoutAttributes {
        guard element.kind == .item, element.section >= 0, element.section < sectionStarts.count - 1,
              element.index >= 0, element.index < sectionStarts[element.section + 1] - sectionStarts[element.section]
        else {
            throw LayoutError(field: "element", reason: .noSuchElement(element))
        }
        return LayoutAttributes(id: element, frame: frame(sectionStarts[element.section] + element.index))
    }

    private func frame(_ global: Int) -> Rect {
        Rect(x: Double(global % columns) * side, y: Double(global / columns) * side, width: side, height: side)
    }
}
