import LayoutEngine

/// A port of CHTCollectionViewWaterfallLayout's algorithm (the Objective-C layout many apps ship),
/// written as its author wrote it: `prepare()` recomputes every section from scratch after any
/// invalidation, and the rect query scans every attribute it keeps.
///
/// Per section: the header (full width, `headerHeight`, none when 0), `sectionInset.top`, then
/// each item goes to the shortest column (ties to the leftmost), at the column's bottom; a column
/// grows by the item's height plus `minimumInteritemSpacing`. Columns are
/// `(width − insets − (columnCount − 1) × minimumColumnSpacing) / columnCount` wide. The section
/// ends at its longest column (less the last spacing), then `sectionInset.bottom` and the footer.
/// An item with a width is scaled to the column width keeping its aspect ratio, as CHT does with
/// `sizeForItemAtIndexPath`; an item with width 0 keeps its height.
///
/// Self-sizing (`layout-self-sizing`), as a CHT subclass with self-sizing cells would add it: a
/// preferred height that differs from the frame's invalidates the layout, the item takes it (with
/// width 0, so it is not scaled again) and everything is recomputed in the next `prepare()`. The
/// content offset is never adjusted (CHT has no anchoring), so the content jumps by what the items
/// above the viewport gain.
///
/// One departure from the Objective-C: CHT floors the column width to the screen's pixel grid
/// (`CHTFloorCGFloat`); there is no screen here, so widths are not rounded.
public struct CHTWaterfallLayout: CollectionLayout {
    public var columnCount: Int
    public var minimumColumnSpacing: Double
    public var minimumInteritemSpacing: Double
    public var sectionInset: EdgeInsets
    public var headerHeight: Double
    public var footerHeight: Double
    /// The data source: the items of each section.
    public var sections: [[ItemSize]]
    public var bounds: Rect

    private var allAttributes: [LayoutAttributes] = []
    private var sectionItemAttributes: [[LayoutAttributes]] = []
    private var headerAttributes: [Int: LayoutAttributes] = [:]
    private var footerAttributes: [Int: LayoutAttributes] = [:]
    private var contentHeight = 0.0
    private var needsPrepare = true

    public init(
        columnCount: Int = 2, minimumColumnSpacing: Double = 10, minimumInteritemSpacing: Double = 10,
        sectionInset: EdgeInsets = .zero, headerHeight: Double = 0, footerHeight: Double = 0,
        sections: [[ItemSize]], bounds: Rect
    ) {
        self.columnCount = columnCount
        self.minimumColumnSpacing = minimumColumnSpacing
        self.minimumInteritemSpacing = minimumInteritemSpacing
        self.sectionInset = sectionInset
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.sections = sections
        self.bounds = bounds
    }

    public var contentSize: Size { Size(width: bounds.width, height: contentHeight) }

    public mutating func prepare() throws {
        guard needsPrepare else { return }
        needsPrepare = false
        allAttributes.removeAll(keepingCapacity: true)
        sectionItemAttributes.removeAll(keepingCapacity: true)
        headerAttributes.removeAll(keepingCapacity: true)
        footerAttributes.removeAll(keepingCapacity: true)
        let width = bounds.width - sectionInset.left - sectionInset.right
        let itemWidth = (width - Double(columnCount - 1) * minimumColumnSpacing) / Double(columnCount)
        var columnHeights = [Double](repeating: 0, count: columnCount)
        var top = 0.0
        for (section, items) in sections.enumerated() {
            if headerHeight > 0 {
                let header = LayoutAttributes(id: .header(section: section), frame: Rect(x: 0, y: top, width: bounds.width, height: headerHeight))
                headerAttributes[section] = header
                allAttributes.append(header)
                top = header.frame.maxY
            }
            top += sectionInset.top
            for column in 0..<columnCount { columnHeights[column] = top }

            var itemAttributes: [LayoutAttributes] = []
            itemAttributes.reserveCapacity(items.count)
            for (index, size) in items.enumerated() {
                let column = shortestColumn(columnHeights)
                let x = sectionInset.left + (itemWidth + minimumColumnSpacing) * Double(column)
                let y = columnHeights[column]
                let height = size.width > 0 ? size.height * itemWidth / size.width : size.height
                let attributes = LayoutAttributes(id: .item(index, section: section), frame: Rect(x: x, y: y, width: itemWidth, height: height))
                itemAttributes.append(attributes)
                allAttributes.append(attributes)
                columnHeights[column] = attributes.frame.maxY + minimumInteritemSpacing
            }
            sectionItemAttributes.append(itemAttributes)

            let longest = columnHeights[longestColumn(columnHeights)]
            top = longest - (items.isEmpty ? 0 : minimumInteritemSpacing) + sectionInset.bottom
            if footerHeight > 0 {
                let footer = LayoutAttributes(id: .footer(section: section), frame: Rect(x: 0, y: top, width: bounds.width, height: footerHeight))
                footerAttributes[section] = footer
                allAttributes.append(footer)
                top = footer.frame.maxY
            }
        }
        contentHeight = top
    }

