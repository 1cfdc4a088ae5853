/// The size of one item as the data source gives it.
public struct ItemSize: Hashable, Sendable {
    /// Used by flow sections; list and waterfall items take the region or column width.
    public var width: Double
    public var height: Double
    /// A waterfall item that spans all columns (HDCollectionView's `isFullWidthInWaterFlowLayout`).
    public var spansAllColumns: Bool

    public init(width: Double = 0, height: Double, spansAllColumns: Bool = false) {
        self.width = width
        self.height = height
        self.spansAllColumns = spansAllColumns
    }
}

/// The items of every section, as flat arrays indexed by a global item index.
///
/// Section `s` owns the global indices `sectionStarts[s] ..< sectionStarts[s + 1]`. Flat
/// `[Double]` arrays keep the hot loops free of boxed values and per-section indirection.
/// Every mutation validates its input and throws a `LayoutError` naming the offending item.
public struct LayoutData: Hashable, Sendable {
    public private(set) var widths: [Double] = []
    public private(set) var heights: [Double] = []
    public private(set) var spansAllColumns: [Bool] = []
    /// `sectionCount + 1` offsets into the item arrays.
    public private(set) var sectionStarts: [Int] = [0]

    public init() {}

    /// Data with the given items per section.
    public init(sections: [[ItemSize]]) throws(LayoutError) {
        let total = sections.reduce(0) { $0 + $1.count }
        widths.reserveCapacity(total)
        heights.reserveCapacity(total)
        spansAllColumns.reserveCapacity(total)
        for items in sections {
            try appendSection(items)
        }
    }

    /// Data from flat arrays: `counts[s]` items in section s.
    public init(widths: [Double], heights: [Double], spansAllColumns: [Bool]? = nil, counts: [Int]) throws(LayoutError) {
        guard widths.count == heights.count else {
            throw LayoutError(field: "widths", reason: .other("\(widths.count) widths for \(heights.count) heights"))
        }
        var starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for (section, count) in counts.enumerated() {
            guard count >= 0 else { throw LayoutError(field: "sections[\(section)].count", reason: .invalidCount(count)) }
            starts.append(starts[starts.count - 1] + count)
        }
        guard starts[starts.count - 1] == heights.count else {
            throw LayoutError(field: "counts", reason: .other("counts add up to \(starts[starts.count - 1]), not \(heights.count)"))
        }
        let spans = spansAllColumns ?? [Bool](repeating: false, count: heights.count)
        guard spans.count == heights.count else {
            throw LayoutError(field: "spansAllColumns", reason: .other("\(spans.count) flags for \(heights.count) items"))
        }
        self.sectionStarts = starts
        for i in 0..<heights.count {
            try Self.check(width: widths[i], height: heights[i], field: Self.fieldName(starts, i))
        }
        self.widths = widths
        self.heights = heights
        self.spansAllColumns = spans
    }

    @inlinable public var sectionCount: Int { sectionStarts.count - 1 }
    @inlinable public var itemCount: Int { heights.count }

    @inlinable public func itemRange(inSection section: Int) -> Range<Int> {
        sectionStarts[section]..<sectionStarts[section + 1]
    }
    @inlinable public func itemCount(inSection section: Int) -> Int {
        sectionStarts[section + 1] - sectionStarts[section]
    }
    @inlinable public func globalIndex(section: Int, item: Int) -> Int { sectionStarts[section] + item }

    public func size(section: Int, item: Int) -> ItemSize {
        let i = sectionStarts[section] + item
        return ItemSize(width: widths[i], height: heights[i], spansAllColumns: spansAllColumns[i])
    }

    // MARK: Mutations

    /// Appends a section at the end.
    public mutating func appendSection(_ items: [ItemSize]) throws(LayoutError) {
        try insertSection(items, at: sectionCount)
    }

    /// Inserts a section so that it gets index `section`.
    public mutating func insertSection(_ items: [ItemSize], at section: Int) throws(LayoutError) {
        guard section >= 0, section <= sectionCount else {
            throw LayoutError(field: "section", reason: .invalidCount(section))
        }
        for (index, item) in items.enumerated() {
            try Self.check(width: item.width, height: item.height, field: "sections[\(section)].items[\(index)]")
        }
        let at = sectionStarts[section]
        widths.insert(contentsOf: items.map(\.width), at: at)
        heights.insert(contentsOf: items.map(\.height), at: at)
        spansAllColumns.insert(contentsOf: items.map(\.spansAllColumns), at: at)
        sectionStarts.insert(at, at: section)
        for s in (section + 1)..<sectionStarts.count { sectionStarts[s] += items.count }
    }

