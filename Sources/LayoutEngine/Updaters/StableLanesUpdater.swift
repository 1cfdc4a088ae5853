/// The `stable-lanes` update mode: TanStack Virtual's cached lane assignments (docs/modes.md). An item keeps the column ("lane") it was given, so a height edit moves only the
/// later items of that lane instead of re-routing the rest of the section.
///
/// **How the placement differs from shortest-first.** An item gets its lane once, when it is
/// added (initial data, append, insert, new section): the section's render direction applied to
/// the column state at its position — shortest-first by the section's placement rule (ties to the
/// leftmost by default; `last-index` and `grid-lanes` read the order state before the item back
/// from the kept lanes). Afterwards it stays
/// in that lane whatever happens to the heights before it, so after edits an item is no longer
/// necessarily in the shortest column. Until the first edit the placement equals shortest-first.
/// Full-width items remain barriers: a full-width item starts below the tallest lane (plus
/// `lineSpacing` when a lane holds an item) and levels every lane. Sections whose style changes
/// (styles cycle by index, so inserting or removing a section can change later ones) are laid out
/// afresh. LayoutReference's `StableLanesReference` is the from-scratch definition.
///
/// **The truth is counted, not flat.** Each section's items live in a `LaneSequence`: chunks in
/// index order under a summary tree whose nodes map the lane state before a run of items to the
/// state after it. The updater keeps, besides, only each section's items-region bottom and the
/// section tops. So for a waterfall section an insert, a delete or a height change anywhere costs
/// O(chunk + lanes · 8 · log₈ n) (chunks of up to 256 items): validate, find the lane state at the position in the tree (the new item's
/// lane), edit one chunk, recompute its summary and its ancestors, and the section's bottom from
/// the root; then restack the sections, O(sections). Appends are the same at the end. List and
/// flow sections, and sections laid out afresh, cost O(section) as before.
///
/// **`data` and `frames` are views**, materialised from the sequences on the first read after a
/// change: O(n) (a full pass with the kept lanes, the same arithmetic in the same order as the
/// reference), outside the timed `apply`. `itemFrame(section:item:)` and
/// `itemIDs(intersecting:into:)` answer from the tree without materialising. Because a read caches
/// into the shared storage, the type is not `Sendable`: read it from one thread at a time.
public struct StableLanesUpdater: LayoutUpdater {
    private(set) var storage: StableLanesStorage

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        try self.init(bounds: bounds, styles: styles, data: data, chunkCapacity: nil)
    }

    /// An updater whose sequences use chunks of at most `chunkCapacity` items (tests use tiny
    /// chunks so that a few dozen items exercise splits, merges and the tree).
    init(bounds: Rect, styles: [SectionStyle], data: LayoutData, chunkCapacity: Int?) throws(LayoutError) {
        try UpdaterSupport.validate(bounds: bounds, styles: styles)
        storage = StableLanesStorage(bounds: bounds, styles: styles, data: data, chunkCapacity: chunkCapacity)
    }

    /// The data, materialised from the sequences on the first read after a change (O(n)).
    public var data: LayoutData { storage.materializedData() }

    /// The frames, materialised on the first read after a change (O(n), with the kept lanes).
    public var frames: LayoutFrames { storage.materializedFrames() }

    /// Validates the change (the error `LayoutData` would throw; a failed change leaves the
    /// updater as it was), then applies it to the sequences.
    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        try storage.validate(change)
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.apply(change)
    }

    /// The absolute frame of item `item` of `section`, from the summary tree without
    /// materialising: O(lanes · log n + chunk) in a waterfall section, O(section) in a list or
    /// flow section. Nil when there is no such item.
    public func itemFrame(section: Int, item: Int) -> Rect? { storage.itemFrame(section: section, item: item) }

    /// The items whose frames meet `rect` (positive area, as `Rect.intersects`), in index order,
    /// from the summary tree without materialising. In a waterfall section: a descent to the
    /// first chunk that reaches below `rect.minY`, O(lanes · log n), then a walk until every lane
    /// starts below `rect.maxY` — the items that meet the rect plus those interleaved with them in
    /// index order (when lanes drift far apart after edits, the items of the other lanes between
    /// them), and at most a chunk more. List and flow sections: O(section). Sections: O(sections).
    /// `results` is emptied (keeping its capacity) and filled, so a caller that reuses one buffer
    /// allocates no answer array per query.
    public func itemIDs(intersecting rect: Rect, into results: inout [ElementID]) {
        storage.itemIDs(intersecting: rect, into: &results)
    }

    /// Lane of every item of `section` (-1 for full-width items, -2 for list and flow items), for tests.
    func lanes(ofSection section: Int) -> [Int] {
        var lanes: [Int] = []
        storage.sections[section].forEachChunk { lanes.append(contentsOf: $0.lanes.map(Int.init)) }
        return lanes
    }

    /// Chunks of `section`, for tests.
    func chunkCount(ofSection section: Int) -> Int { storage.sections[section].chunks.count }
}