    /// CHT's `shortestColumnIndexInSection`: the first column of the smallest height.
    private func shortestColumn(_ heights: [Double]) -> Int {
        var best = 0
        for column in 1..<heights.count where heights[column] < heights[best] { best = column }
        return best
    }

    /// CHT's `longestColumnIndexInSection`: the first column of the largest height.
    private func longestColumn(_ heights: [Double]) -> Int {
        var best = 0
        for column in 1..<heights.count where heights[column] > heights[best] { best = column }
        return best
    }

    /// CHT recomputes everything in its next `prepareLayout` whatever changed (`invalidateLayout`
    /// drops every attribute it keeps), a width change included. A batch of updates
    /// (`prepare(forCollectionViewUpdates:)`) changes the data source first: CHT asks its data
    /// source again, this port applies the changes to its `sections`.
    public mutating func invalidate(with context: InvalidationContext) {
        if let newBounds = context.newBounds { bounds = newBounds }
        if let preferred = context.invalidatedItem, preferred.item.kind == .item,
           sections.indices.contains(preferred.item.section), sections[preferred.item.section].indices.contains(preferred.item.index) {
            sections[preferred.item.section][preferred.item.index].width = 0
            sections[preferred.item.section][preferred.item.index].height = preferred.size.height
        }
        needsPrepare = true
    }

    /// A self-sizing cell whose height differs from its frame's invalidates the layout.
    public func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes
    ) -> Bool {
        original.id.kind == .item && preferred.frame.height != original.frame.height
    }

    /// The item and its preferred size; no offset or content-size adjustment (CHT anchors nothing).
    public func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes,
        visibleBounds bounds: Rect
    ) -> InvalidationContext {
        InvalidationContext(invalidatedItem: PreferredSize(item: original.id, size: Size(width: original.frame.width, height: preferred.frame.height)))
    }

    public mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {
        for change in updates {
            switch change {
            case .appendItems(let section, let items): sections[section].append(contentsOf: items)
            case .insertItems(let section, let at, let items): sections[section].insert(contentsOf: items, at: at)
            case .removeItems(let section, let at, let count): sections[section].removeSubrange(at..<(at + count))
            case .setHeight(let section, let item, let height): sections[section][item].height = height
            case .insertSection(let at, let items): sections.insert(items, at: at)
            case .removeSection(let at): sections.remove(at: at)
            case .moveItem(let from, let to):
                // A removal at the source, then an insert at the destination: never a swap.
                sections[to.section].insert(sections[from.section].remove(at: from.item), at: to.item)
            case .moveSection(let from, let to): sections.insert(sections.remove(at: from), at: to)
            case .reloadItems(let section, let at, let items): sections[section].replaceSubrange(at..<(at + items.count), with: items)
            }
        }
        needsPrepare = true
    }

    /// CHT's `shouldInvalidateLayoutForBoundsChange:`: only when the width changes.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { newBounds.width != bounds.width }

    /// A linear scan over every attribute.
    public func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)
        for attributes in allAttributes where attributes.frame.intersects(rect) {
            results.append(attributes)
        }
    }

    public func attributes(for element: ElementID) throws -> LayoutAttributes {
        switch element.kind {
        case .item where element.section >= 0 && element.section < sectionItemAttributes.count
            && element.index >= 0 && element.index < sectionItemAttributes[element.section].count:
            return sectionItemAttributes[element.section][element.index]
        case .header where element.index == 0:
            if let header = headerAttributes[element.section] { return header }
        case .footer where element.index == 0:
            if let footer = footerAttributes[element.section] { return footer }
        default:
            break
        }
        throw LayoutError(field: "element", reason: .noSuchElement(element))
    }
}