    /// Removes a whole section.
    public mutating func removeSection(at section: Int) throws(LayoutError) {
        guard section >= 0, section < sectionCount else {
            throw LayoutError(field: "section", reason: .noSuchElement(.header(section: section)))
        }
        let range = itemRange(inSection: section)
        widths.removeSubrange(range)
        heights.removeSubrange(range)
        spansAllColumns.removeSubrange(range)
        sectionStarts.remove(at: section)
        for s in section..<sectionStarts.count { sectionStarts[s] -= range.count }
    }

    /// Inserts items so that the first gets index `item` in `section`.
    public mutating func insertItems(_ items: [ItemSize], section: Int, at item: Int) throws(LayoutError) {
        guard section >= 0, section < sectionCount else {
            throw LayoutError(field: "section", reason: .noSuchElement(.item(item, section: section)))
        }
        guard item >= 0, item <= itemCount(inSection: section) else {
            throw LayoutError(field: "item", reason: .noSuchElement(.item(item, section: section)))
        }
        for (offset, size) in items.enumerated() {
            try Self.check(width: size.width, height: size.height, field: "sections[\(section)].items[\(item + offset)]")
        }
        let at = sectionStarts[section] + item
        if at == heights.count {
            // Grow once, then fill in one pass (the generic lazy-map append costs ~50 instructions
            // an element; this is a handful).
            widths.append(contentsOf: repeatElement(0, count: items.count))
            heights.append(contentsOf: repeatElement(0, count: items.count))
            spansAllColumns.append(contentsOf: repeatElement(false, count: items.count))
            widths.withUnsafeMutableBufferPointer { widths in
                heights.withUnsafeMutableBufferPointer { heights in
                    spansAllColumns.withUnsafeMutableBufferPointer { spans in
                        for (offset, size) in items.enumerated() {
                            widths[at + offset] = size.width
                            heights[at + offset] = size.height
                            spans[at + offset] = size.spansAllColumns
                        }
                    }
                }
            }
        } else {
            widths.insert(contentsOf: items.map(\.width), at: at)
            heights.insert(contentsOf: items.map(\.height), at: at)
            spansAllColumns.insert(contentsOf: items.map(\.spansAllColumns), at: at)
        }
        for s in (section + 1)..<sectionStarts.count { sectionStarts[s] += items.count }
    }

    /// Appends items at the end of a section.
    public mutating func appendItems(_ items: [ItemSize], section: Int) throws(LayoutError) {
        guard section >= 0, section < sectionCount else {
            throw LayoutError(field: "section", reason: .invalidCount(section))
        }
        try insertItems(items, section: section, at: itemCount(inSection: section))
    }

    /// Removes `count` items of `section` starting at `item`.
    public mutating func removeItems(section: Int, at item: Int, count: Int = 1) throws(LayoutError) {
        guard section >= 0, section < sectionCount, item >= 0, count >= 0,
              item + count <= itemCount(inSection: section)
        else {
            throw LayoutError(field: "item", reason: .noSuchElement(.item(item + max(count - 1, 0), section: section)))
        }
        let start = sectionStarts[section] + item
        widths.removeSubrange(start..<(start + count))
        heights.removeSubrange(start..<(start + count))
        spansAllColumns.removeSubrange(start..<(start + count))
        for s in (section + 1)..<sectionStarts.count { sectionStarts[s] -= count }
    }

    /// Replaces the size of one item.
    public mutating func setSize(_ size: ItemSize, section: Int, item: Int) throws(LayoutError) {
        guard section >= 0, section < sectionCount, item >= 0, item < itemCount(inSection: section) else {
            throw LayoutError(field: "item", reason: .noSuchElement(.item(item, section: section)))
        }
        try Self.check(width: size.width, height: size.height, field: "sections[\(section)].items[\(item)]")
        let i = sectionStarts[section] + item
        widths[i] = size.width
        heights[i] = size.height
        spansAllColumns[i] = size.spansAllColumns
    }

    /// Moves one item, as UIKit's `moveItem(at:to:)`: the item at `from` (an index path before
    /// the move) ends up at `to` (an index path after it), within its section or into another.
    /// A move is a removal at the source and an insert at the destination, never a swap; `to.item`
    /// may be the destination section's count (after the removal) only when the sections differ.
    public mutating func moveItem(from: ItemPath, to: ItemPath) throws(LayoutError) {
        try Self.checkMove(from: from, to: to, sectionCount: sectionCount, itemCount: itemCount(inSection:))
        let source = sectionStarts[from.section] + from.item
        let size = ItemSize(width: widths[source], height: heights[source], spansAllColumns: spansAllColumns[source])
        try removeItems(section: from.section, at: from.item, count: 1)
        try insertItems([size], section: to.section, at: to.item)
    }

