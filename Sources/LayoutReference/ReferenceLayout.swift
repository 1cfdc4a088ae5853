import LayoutEngine

/// The geometry of docs/engine-semantics.md, computed the plainest way: the independent oracle that the engine's
/// fast paths (every `prepare` mode, the update modes, the rect queries) are checked against.
///
/// It shares no placement, frame storage, query or updater code with `LayoutEngine`; it uses only
/// the engine's value types (`LayoutData`, `SectionStyle`, `Rect`, `ElementID`). Written to be
/// read, not to be fast, yet it lays out 1,000,000 items in well under a second in a release
/// build (flat arrays, no per-element dictionary).
///
/// The rules, top to bottom (the section kinds are in `ReferenceListSection`,
/// `ReferenceFlowSection` and `ReferenceWaterfallSection`):
/// - Section `s` uses `styles[s % styles.count]`. Sections stack from y = 0 with no gap.
/// - Within a section: the header (x 0, full width, its height; none when the height is 0), the
///   top inset, the items region from x = `insets.left` to `W - insets.right`, the bottom inset,
///   the footer (full width; none when its height is 0). Empty sections keep their insets.
/// - The background decoration (when the style asks for one) covers the whole section: from the
///   section's top to the next section's top, full width.
/// - The content height is the bottom of the last section (0 without sections).
///
/// Arithmetic: item positions are computed relative to their section and then moved down by the
/// section's top, and running sums add one "height plus spacing" step at a time. These are the
/// the formulas of docs/engine-semantics.md in the order the engine also evaluates them, so that at millions of points the
/// two round alike and agree within `ReferenceTolerance`, not just within a rough epsilon.
public struct ReferenceLayout: Sendable {
    /// The content width: the viewport width.
    public let contentWidth: Double
    public let styles: [SectionStyle]
    /// `sectionCount + 1` absolute section tops; the last is the content height.
    public private(set) var sectionTops: [Double] = [0]
    /// `sectionCount + 1` offsets into `itemFrames` (as `LayoutData.sectionStarts`).
    public private(set) var sectionItemStarts: [Int] = [0]
    /// The absolute frame of every item, indexed by the global item index of `LayoutData`.
    public private(set) var itemFrames: [Rect] = []

    /// Lays out `data` for a viewport `viewportWidth` wide.
    ///
    /// Throws what the engine throws for an unusable configuration: a width that is not positive
    /// and finite, no styles, or a style that `SectionStyle.validate` rejects.
    public init(data: LayoutData, styles: [SectionStyle], viewportWidth: Double) throws(LayoutError) {
        var noLanes: [[Int]]? = nil
        try self.init(data: data, styles: styles, viewportWidth: viewportWidth, lanes: &noLanes)
    }

    /// Lays out `data` as above, except that a shortest-first waterfall item whose column ties
    /// with the shortest within `ReferenceTolerance` goes where `layout` put it:
    /// for a mode that adds heights in another order (a shifted suffix), whose roundings may
    /// break such a tie the other way (`ReferenceWaterfallSection`). Coordinates stay this
    /// reference's own, so the check against it stays exact up to the tolerance.
    public init(data: LayoutData, styles: [SectionStyle], viewportWidth: Double, breakingNearTiesLike layout: LayoutFrames) throws(LayoutError) {
        var noLanes: [[Int]]? = nil
        try self.init(data: data, styles: styles, viewportWidth: viewportWidth, lanes: &noLanes) { section, item in
            layout.frame(of: .item(item, section: section))?.x
        }
    }

