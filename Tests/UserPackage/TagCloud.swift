import LayoutEngine

/// Chips of their own widths, left to right, a new row when the next does not fit: a tag cloud
/// written from scratch, as a user writes one (scripts/test-user-package).
public struct TagCloud: CollectionLayout {
    /// How many times the rect query scans the frames: 1, or 2 for the build that is twice as slow.
    static let queryPasses = 1
    public var sections: [[ItemSize]]
    public var bounds: Rect
    private var frames: [LayoutAttributes] = []
    private var height = 0.0

    public init(sections: [[ItemSize]], bounds: Rect) {
        self.sections = sections
        self.bounds = bounds
    }

    public var contentSize: Size { Size(width: bounds.width, height: height) }

    public mutating func prepare() throws {
        frames.removeAll(keepingCapacity: true)
        var x = 0.0, y = 0.0, rowHeight = 0.0
        for (section, items) in sections.enumerated() {
            for (index, size) in items.enumerated() {
                let width = min(size.width, bounds.width)
                if x > 0, x + width > bounds.width { x = 0; y += rowHeight; rowHeight = 0 }
                frames.append(LayoutAttributes(id: .item(index, section: section), frame: Rect(x: x, y: y, width: width, height: size.height)))
                x += width
                rowHeight = max(rowHeight, size.height)
            }
        }
        height = y + rowHeight
    }

    public mutating func invalidate(with context: InvalidationContext) {
        if let newBounds = context.newBounds { bounds = newBounds }
    }

    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { newBounds.width != bounds.width }

    public func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        for _ in 0..<Self.queryPasses {
            results.removeAll(keepingCapacity: true)
            for attributes in frames where attributes.frame.intersects(rect) { results.append(attributes) }
        }
    }

    public func attributes(for element: ElementID) throws -> LayoutAttributes {
        guard element.kind == .item, element.section >= 0, element.section < sections.count,
              element.index >= 0, element.index < sections[element.section].count else {
            throw LayoutError(field: "element", reason: .noSuchElement(element))
        }
        var offset = 0
        for section in 0..<element.section { offset += sections[section].count }
        return frames[offset + element.index]
    }
}
