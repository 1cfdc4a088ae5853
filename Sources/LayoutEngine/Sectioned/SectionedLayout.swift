/// A vertically scrolling layout whose sections each choose their own algorithm — list, flow or
/// waterfall — with their own spacing, insets, header, footer and background (HDCollectionView's
/// per-section layouts). A plain UITableView-style list is the case where every section is `.list`.
///
/// Geometry (docs/engine-semantics.md): sections stack from y = 0 with no gap; within a section, the header at full
/// width, the top inset, the items region (`insets.left ..< W - insets.right`), the bottom inset
/// and the footer. Section styles cycle when there are more sections than styles.
///
/// Rect queries go through the strategy chosen by `queryMode`; its index is rebuilt by `prepare()`
/// after any change of the frames. Headers and footers whose style pins them (`SectionStyle.headerPin`,
/// `footerPin`) follow the bounds: a scroll invalidates the layout (`shouldInvalidate(forBoundsChange:)`),
/// `prepare()` moves them with the work `pinningMode` names, and rect queries return their current
/// frames (`PinnedElements`) on top of whatever the query index finds.
///
/// Self-sizing: an item whose preferred size differs from its frame's invalidates the layout
/// (`shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)`); the context
/// carries the size, `invalidate(with:)` writes it into `data` and the next `prepare()` lays
/// everything out again. The context's `contentOffsetAdjustment` follows `selfSizingAnchor`, the
/// rules of the `offsets` workload's `anchor` key applied to one item's first measurement.
///
/// With an `offsetsMode` (list sections only), a preferred size is instead applied incrementally,
/// as UIKit-style estimated-offset layouts do: `invalidate(with:)` sets the item's height in its
/// section's `RowOffsets` structure (`SectionRowOffsets`), moves the later items and sections by
/// the change the structure reports, and rect queries and `attributes(for:)` read item tops and
/// the first item at an offset from the structure; only a width change, a batch or
/// `.everything` lays everything out again (and rebuilds the structures).
public struct SectionedLayout: CollectionLayout {
    public private(set) var bounds: Rect
    public private(set) var styles: [SectionStyle]
    public private(set) var data: LayoutData
    public private(set) var frames = LayoutFrames()
    public private(set) var queryMode: RectQueryMode
    @usableFromInline var queryIndex: any RectQueryIndex
    /// The mode `queryIndex` was built by (nil before the first build), so that a rebuild for the
    /// same mode reuses its storage.
    private var indexMode: RectQueryMode?
    @usableFromInline var needsLayout = true
    @usableFromInline var needsIndex = true
    /// How far below the scroll offset the visible top lies (a navigation bar): T = offset + pinOffset.
    public private(set) var pinOffset: Double
    /// What a bounds change costs when something pins.
    public private(set) var pinningMode: PinningMode
    /// Which rule moves the content offset when a self-sizing item changes size
    /// (`invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:)`).
    public var selfSizingAnchor: ScrollAnchorMode
    /// The offsets structure a preferred size updates (nil: every preferred size lays everything
    /// out again in the next `prepare()`).
    public var offsetsMode: RowOffsetsMode? { rowOffsets?.mode }
    /// The structures of `offsetsMode`, built by every full layout pass.
    @usableFromInline var rowOffsets: SectionRowOffsets?
    /// The pinnable headers and footers and their frames at `bounds`.
    public private(set) var pinned = PinnedElements()
    private let pinsHeaders: Bool
    private let pinsFooters: Bool
    /// Every section is a list: a preferred height changes the content height by exactly its change.
    private let listsOnly: Bool
    @usableFromInline var needsPinning = true
    /// A change of a batch (or a preferred size) that `data` refused, thrown by the next `prepare()`.
    private var batchError: LayoutError?
    /// How many times every item was laid out (`layoutAll`): a bounds-only invalidation keeps the
    /// item frames, so it does not change this unless `pinningMode` is `.relayout`.
    public private(set) var layoutPasses = 0