    /// Lays out `data` as above; with `lanes` (one entry per item of every section), waterfall
    /// items keep the column their entry names and an item whose entry is
    /// `ReferenceWaterfallSection.unassigned` gets one by the section's direction, written back
    /// (`StableLanesReference`).
    init(
        data: LayoutData, styles: [SectionStyle], viewportWidth: Double, lanes: inout [[Int]]?,
        nearTieLeft: ((_ section: Int, _ item: Int) -> Double?)? = nil
    ) throws(LayoutError) {
        guard viewportWidth.isFinite, viewportWidth > 0 else {
            throw LayoutError(field: "viewport.width", reason: .invalidValue(viewportWidth))
        }
        guard !styles.isEmpty else {
            throw LayoutError(field: "sections", reason: .other("at least one section style is needed"))
        }
        for (index, style) in styles.enumerated() {
            try style.validate(contentWidth: viewportWidth, field: "sections[\(index)]")
        }
        contentWidth = viewportWidth
        self.styles = styles
        place(data, lanes: &lanes, nearTieLeft: nearTieLeft)
    }

    /// Lays `data` out again with this layout's styles and width (validated when it was made),
    /// as `init(data:styles:viewportWidth:lanes:)` would, into the storage it already holds: an
    /// oracle that lays everything out after every change of a large trace then allocates no
    /// new arrays for it (`StableLanesReference`, `LockLanesReference`).
    mutating func relayOut(_ data: LayoutData, lanes: inout [[Int]]?) {
        itemFrames.removeAll(keepingCapacity: true)
        sectionTops.removeAll(keepingCapacity: true)
        sectionTops.append(0)
        place(data, lanes: &lanes, nearTieLeft: nil)
    }

    /// The placement itself, into empty `itemFrames` and `sectionTops == [0]`.
    private mutating func place(
        _ data: LayoutData, lanes: inout [[Int]]?, nearTieLeft: ((_ section: Int, _ item: Int) -> Double?)?
    ) {
        let viewportWidth = contentWidth
        sectionItemStarts = data.sectionStarts
        itemFrames.reserveCapacity(data.itemCount)
        sectionTops.reserveCapacity(data.sectionCount + 1)

        var sectionTop = 0.0
        for s in 0..<data.sectionCount {
            let style = styles[s % styles.count]
            let range = data.itemRange(inSection: s)
            let input = ReferenceSectionInput(
                widths: data.widths[range], heights: data.heights[range],
                spansAllColumns: data.spansAllColumns[range], style: style,
                regionLeft: style.insets.left,
                regionWidth: viewportWidth - (style.insets.left + style.insets.right),
                regionTop: style.headerHeight + style.insets.top)
            let firstFrame = itemFrames.count
            let regionBottom: Double
            switch style.kind {
            case .list:
                regionBottom = ReferenceListSection.place(input, into: &itemFrames)
            case .flow(let justify, let align):
                regionBottom = ReferenceFlowSection.place(input, justify: justify, align: align, into: &itemFrames)
            case .waterfall(let waterfall):
                // Taken out of `lanes` while the section writes to it, so that it is not copied.
                var sectionLanes = lanes?[s]
                lanes?[s] = []
                let sectionTieLeft = nearTieLeft.map { left in { (item: Int) in left(s, item) } }
                regionBottom = ReferenceWaterfallSection.place(
                    input, style: waterfall, lanes: &sectionLanes, nearTieLeft: sectionTieLeft, into: &itemFrames)
                if let sectionLanes { lanes?[s] = sectionLanes }
            }
            precondition(itemFrames.count == firstFrame + range.count, "a section placed a wrong number of items")
            // From section coordinates to content coordinates.
            itemFrames.withUnsafeMutableBufferPointer { frames in
                for i in firstFrame..<frames.count {
                    frames[i].y = sectionTop + frames[i].y
                }
            }
            sectionTop += regionBottom + style.insets.bottom + style.footerHeight
            sectionTops.append(sectionTop)
        }
    }

    // MARK: Counts and sizes

    public var sectionCount: Int { sectionTops.count - 1 }
    public var itemCount: Int { itemFrames.count }
    public var contentHeight: Double { sectionTops[sectionTops.count - 1] }
    public var contentSize: Size { Size(width: contentWidth, height: contentHeight) }

    /// The style of section `s` (styles cycle).
    public func style(ofSection s: Int) -> SectionStyle { styles[s % styles.count] }

    public func itemCount(inSection s: Int) -> Int { sectionItemStarts[s + 1] - sectionItemStarts[s] }

