/// The computed geometry of a sectioned layout, as flat arrays.
///
/// Sections stack vertically from y = 0. `sectionTops` holds their prefix sums (one more entry
/// than sections; the last is the content height), so locating the section at an offset is a
/// binary search. Item frames are stored **relative to the top of their section**: moving every
/// later section is an O(sections) update of `sectionTops`, and the item arrays are untouched.
/// Within a section, `itemMinY` can shift a whole suffix of items cheaply (see `ShiftedOffsets`).
///
/// Rect-query strategies read this type, so any layout that fills it can use all of them.
public struct LayoutFrames: Hashable, Sendable {
    /// The content width (the viewport width for vertical scrolling).
    public internal(set) var contentWidth: Double = 0

    // Per section.
    /// `sectionCount + 1` absolute tops; `sectionTops[s + 1] - sectionTops[s]` is the height of s.
    public internal(set) var sectionTops: [Double] = [0]
    /// `sectionCount + 1` offsets into the item arrays (the same as `LayoutData.sectionStarts`).
    public internal(set) var sectionItemStarts: [Int] = [0]
    public internal(set) var headerHeights: [Double] = []
    public internal(set) var footerHeights: [Double] = []
    /// Top of the items region relative to the section top (header height + top inset).
    public internal(set) var itemsRegionTops: [Double] = []
    /// Bottom of the items region relative to the section top.
    public internal(set) var itemsRegionBottoms: [Double] = []
    public internal(set) var hasBackground: [Bool] = []

    // Per item, indexed by the global item index (large columns on huge pages: `ItemColumn`).
    public internal(set) var itemMinX = ItemColumn()
    public internal(set) var itemWidth = ItemColumn()
    public internal(set) var itemHeight = ItemColumn()
    /// Item tops relative to the top of the item's section.
    public internal(set) var itemMinY = ShiftedOffsets()

    public init() {}

    @inlinable public var sectionCount: Int { sectionTops.count - 1 }
    @inlinable public var itemCount: Int { itemHeight.count }
    @inlinable public var contentHeight: Double { sectionTops[sectionTops.count - 1] }
    @inlinable public var contentSize: Size { Size(width: contentWidth, height: contentHeight) }

    @inlinable public func itemRange(inSection section: Int) -> Range<Int> {
        sectionItemStarts[section]..<sectionItemStarts[section + 1]
    }

    /// The section that owns a global item index (binary search; the rect queries' search, see
    /// `UnsafePointer<LayoutFrames>.section(ofItem:)`).
    public func section(ofItem global: Int) -> Int {
        withUnsafePointer(to: self) { $0.section(ofItem: global) }
    }

    /// The first section whose bottom lies below `y` (its range of y extends past y), or
    /// `sectionCount` when none does. Binary search over the prefix sums.
    public func firstSection(endingBelow y: Double) -> Int {
        withUnsafePointer(to: self) { $0.firstSection(endingBelow: y) }
    }

    /// The sections whose elements a rect spanning `minY ..< maxY` can meet (see
    /// `UnsafePointer<LayoutFrames>.sectionRange(meetingMinY:maxY:)`).
    public func sectionRange(meetingMinY minY: Double, maxY: Double) -> Range<Int> {
        withUnsafePointer(to: self) { $0.sectionRange(meetingMinY: minY, maxY: maxY) }
    }

    // MARK: Frames of elements

    /// Absolute frame of an item by global index.
    @inlinable public func itemFrame(global i: Int, section s: Int) -> Rect {
        Rect(x: itemMinX[i], y: sectionTops[s] + itemMinY[i], width: itemWidth[i], height: itemHeight[i])
    }

    @inlinable public func sectionFrame(_ s: Int) -> Rect {
        Rect(x: 0, y: sectionTops[s], width: contentWidth, height: sectionTops[s + 1] - sectionTops[s])
    }

    /// The header's natural frame, or nil when the section has no header.
    @inlinable public func headerFrame(_ s: Int) -> Rect? {
        let height = headerHeights[s]
        return height > 0 ? Rect(x: 0, y: sectionTops[s], width: contentWidth, height: height) : nil
    }

    /// The footer's natural frame, or nil when the section has no footer.
    @inlinable public func footerFrame(_ s: Int) -> Rect? {
        let height = footerHeights[s]
        return height > 0 ? Rect(x: 0, y: sectionTops[s + 1] - height, width: contentWidth, height: height) : nil
    }

    /// The natural frame of any element, or nil when the layout has no such element.
    public func frame(of id: ElementID) -> Rect? {
        guard id.section >= 0, id.section < sectionCount else { return nil }
        switch id.kind {
        case .item:
            let range = itemRange(inSection: id.section)
            guard id.index >= 0, id.index < range.count else { return nil }
            return itemFrame(global: range.lowerBound + id.index, section: id.section)
        case .header:
            return id.index == 0 ? headerFrame(id.section) : nil
        case .footer:
            return id.index == 0 ? footerFrame(id.section) : nil
        case .decoration:
            return id.index == 0 && hasBackground[id.section] ? sectionFrame(id.section) : nil
        }
    }

    /// The z-index every layout uses: decorations below items, headers and footers above.
    @inlinable public static func zIndex(of kind: ElementKind) -> Int {
        switch kind {
        case .decoration: return -1
        case .item: return 0
        case .header, .footer: return 1
        }
    }

    /// The attributes of an element in its natural place.
    public func attributes(of id: ElementID) -> LayoutAttributes? {
        frame(of: id).map { LayoutAttributes(id: id, frame: $0, zIndex: Self.zIndex(of: id.kind)) }
    }

    /// Every element with its frame, in creation order (per section: decoration, header,
    /// items, footer). O(n); for tests, dumps and the reference answers.
    public func allElements() -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        result.reserveCapacity(itemCount + 3 * sectionCount)
        for s in 0..<sectionCount {
            if hasBackground[s] {
                result.append(LayoutAttributes(id: .decoration(section: s), frame: sectionFrame(s), zIndex: -1))
            }
            if let header = headerFrame(s) {
                result.append(LayoutAttributes(id: .header(section: s), frame: header, zIndex: 1))
            }
            let start = sectionItemStarts[s]
            for i in itemRange(inSection: s) {
                result.append(LayoutAttributes(id: .item(i - start, section: s), frame: itemFrame(global: i, section: s)))
            }
            if let footer = footerFrame(s) {
                result.append(LayoutAttributes(id: .footer(section: s), frame: footer, zIndex: 1))
            }
        }
        return result
    }

    /// Bytes held by the arrays (by capacity): the memory cost of a prepared layout.
    public var allocatedBytes: Int {
        let doubles = sectionTops.capacity + headerHeights.capacity + footerHeights.capacity
            + itemsRegionTops.capacity + itemsRegionBottoms.capacity
            + itemMinX.capacity + itemWidth.capacity + itemHeight.capacity
        return doubles * 8 + sectionItemStarts.capacity * 8 + hasBackground.capacity + itemMinY.allocatedBytes
    }
}