    /// A layout for `data` in a viewport of `bounds` (its width is the content width).
    /// Throws `LayoutError` for a negative, NaN or infinite size, a width not larger than the
    /// insets, columns < 1, weights that are not positive, or a negative or NaN `pinOffset`.
    public init(
        bounds: Rect, styles: [SectionStyle], data: LayoutData, queryMode: RectQueryMode = .binary,
        pinOffset: Double = 0, pinningMode: PinningMode = .cached, selfSizingAnchor: ScrollAnchorMode = .none,
        offsets: RowOffsetsMode? = nil
    ) throws(LayoutError) {
        guard bounds.width.isFinite, bounds.width > 0 else {
            throw LayoutError(field: "viewport.width", reason: .invalidValue(bounds.width))
        }
        guard bounds.height.isFinite, bounds.height >= 0 else {
            throw LayoutError(field: "viewport.height", reason: .invalidValue(bounds.height))
        }
        guard !styles.isEmpty else {
            throw LayoutError(field: "sections", reason: .other("at least one section style is needed"))
        }
        for (index, style) in styles.enumerated() {
            try style.validate(contentWidth: bounds.width, field: "sections[\(index)]")
        }
        try LayoutError.checkSize(pinOffset, "pinOffset")
        if let offsets {
            for (index, style) in styles.enumerated() {
                guard case .list = style.kind else {
                    throw LayoutError(
                        field: "sections[\(index)]",
                        reason: .other("the offsets structure \(offsets.rawValue) keeps list sections only; this section is a \(style.kind.name)"))
                }
            }
            rowOffsets = SectionRowOffsets(mode: offsets)
        }
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.queryMode = queryMode
        self.queryIndex = LinearQuery(frames: LayoutFrames())
        self.pinOffset = pinOffset
        self.pinningMode = pinningMode
        self.selfSizingAnchor = selfSizingAnchor
        pinsHeaders = styles.contains { $0.headerPin != .none && $0.headerHeight > 0 }
        pinsFooters = styles.contains { $0.footerPin != .none && $0.footerHeight > 0 }
        listsOnly = styles.allSatisfy { if case .list = $0.kind { true } else { false } }
    }

    /// A UITableView-style list: every section a list with the same style.
    public static func list(
        bounds: Rect, data: LayoutData, style: SectionStyle = SectionStyle(), queryMode: RectQueryMode = .binary
    ) throws(LayoutError) -> SectionedLayout {
        var listStyle = style
        listStyle.kind = .list
        return try SectionedLayout(bounds: bounds, styles: [listStyle], data: data, queryMode: queryMode)
    }

    /// The style of section `s` (styles cycle).
    @inlinable public func style(ofSection s: Int) -> SectionStyle { styles[s % styles.count] }

    public var contentSize: Size { frames.contentSize }

    // MARK: Lifecycle

    public mutating func prepare() throws {
        if needsLayout {
            // Only a batch or a preferred size sets batchError, and each asks for a layout: the scroll path
            // never reads it.
            if let error = batchError {
                batchError = nil
                throw error
            }
            layoutAll()
            frames._checkInvariants()
            needsLayout = false
            needsIndex = true
        }
        if needsIndex, rowOffsets != nil {
            // Queries read the offsets structures, which every change keeps up to date.
            needsIndex = false
        }
        if needsIndex {
            if indexMode == queryMode {
                queryIndex.rebuild(frames: frames)
            } else {
                queryIndex = LinearQuery(frames: LayoutFrames())  // the old index goes first
                queryIndex = queryMode.make(frames: frames)
                indexMode = queryMode
            }
            needsIndex = false
        }
        if needsPinning {
            pinned.update(
                mode: pinningMode, frames: frames, visibleTop: bounds.minY + pinOffset, visibleBottom: bounds.maxY)
            needsPinning = false
        }
    }