/// The mutable state of a `StableLanesUpdater`, in a class so that reading `data` and `frames`
/// can cache what it materialises; the updater copies it before mutating when it is shared.
final class StableLanesStorage {
    typealias ColumnState = WaterfallSectionLayout.ColumnState

    let bounds: Rect
    let styles: [SectionStyle]
    let styleGeometry: [WaterfallGeometry?]
    /// Placement rule per style, and whether any keeps an order state (`last-index`,
    /// `grid-lanes`; false for the default, whose operations test only that flag).
    let styleRules: [WaterfallRule]
    let keepsOrder: Bool
    let chunkCapacity: Int?
    /// Per section: its items.
    var sections: [LaneSequence] = []
    /// Per section: the bottom of its items region, relative to the section top.
    var regionBottoms: [Double] = []
    /// `sections.count + 1` absolute section tops, stacked as `LayoutFrames.restackSections` does.
    var sectionTops: [Double] = [0]
    private var cachedData: LayoutData?
    private var cachedFrames: LayoutFrames?
    /// Scratch lane states and lanes, reused so that a change allocates nothing in steady state.
    private var state = ColumnState.empty
    private var otherState = ColumnState.empty
    private var newLanes: [Int32] = []

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData, chunkCapacity: Int?) {
        self.bounds = bounds
        self.styles = styles
        self.styleGeometry = WaterfallGeometry.perStyle(styles, contentWidth: bounds.width)
        self.styleRules = WaterfallRule.perStyle(styles)
        self.keepsOrder = styleRules.contains { $0.keepsOrder }
        self.chunkCapacity = chunkCapacity
        for s in 0..<data.sectionCount {
            let range = data.itemRange(inSection: s)
            sections.append(freshSequence(
                section: s, widths: Array(data.widths[range]), heights: Array(data.heights[range]),
                spans: Array(data.spansAllColumns[range])))
            regionBottoms.append(0)
            sectionTops.append(0)
            refreshRegionBottom(section: s)
        }
        restack(from: 0)
    }

    private init(copying other: StableLanesStorage) {
        bounds = other.bounds
        styles = other.styles
        styleGeometry = other.styleGeometry
        styleRules = other.styleRules
        keepsOrder = other.keepsOrder
        chunkCapacity = other.chunkCapacity
        sections = other.sections
        regionBottoms = other.regionBottoms
        sectionTops = other.sectionTops
        cachedData = other.cachedData
        cachedFrames = other.cachedFrames
    }

    func copy() -> StableLanesStorage { StableLanesStorage(copying: self) }

    private func style(_ s: Int) -> SectionStyle { styles[s % styles.count] }
    private func geometry(_ s: Int) -> WaterfallGeometry? { styleGeometry[s % styles.count] }
    private func regionTop(_ s: Int) -> Double { style(s).headerHeight + style(s).insets.top }

    /// Sets `state` to the lane state at the top of waterfall section `s`'s items region.
    private func resetState(_ state: inout ColumnState, section s: Int) {
        let lanes = sections[s].laneCount, top = regionTop(s)
        if state.bottoms.count != lanes {
            state = ColumnState(columns: lanes, top: top)
        } else {
            for c in 0..<lanes {
                state.bottoms[c] = top
                state.occupied[c] = false
            }
        }
    }

    // MARK: Changes

    func validate(_ change: LayoutChange) throws(LayoutError) {
        try change.validate(sectionCount: sections.count) { sections[$0].count }
    }

    /// Applies a validated change.
    func apply(_ change: LayoutChange) {
        cachedData = nil
        cachedFrames = nil
        switch change {
        case .appendItems(let s, let items):
            insert(items, section: s, at: sections[s].count)
        case .insertItems(let s, let at, let items):
            insert(items, section: s, at: at)
        case .removeItems(let s, let at, let count):
            guard count > 0 else { return }
            sections[s].remove(at: at, count: count)
            refreshRegionBottom(section: s)
            restack(from: s)
        case .setHeight(let s, let item, let height):
            guard sections[s].item(item).height != height else { return }
            sections[s].setHeight(height, at: item)
            refreshRegionBottom(section: s)
            restack(from: s)
        case .insertSection(let at, let items):
            sections.insert(freshSequence(
                section: at, widths: items.map(\.width), heights: items.map(\.height), spans: items.map(\.spansAllColumns)),
                at: at)
            regionBottoms.insert(0, at: at)
            sectionTops.append(0)
            refreshRegionBottom(section: at)
            for t in (at + 1)..<sections.count where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t - 1) {
                layOutAfresh(section: t)
            }
            restack(from: at)
        case .removeSection(let at):
            sections.remove(at: at)
            regionBottoms.remove(at: at)
            sectionTops.removeLast()
            for t in at..<sections.count where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + 1) {
                layOutAfresh(section: t)
            }
            restack(from: at)
        case .moveItem(let from, let to):
            // A removal and an insert (UIKit's meaning of a move): the item gets its lane afresh
            // at the destination, as an inserted item does.
            let moved = sections[from.section].item(from.item)
            sections[from.section].remove(at: from.item, count: 1)
            refreshRegionBottom(section: from.section)
            insert(
                [ItemSize(width: moved.width, height: moved.height, spansAllColumns: moved.lane == LaneSequence.fullWidth)],
                section: to.section, at: to.item)
            restack(from: Swift.min(from.section, to.section))
        case .moveSection(let from, let to):
            guard from != to else { return }
            // The section keeps its lanes unless its new index cycles it to another style; the
            // sections between the two indices moved by one index and are laid out afresh when
            // that changes theirs.
            sections.insert(sections.remove(at: from), at: to)
            regionBottoms.insert(regionBottoms.remove(at: from), at: to)
            let shift = from < to ? 1 : -1
            for t in Swift.min(from, to)...Swift.max(from, to)
            where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t == to ? from : t + shift) {
                layOutAfresh(section: t)
            }
            restack(from: Swift.min(from, to))
        case .reloadItems(let s, let at, let items):
            // A reload is UIKit's delete and insert of the same items: they get their lanes afresh.
            guard !items.isEmpty else { return }
            sections[s].remove(at: at, count: items.count)
            insert(items, section: s, at: at)
        }
    }

    /// Inserts items at `at` of section `s`: in a waterfall, each new item gets the lane the
    /// render direction picks from the lane state at its position (read from the tree), as the
    /// reference assigns it when it reaches the item.
    private func insert(_ items: [ItemSize], section s: Int, at: Int) {
        guard !items.isEmpty else { return }
        newLanes.removeAll(keepingCapacity: true)
        if let geometry = geometry(s) {
            resetState(&state, section: s)
            if at == sections[s].count {
                sections[s].advanceToEnd(&state)
            } else {
                sections[s].advance(&state, toItem: at)
            }
            var newLanes = self.newLanes
            self.newLanes = []
            if keepsOrder && styleRules[s % styles.count].keepsOrder {
                assignKeepingOrder(items, section: s, at: at, geometry: geometry, into: &newLanes)
            } else {
                state.withCursor(geometry) { cursor in
                    for (k, item) in items.enumerated() {
                        newLanes.append(Int32(cursor.place(item: at + k, height: item.height, spansAllColumns: item.spansAllColumns).column))
                    }
                }
            }
            self.newLanes = newLanes
        } else {
            for item in items { newLanes.append(item.spansAllColumns ? LaneSequence.fullWidth : LaneSequence.noLane) }
        }
        sections[s].insert(items, lanes: newLanes, at: at)
        refreshRegionBottom(section: s)
        restack(from: s)
    }

    /// `insert`'s lanes under a rule that keeps an order state, out of line so that the default
    /// rule's `insert` carries none of it: the order state before `at`, read back from the kept
    /// lanes, then each item by the rule from `state`.
    @inline(never)
    private func assignKeepingOrder(
        _ items: [ItemSize], section s: Int, at: Int, geometry: WaterfallGeometry, into newLanes: inout [Int32]
    ) {
        var order = sections[s].order(before: at)
        state.withCursor(geometry, rule: styleRules[s % styles.count], order: &order) { cursor in
            for (k, item) in items.enumerated() {
                let placed = cursor.place(item: at + k, height: item.height, spansAllColumns: item.spansAllColumns)
                newLanes.append(Int32(placed.column))
            }
        }
    }

    /// A sequence for section `s` with its style's lanes assigned afresh (the render direction,
    /// item by item, as the full layout places them).
    private func freshSequence(section s: Int, widths: [Double], heights: [Double], spans: [Bool]) -> LaneSequence {
        var sequence = LaneSequence(geometry: geometry(s), chunkCapacity: chunkCapacity)
        var lanes = [Int32](repeating: LaneSequence.noLane, count: heights.count)
        if let geometry = geometry(s) {
            var state = ColumnState(columns: sequence.laneCount, top: regionTop(s))
            let rule = styleRules[s % styles.count]
            if rule.keepsOrder {
                var order = ColumnState.startOrder(columns: sequence.laneCount)
                state.withCursor(geometry, rule: rule, order: &order) { cursor in
                    for i in 0..<heights.count {
                        lanes[i] = Int32(cursor.place(item: i, height: heights[i], spansAllColumns: spans[i]).column)
                    }
                }
            } else {
                state.withCursor(geometry) { cursor in
                    for i in 0..<heights.count {
                        lanes[i] = Int32(cursor.place(item: i, height: heights[i], spansAllColumns: spans[i]).column)
                    }
                }
            }
        } else {
            for i in 0..<heights.count where spans[i] { lanes[i] = LaneSequence.fullWidth }
        }
        sequence.replaceAll(widths: widths, heights: heights, lanes: lanes)
        return sequence
    }

    /// Section `s` after its style changed: its items with fresh lanes. O(section).
    private func layOutAfresh(section s: Int) {
        let (widths, heights, spans) = items(ofSection: s)
        sections[s] = freshSequence(section: s, widths: widths, heights: heights, spans: spans)
        refreshRegionBottom(section: s)
    }

    /// The items of section `s` as flat arrays. O(section).
    private func items(ofSection s: Int) -> (widths: [Double], heights: [Double], spans: [Bool]) {
        var widths: [Double] = [], heights: [Double] = [], spans: [Bool] = []
        widths.reserveCapacity(sections[s].count)
        heights.reserveCapacity(sections[s].count)
        spans.reserveCapacity(sections[s].count)
        sections[s].forEachChunk { chunk in
            widths.append(contentsOf: chunk.widths)
            heights.append(contentsOf: chunk.heights)
            for lane in chunk.lanes { spans.append(lane == LaneSequence.fullWidth) }
        }
        return (widths, heights, spans)
    }

    /// Recomputes the items-region bottom of section `s`: from the root summary of a waterfall
    /// (O(lanes)), by laying a list or flow section out (O(section)).
    private func refreshRegionBottom(section s: Int) {
        if sections[s].count == 0 {
            regionBottoms[s] = regionTop(s)
        } else if geometry(s) != nil {
            resetState(&state, section: s)
            sections[s].advanceToEnd(&state)
            regionBottoms[s] = state.tallest
        } else {
            regionBottoms[s] = sectionFrames(s).itemsRegionBottoms[0]
        }
    }

    /// Section `s` laid out alone by its style (list and flow sections). O(section).
    private func sectionFrames(_ s: Int) -> LayoutFrames {
        let (widths, heights, spans) = items(ofSection: s)
        let data = try! LayoutData(widths: widths, heights: heights, spansAllColumns: spans, counts: [heights.count])
        return SectionedLayout.computeFrames(bounds: bounds, styles: [style(s)], data: data)
    }

    /// The section tops after section `s`, with `LayoutFrames.restackSections`' arithmetic.
    private func restack(from s: Int) {
        for t in s..<sections.count {
            let style = style(t)
            sectionTops[t + 1] = sectionTops[t] + (regionBottoms[t] + style.insets.bottom + style.footerHeight)
        }
    }

    // MARK: Reading

    func materializedData() -> LayoutData {
        if let cachedData { return cachedData }
        var widths: [Double] = [], heights: [Double] = [], spans: [Bool] = []
        let total = sections.reduce(0) { $0 + $1.count }
        widths.reserveCapacity(total)
        heights.reserveCapacity(total)
        spans.reserveCapacity(total)
        for sequence in sections {
            sequence.forEachChunk { chunk in
                widths.append(contentsOf: chunk.widths)
                heights.append(contentsOf: chunk.heights)
                for lane in chunk.lanes { spans.append(lane == LaneSequence.fullWidth) }
            }
        }
        let data = try! LayoutData(widths: widths, heights: heights, spansAllColumns: spans, counts: sections.map(\.count))
        cachedData = data
        return data
    }

    /// Every frame from scratch: list and flow sections as `SectionedLayout` places them,
    /// waterfall sections item by item in their kept lanes through a `WaterfallCursor`. O(n).
    func materializedFrames() -> LayoutFrames {
        if let cachedFrames { return cachedFrames }
        let data = materializedData()
        var frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        for s in 0..<sections.count {
            guard let geometry = geometry(s), sections[s].count > 0 else { continue }
            var state = ColumnState(columns: sections[s].laneCount, top: regionTop(s))
            var global = data.sectionStarts[s]
            frames.withItemWriter { items in
                state.withCursor(geometry) { cursor in
                    sections[s].forEachChunk { chunk in
                        for i in 0..<chunk.count {
                            let lane = Int(chunk.lanes[i]), height = chunk.heights[i]
                            let placed = lane < 0
                                ? cursor.placeFullWidth(height: height) : cursor.place(height: height, inColumn: lane)
                            items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                            global += 1
                        }
                    }
                }
            }
            frames.itemsRegionBottoms[s] = state.tallest
        }
        frames.restackSections(from: 0, styles: styles)
        frames._checkInvariants()
        cachedFrames = frames
        return frames
    }

    func itemFrame(section s: Int, item i: Int) -> Rect? {
        guard s >= 0, s < sections.count, i >= 0, i < sections[s].count else { return nil }
        guard let geometry = geometry(s) else {
            let frames = sectionFrames(s)
            let frame = frames.itemFrame(global: i, section: 0)
            return Rect(x: frame.x, y: sectionTops[s] + frame.y, width: frame.width, height: frame.height)
        }
        var state = ColumnState(columns: sections[s].laneCount, top: regionTop(s))
        sections[s].advance(&state, toItem: i)
        let item = sections[s].item(i)
        let placed = state.withCursor(geometry) { cursor in
            item.lane < 0 ? cursor.placeFullWidth(height: item.height) : cursor.place(height: item.height, inColumn: Int(item.lane))
        }
        return Rect(x: placed.minX, y: sectionTops[s] + placed.minY, width: placed.width, height: item.height)
    }

    func itemIDs(intersecting rect: Rect, into result: inout [ElementID]) {
        result.removeAll(keepingCapacity: true)
        for s in 0..<sections.count where sectionTops[s] < rect.maxY && sectionTops[s + 1] > rect.minY {
            let top = sectionTops[s]
            guard let geometry = geometry(s) else {
                let frames = sectionFrames(s)
                for i in 0..<sections[s].count {
                    let frame = frames.itemFrame(global: i, section: 0)
                    if rect.intersects(Rect(x: frame.x, y: top + frame.y, width: frame.width, height: frame.height)) {
                        result.append(.item(i, section: s))
                    }
                }
                continue
            }
            var state = ColumnState(columns: sections[s].laneCount, top: regionTop(s))
            var scratch = state
            var (chunk, index) = sections[s].firstChunk(endingBelow: rect.minY - top, state: &state, scratch: &scratch)
            while chunk < sections[s].chunks.count, (state.bottoms.min() ?? 0) <= rect.maxY - top {
                let items = sections[s].chunks[chunk]
                state.withCursor(geometry) { cursor in
                    for i in 0..<items.count {
                        let lane = Int(items.lanes[i]), height = items.heights[i]
                        let placed = lane < 0
                            ? cursor.placeFullWidth(height: height) : cursor.place(height: height, inColumn: lane)
                        if rect.intersects(Rect(x: placed.minX, y: top + placed.minY, width: placed.width, height: height)) {
                            result.append(.item(index + i, section: s))
                        }
                    }
                }
                index += items.count
                chunk += 1
            }
        }
    }
}