    /// Moves a section whole, as UIKit's `moveSection(_:toSection:)`: section `from` ends up at
    /// index `to` (both below the section count).
    public mutating func moveSection(from: Int, to: Int) throws(LayoutError) {
        try Self.checkSectionMove(from: from, to: to, sectionCount: sectionCount)
        guard from != to else { return }
        let range = itemRange(inSection: from)
        let items = range.map { ItemSize(width: widths[$0], height: heights[$0], spansAllColumns: spansAllColumns[$0]) }
        try removeSection(at: from)
        try insertSection(items, at: to)
    }

    /// Reloads items with new sizes (width included), as UIKit's `reloadItems(at:)` followed by
    /// the data source's new sizes: items `item ..< item + items.count` of `section` take the
    /// sizes of `items`, in order. The count of the section does not change.
    public mutating func reloadItems(_ items: [ItemSize], section: Int, at item: Int) throws(LayoutError) {
        try Self.checkReload(items, section: section, at: item, sectionCount: sectionCount, itemCount: itemCount(inSection:))
        let start = sectionStarts[section] + item
        for (offset, size) in items.enumerated() {
            widths[start + offset] = size.width
            heights[start + offset] = size.height
            spansAllColumns[start + offset] = size.spansAllColumns
        }
    }

    /// Replaces the height of one item.
    public mutating func setHeight(_ height: Double, section: Int, item: Int) throws(LayoutError) {
        guard section >= 0, section < sectionCount, item >= 0, item < itemCount(inSection: section) else {
            throw LayoutError(field: "item", reason: .noSuchElement(.item(item, section: section)))
        }
        try LayoutError.checkSize(height, "sections[\(section)].items[\(item)].height")
        heights[sectionStarts[section] + item] = height
    }

    // MARK: Validation

    @usableFromInline
    static func check(width: Double, height: Double, field: @autoclosure () -> String) throws(LayoutError) {
        try LayoutError.checkSize(width, "\(field()).width")
        try LayoutError.checkSize(height, "\(field()).height")
    }

    /// Throws unless a move from `from` to `to` names an existing item and an index the item
    /// can take after its removal (shared with `LayoutChange.validate`).
    static func checkMove(
        from: ItemPath, to: ItemPath, sectionCount: Int, itemCount: (Int) -> Int
    ) throws(LayoutError) {
        guard from.section >= 0, from.section < sectionCount, from.item >= 0, from.item < itemCount(from.section) else {
            throw LayoutError(field: "from", reason: .noSuchElement(.item(from.item, section: from.section)))
        }
        guard to.section >= 0, to.section < sectionCount else {
            throw LayoutError(field: "to.section", reason: .noSuchElement(.item(to.item, section: to.section)))
        }
        // After the removal the destination section holds one item fewer when it is the source's.
        let last = to.section == from.section ? itemCount(to.section) - 1 : itemCount(to.section)
        guard to.item >= 0, to.item <= last else {
            throw LayoutError(field: "to.item", reason: .noSuchElement(.item(to.item, section: to.section)))
        }
    }

    /// Throws unless both indices name existing sections.
    static func checkSectionMove(from: Int, to: Int, sectionCount: Int) throws(LayoutError) {
        guard from >= 0, from < sectionCount else {
            throw LayoutError(field: "from", reason: .noSuchElement(.header(section: from)))
        }
        guard to >= 0, to < sectionCount else {
            throw LayoutError(field: "to", reason: .noSuchElement(.header(section: to)))
        }
    }

    /// Throws unless the reloaded items exist and their new sizes are valid.
    static func checkReload(
        _ items: [ItemSize], section: Int, at item: Int, sectionCount: Int, itemCount: (Int) -> Int
    ) throws(LayoutError) {
        guard section >= 0, section < sectionCount, item >= 0, item + items.count <= itemCount(section) else {
            throw LayoutError(field: "item", reason: .noSuchElement(.item(item + max(items.count - 1, 0), section: section)))
        }
        for (offset, size) in items.enumerated() {
            try check(width: size.width, height: size.height, field: "sections[\(section)].items[\(item + offset)]")
        }
    }

    static func fieldName(_ starts: [Int], _ global: Int) -> String {
        var section = 0
        while starts[section + 1] <= global { section += 1 }
        return "sections[\(section)].items[\(global - starts[section])]"
    }
}