    public mutating func invalidate(with context: InvalidationContext) {
        if context.invalidateEverything || context.invalidateDataSourceCounts {
            needsLayout = true
        }
        // Out of line: the scroll path, whose contexts carry bounds only, pays one test for it.
        if let preferred = context.invalidatedItem { invalidate(preferred: preferred) }
        if let newBounds = context.newBounds {
            if newBounds.width != bounds.width { needsLayout = true }
            if pinsAnything(movingTo: newBounds) {
                // A bounds-only change keeps the item frames, unless the mode recomputes everything.
                if pinningMode == .relayout { needsLayout = true }
                needsPinning = true
            }
            bounds = newBounds
        }
        if needsLayout { needsPinning = true }
    }

    /// A preferred size: applied to the offsets structure and the frames in place where it can be,
    /// else written into `data` for the next `prepare()` to lay everything out again; a size the
    /// data refuses (negative, not finite) or an element that is not an item of the data is thrown
    /// by the next prepare().
    @inline(never)
    private mutating func invalidate(preferred: PreferredSize) {
        if rowOffsets != nil, !needsLayout, applyMeasured(preferred) { return }
        let id = preferred.item
        let spans = id.kind == .item && id.section >= 0 && id.section < data.sectionCount && id.index >= 0
            && id.index < data.itemCount(inSection: id.section) && data.size(section: id.section, item: id.index).spansAllColumns
        do throws(LayoutError) {
            guard id.kind == .item else { throw LayoutError(field: "invalidatedItem", reason: .noSuchElement(id)) }
            try data.setSize(
                ItemSize(width: preferred.size.width, height: preferred.size.height, spansAllColumns: spans),
                section: id.section, item: id.index)
        } catch {
            batchError = error
        }
        needsLayout = true
    }

    /// True for a width change, and when something pinned can move: a header pins and the top
    /// moves, or a footer pins and the bottom moves.
    /// Applies a batch's changes to this layout's data; everything is laid out again in the next
    /// `prepare()`, which throws the first change the data refused.
    public mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {
        for change in updates {
            do { try change.apply(to: &data) } catch {
                batchError = error
                break
            }
        }
        needsLayout = true
    }

    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool {
        newBounds.width != bounds.width || pinsAnything(movingTo: newBounds)
    }

    /// The context for a bounds change: only the bounds (the pinned frames follow them; a width
    /// change lays everything out again in `invalidate(with:)`).
    public func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext {
        .bounds(newBounds)
    }