    // MARK: Frames

    /// The natural frame of an element, or nil when the layout has no such element (no header
    /// or footer of height 0, no decoration without `background`, no item past the end).
    public func frame(of id: ElementID) -> Rect? {
        guard id.section >= 0, id.section < sectionCount, id.index >= 0 else { return nil }
        let s = id.section
        let style = style(ofSection: s)
        let top = sectionTops[s], bottom = sectionTops[s + 1]
        switch id.kind {
        case .item:
            guard id.index < itemCount(inSection: s) else { return nil }
            return itemFrames[sectionItemStarts[s] + id.index]
        case .header:
            guard id.index == 0, style.headerHeight > 0 else { return nil }
            return Rect(x: 0, y: top, width: contentWidth, height: style.headerHeight)
        case .footer:
            guard id.index == 0, style.footerHeight > 0 else { return nil }
            return Rect(x: 0, y: bottom - style.footerHeight, width: contentWidth, height: style.footerHeight)
        case .decoration:
            guard id.index == 0, style.background else { return nil }
            return Rect(x: 0, y: top, width: contentWidth, height: bottom - top)
        }
    }

    /// Every element of section `s`, sorted by `ElementID` (items, header, footer, decoration).
    public func elements(inSection s: Int) -> [ReferenceElement] {
        var result: [ReferenceElement] = []
        appendElements(ofSection: s, to: &result)
        return result
    }

    /// Every element of the layout, sorted by `ElementID`. O(n).
    public func allElements() -> [ReferenceElement] {
        var result: [ReferenceElement] = []
        result.reserveCapacity(itemCount + 3 * sectionCount)
        for s in 0..<sectionCount { appendElements(ofSection: s, to: &result) }
        return result
    }

    private func appendElements(ofSection s: Int, to result: inout [ReferenceElement]) {
        for index in 0..<itemCount(inSection: s) {
            result.append(ReferenceElement(id: .item(index, section: s), frame: itemFrames[sectionItemStarts[s] + index]))
        }
        for id in [ElementID.header(section: s), .footer(section: s), .decoration(section: s)] {
            if let frame = frame(of: id) { result.append(ReferenceElement(id: id, frame: frame)) }
        }
    }

    // MARK: Rect queries

    /// Every element whose frame intersects `rect`, sorted by `ElementID`: a scan of all
    /// elements with `ReferenceLayout.intersects`. O(n) per call.
    public func elements(in rect: Rect) -> [ReferenceElement] {
        var result: [ReferenceElement] = []
        for s in 0..<sectionCount {
            for index in 0..<itemCount(inSection: s) {
                let frame = itemFrames[sectionItemStarts[s] + index]
                if Self.intersects(frame, rect) { result.append(ReferenceElement(id: .item(index, section: s), frame: frame)) }
            }
            for id in [ElementID.header(section: s), .footer(section: s), .decoration(section: s)] {
                if let frame = frame(of: id), Self.intersects(frame, rect) {
                    result.append(ReferenceElement(id: id, frame: frame))
                }
            }
        }
        return result
    }

    /// docs/engine-semantics.md's intersection, written out: both rectangles have area (an empty rectangle
    /// intersects nothing), and they overlap on both axes with open edges (rectangles that only
    /// touch do not intersect). Area is judged on the edges as computed in `Double`: a positive
    /// height too small to move `y + height` past `y` (1e-320 at y = 265) spans nothing, the same
    /// rule as `Rect.intersects`.
    public static func intersects(_ a: Rect, _ b: Rect) -> Bool {
        let aMaxX = a.x + a.width, aMaxY = a.y + a.height
        let bMaxX = b.x + b.width, bMaxY = b.y + b.height
        let aHasArea = a.x < aMaxX && a.y < aMaxY
        let bHasArea = b.x < bMaxX && b.y < bMaxY
        guard aHasArea, bHasArea else { return false }
        let overlapX = a.x < bMaxX && b.x < aMaxX
        let overlapY = a.y < bMaxY && b.y < aMaxY
        return overlapX && overlapY
    }
}