    /// True when an item's preferred size differs from its frame's.
    public func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes
    ) -> Bool {
        original.id.kind == .item
            && (preferred.frame.width != original.frame.width || preferred.frame.height != original.frame.height)
    }

    /// The item and its preferred size; the content offset moves by the height it gains when
    /// `selfSizingAnchor`'s rule says so for `bounds` (`none`: never; `exact` and
    /// `tanstack`, whose rules agree on a first measurement: the item starts above the viewport
    /// top; `flutter`: it starts above the cache extent over the viewport top, where Flutter's
    /// first laid-out child is). `contentSizeAdjustment` is the change of the content height the
    /// size causes, exactly, when every section is a list (UIKit's contract, checked by
    /// `layout-self-sizing`: a non-zero adjustment is the real change); with a flow or waterfall
    /// section it is zero, UIKit's default, for every item, as such a section's height is known
    /// only after the next `prepare()`.
    public func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes,
        visibleBounds bounds: Rect
    ) -> InvalidationContext {
        let delta = preferred.frame.height - original.frame.height
        let top = bounds.minY + pinOffset
        let adjusts: Bool
        switch selfSizingAnchor {
        case .none: adjusts = false
        case .exact, .tanstack: adjusts = original.frame.minY < top
        case .flutter: adjusts = original.frame.minY < top - ScrollAnchorMode.flutterCacheExtent
        }
        let isItem = original.id.kind == .item && original.id.section >= 0 && original.id.section < data.sectionCount
        return InvalidationContext(
            invalidatedItem: PreferredSize(item: original.id, size: Size(width: preferred.frame.width, height: preferred.frame.height)),
            contentOffsetAdjustment: Point(x: 0, y: adjusts ? delta : 0),
            contentSizeAdjustment: Size(width: 0, height: listsOnly && isItem ? delta : 0))
    }

    /// Applies one preferred size in place through `rowOffsets`: the data's size, the item's row
    /// in its section's structure, the item's frame, the later items' tops and the later sections
    /// moved by the growth the structure reports. False (nothing changed) for what the full path
    /// handles: an element that is not an item of the data, a size the data refuses.
    private mutating func applyMeasured(_ preferred: PreferredSize) -> Bool {
        let id = preferred.item
        guard id.kind == .item, id.section >= 0, id.section < data.sectionCount, id.index >= 0,
              id.index < data.itemCount(inSection: id.section) else { return false }
        let s = id.section, row = id.index
        let old = data.size(section: s, item: row)
        do throws(LayoutError) {
            try data.setSize(
                ItemSize(width: preferred.size.width, height: preferred.size.height, spansAllColumns: old.spansAllColumns),
                section: s, item: row)
        } catch {
            return false
        }
        let growth: Double
        do throws(RowOffsetsError) {
            growth = try rowOffsets!.setHeight(preferred.size.height, row: row, section: s)
        } catch {
            // The data accepted the size, so the structure does too; were it not so, the full path
            // lays everything out from the data.
            return false
        }
        let start = frames.sectionItemStarts[s], end = frames.sectionItemStarts[s + 1]
        frames.itemHeight[start + row] = preferred.size.height
        if row + 1 < end - start {
            frames.itemMinY.shift((start + row + 1)..<end, by: growth)
        }
        frames.itemsRegionBottoms[s] = frames.itemsRegionTops[s] + rowOffsets!.regionHeight(section: s)
        if growth != 0 {
            for t in (s + 1)..<frames.sectionTops.count { frames.sectionTops[t] += growth }
        }
        needsPinning = true
        return true
    }

    private func pinsAnything(movingTo newBounds: Rect) -> Bool {
        (pinsHeaders && newBounds.minY != bounds.minY) || (pinsFooters && newBounds.maxY != bounds.maxY)
    }

    /// The elements in `rect`; pinned headers and footers at their current frames, including
    /// those whose natural frame lies outside `rect`.
    @inlinable
    public func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        precondition(!needsLayout && !needsIndex && !needsPinning, "prepare() must run after an invalidation before a query")
        // By the address of `frames` inside `self`: handed on by value, the ~180-byte struct would
        // be copied on every query, twice (also as `borrowing`, or via `withUnsafePointer(to:
        // frames)`); only `self`, already a parameter here, is passed on without a copy.
        withUnsafePointer(to: self) { layout in
            let frames = layout.pointer(to: \.frames)!
            // Inlinable, with the offsets path out of line: a query through the index costs what
            // it did before the offsets path, the call included.
            if layout.pointee.rowOffsets == nil {
                queryIndex.elements(in: rect, framesAt: frames, into: &results)
            } else {
                Self.appendElements(in: rect, layout: layout, framesAt: frames, into: &results)
            }
            if !pinned.isEmpty { pinned.applyPinnedFrames(in: rect, framesAt: frames, to: &results) }
        }
    }

    /// The elements of `rect` through the offsets structures: per section the rect can meet, its
    /// supplementary views, then its items from the first row the structure finds at the rect's
    /// top until one starts below the rect.
    @inline(never) @usableFromInline
    static func appendElements(
        in rect: Rect, layout: UnsafePointer<SectionedLayout>, framesAt frames: UnsafePointer<LayoutFrames>,
        into results: inout [LayoutAttributes]
    ) {
        results.removeAll(keepingCapacity: true)
        guard !rect.minY.isNaN, !rect.maxY.isNaN else { return }
        let offsets = layout.pointee.rowOffsets!
        for s in frames.sectionRange(meetingMinY: rect.minY, maxY: rect.maxY) {
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
            let start = frames.pointee.sectionItemStarts[s], count = frames.pointee.sectionItemStarts[s + 1] - start
            guard count > 0 else { continue }
            let regionTop = frames.pointee.sectionTops[s] + frames.pointee.itemsRegionTops[s]
            var row = offsets.firstRow(reaching: rect.minY - regionTop, section: s)
            while row < count {
                let top = regionTop + offsets.top(ofRow: row, section: s)
                if top >= rect.maxY { break }
                let global = start + row
                let frame = Rect(x: frames.pointee.itemMinX[global], y: top, width: frames.pointee.itemWidth[global], height: frames.pointee.itemHeight[global])
                if rect.intersects(frame) { results.append(LayoutAttributes(id: .item(row, section: s), frame: frame)) }
                row += 1
            }
        }
    }

    public func attributes(for element: ElementID) throws -> LayoutAttributes {
        if !needsPinning, let attributes = pinned.attributes(of: element, frames: frames) { return attributes }
        if let offsets = rowOffsets, element.kind == .item, element.section >= 0, element.section < frames.sectionCount,
           element.index >= 0, element.index < frames.itemRange(inSection: element.section).count
        {
            let s = element.section, global = frames.sectionItemStarts[s] + element.index
            let top = frames.sectionTops[s] + frames.itemsRegionTops[s] + offsets.top(ofRow: element.index, section: s)
            return LayoutAttributes(id: element, frame: Rect(x: frames.itemMinX[global], y: top, width: frames.itemWidth[global], height: frames.itemHeight[global]))
        }
        guard let attributes = frames.attributes(of: element) else {
            throw LayoutError(field: "element", reason: .noSuchElement(element))
        }
        return attributes
    }

    // MARK: Changes

    /// Replaces the query strategy; the index is built by the next `prepare()`.
    public mutating func setQueryMode(_ mode: RectQueryMode) {
        queryMode = mode
        needsIndex = true
    }

    /// Changes the data; the next `prepare()` lays everything out again. Faster, incremental
    /// paths (waterfall appends and edits) live in the update modes.
    public mutating func updateData(_ body: (inout LayoutData) throws(LayoutError) -> Void) throws(LayoutError) {
        try body(&data)
        invalidate(with: .dataSourceCounts)
    }

    // MARK: Layout

    /// Lays out every section from scratch: O(n) for list and flow, O(n·columns) for waterfall.
    public mutating func layoutAll() {
        SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data, into: &frames)
        layoutPasses += 1
        rowOffsets?.rebuild(frames: frames, styles: styles)
        pinned.configure(frames: frames, styles: styles)
        needsPinning = true
    }

    /// Changes how bounds changes are handled; the pinned frames are recomputed by the next `prepare()`.
    public mutating func setPinningMode(_ mode: PinningMode) {
        pinningMode = mode
        needsPinning = true
    }

    /// The frames of `data` laid out from scratch.
    public static func computeFrames(bounds: Rect, styles: [SectionStyle], data: LayoutData) -> LayoutFrames {
        var frames = LayoutFrames()
        computeFrames(bounds: bounds, styles: styles, data: data, into: &frames)
        return frames
    }

    /// Lays `data` out from scratch into `frames`, reusing its storage in place (pass a uniquely
    /// referenced value, or every array is copied on its first write).
    public static func computeFrames(
        bounds: Rect, styles: [SectionStyle], data: LayoutData, into frames: inout LayoutFrames
    ) {
        let sectionCount = data.sectionCount
        let itemCount = data.itemCount
        frames.contentWidth = bounds.width
        frames.sectionItemStarts = data.sectionStarts
        // Per-section arrays are moved out while the item arrays are borrowed, then put back.
        var sectionTops = frames.sectionTops, headerHeights = frames.headerHeights
        var footerHeights = frames.footerHeights, regionTops = frames.itemsRegionTops
        var regionBottoms = frames.itemsRegionBottoms, hasBackground = frames.hasBackground
        frames.sectionTops = []; frames.headerHeights = []; frames.footerHeights = []
        frames.itemsRegionTops = []; frames.itemsRegionBottoms = []; frames.hasBackground = []
        resize(&sectionTops, to: sectionCount + 1)
        resize(&headerHeights, to: sectionCount)
        resize(&footerHeights, to: sectionCount)
        resize(&regionTops, to: sectionCount)
        resize(&regionBottoms, to: sectionCount)
        if hasBackground.count != sectionCount { hasBackground = [Bool](repeating: false, count: sectionCount) }

        var top = 0.0
        sectionTops[0] = 0
        // The styles are read in place: a copy of a `SectionStyle` per section (its kind's payload
        // holds an array) would cost reference counting on every relayout.
        frames.withItemWriter(resettingTo: itemCount) { items in
            styles.withUnsafeBufferPointer { styles in
                data.widths.withUnsafeBufferPointer { dataWidths in
                    data.heights.withUnsafeBufferPointer { dataHeights in
                        data.spansAllColumns.withUnsafeBufferPointer { spans in
                            for s in 0..<sectionCount {
                                let style = styles.baseAddress! + s % styles.count
                                let range = data.sectionStarts[s]..<data.sectionStarts[s + 1]
                                let insets = style.pointee.insets
                                let headerHeight = style.pointee.headerHeight
                                let footerHeight = style.pointee.footerHeight
                                let placement = SectionPlacement(
                                    widths: UnsafeBufferPointer(rebasing: dataWidths[range]),
                                    heights: UnsafeBufferPointer(rebasing: dataHeights[range]),
                                    spansAllColumns: UnsafeBufferPointer(rebasing: spans[range]),
                                    regionLeft: insets.left,
                                    regionWidth: bounds.width - insets.horizontal,
                                    regionTop: headerHeight + insets.top,
                                    itemSpacing: style.pointee.itemSpacing,
                                    lineSpacing: style.pointee.lineSpacing,
                                    minX: UnsafeMutableBufferPointer(rebasing: items.minX[range]),
                                    minY: UnsafeMutableBufferPointer(rebasing: items.minY.base[range]),
                                    width: UnsafeMutableBufferPointer(rebasing: items.width[range]),
                                    height: UnsafeMutableBufferPointer(rebasing: items.height[range]))
                                let bottom = placeItems(placement, kind: style.pointee.kind)
                                let sectionHeight = bottom + insets.bottom + footerHeight
                                headerHeights[s] = headerHeight
                                footerHeights[s] = footerHeight
                                regionTops[s] = placement.regionTop
                                regionBottoms[s] = bottom
                                hasBackground[s] = style.pointee.background
                                top += sectionHeight
                                sectionTops[s + 1] = top
                            }
                        }
                    }
                }
            }
        }
        frames.sectionTops = sectionTops
        frames.headerHeights = headerHeights
        frames.footerHeights = footerHeights
        frames.itemsRegionTops = regionTops
        frames.itemsRegionBottoms = regionBottoms
        frames.hasBackground = hasBackground
    }

    /// Places the items of one section with the algorithm `kind` names.
    @inlinable
    public static func placeItems(_ placement: SectionPlacement, kind: SectionKind) -> Double {
        switch kind {
        case .list:
            return ListSectionLayout.placeItems(placement)
        case .flow(let justify, let align):
            return FlowSectionLayout.placeItems(placement, justify: justify, align: align)
        case .waterfall(let waterfall):
            return WaterfallSectionLayout.placeItems(placement, style: waterfall)
        }
    }

    private static func resize(_ array: inout [Double], to count: Int) {
        if array.count > count { array.removeLast(array.count - count) }
        else if array.count < count { array.append(contentsOf: repeatElement(0, count: count - array.count)) }
    }
}
