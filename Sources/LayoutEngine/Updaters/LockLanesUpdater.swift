/// The `lock-lanes` update mode: FlashList's proposal for masonry (lock lanes up to the last
/// engaged index). The items the user has seen keep their columns; every later item is placed
/// afresh by the section's rule after each change, so the part of the list nobody has looked at
/// yet stays packed.
///
/// **What the user has seen** is a watermark, the global index of the last item seen: items at or
/// before it are seen. The user starts at the top (the viewport at offset 0), and at each change
/// is where the change happens — the *change's viewport* of docs/csv.md's lane-stability
/// metrics: the viewport's height with its top at the changed item's top (an insert: the item
/// that was at the index; a removal, a height change, a reload: the first item removed or
/// changed; a move: the moved item where it was; a section change: the section's top, a moved
/// section's where it was) or, for an append, its bottom at the content's end; clamped to the
/// content. A move and a reload are, as UIKit has them, a removal and an insert: the moved or
/// reloaded items are new items, placed by the rule. Before the change is applied, the last item whose frame meets that viewport
/// raises the watermark. The watermark then moves with the item it names: items inserted at or
/// before it push it on; when that item is removed it falls to the item before the removed ones.
///
/// **Placement.** Items in index order; a waterfall item at or before the watermark that has a
/// lane goes to that lane's bottom (plus `lineSpacing` when it holds an item); any other item
/// gets its column by the section's render direction and placement rule from the column state
/// at its position, and keeps it while it stays at or before the watermark. Full-width items are
/// barriers as everywhere. A section whose style changes (styles cycle by index) forgets its lanes.
///
/// Until the first edit the placement is shortest-first's. It differs from `stable-lanes` after
/// an edit: `stable-lanes` keeps every item's lane, this mode only the seen ones'. Its cost is a
/// full recompute's and a pass over the frames (O(n) per change); it is here for what it shows
/// the user, not for speed (docs/modes.md).
public struct LockLanesUpdater: LayoutUpdater {
    public let bounds: Rect
    public let styles: [SectionStyle]
    public private(set) var data: LayoutData
    public private(set) var frames: LayoutFrames
    /// Per global item: its lane, `LockLanesUpdater.fullWidth` for a full-width waterfall item or
    /// an item of another kind, `unassigned` while it has none.
    private var lanes: [Int32]
    /// The global index of the last item the user has seen (-1: none).
    public private(set) var lastSeen = -1

    static let unassigned: Int32 = -2
    static let fullWidth: Int32 = -1

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        try UpdaterSupport.validate(bounds: bounds, styles: styles)
        self.bounds = bounds
        self.styles = styles
        self.data = data
        frames = LayoutFrames()
        lanes = [Int32](repeating: Self.unassigned, count: data.itemCount)
        layOut()
        lastSeen = lastItem(meetingViewportAt: 0)
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        // The user looks at the change's viewport before it happens (validated first: a bad
        // change leaves everything as it was).
        var copy = data
        try change.apply(to: &copy)
        lastSeen = Swift.max(lastSeen, lastItem(meetingViewportAt: viewportTop(for: change)))
        let oldStarts = data.sectionStarts
        data = copy
        switch change {
        case .appendItems(let s, let items):
            inserted(items.count, atGlobal: oldStarts[s + 1])
        case .insertItems(let s, let at, let items):
            inserted(items.count, atGlobal: oldStarts[s] + at)
        case .removeItems(let s, let at, let count):
            removed(count, atGlobal: oldStarts[s] + at)
        case .setHeight:
            break
        case .insertSection(let at, let items):
            inserted(items.count, atGlobal: oldStarts[at])
            for t in (at + 1)..<data.sectionCount where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t - 1) {
                forgetLanes(ofSection: t)
            }
        case .removeSection(let at):
            removed(oldStarts[at + 1] - oldStarts[at], atGlobal: oldStarts[at])
            for t in at..<data.sectionCount where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + 1) {
                forgetLanes(ofSection: t)
            }
        case .moveItem(let from, let to):
            // A removal and an insert: the moved item is a new item at its destination.
            removed(1, atGlobal: oldStarts[from.section] + from.item)
            inserted(1, atGlobal: data.sectionStarts[to.section] + to.item)
        case .moveSection(let from, let to):
            guard from != to else { break }
            removed(oldStarts[from + 1] - oldStarts[from], atGlobal: oldStarts[from])
            inserted(data.itemCount(inSection: to), atGlobal: data.sectionStarts[to])
            let shift = from < to ? 1 : -1
            for t in Swift.min(from, to)...Swift.max(from, to)
            where t != to && UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + shift) {
                forgetLanes(ofSection: t)
            }
        case .reloadItems(let s, let at, let items):
            // A reload is a delete and an insert of the same items.
            removed(items.count, atGlobal: oldStarts[s] + at)
            inserted(items.count, atGlobal: oldStarts[s] + at)
        }
        layOut()
    }

    private mutating func inserted(_ count: Int, atGlobal p: Int) {
        lanes.insert(contentsOf: repeatElement(Self.unassigned, count: count), at: p)
        if p <= lastSeen { lastSeen += count }
    }

    private mutating func removed(_ count: Int, atGlobal p: Int) {
        lanes.removeSubrange(p..<(p + count))
        if lastSeen >= p + count {
            lastSeen -= count
        } else if lastSeen >= p {
            lastSeen = p - 1
        }
    }

    private mutating func forgetLanes(ofSection s: Int) {
        for g in data.itemRange(inSection: s) { lanes[g] = Self.unassigned }
    }

    /// Where the change's viewport starts, on the current frames (before the change).
    private func viewportTop(for change: LayoutChange) -> Double {
        let end = Swift.max(0, frames.contentHeight - bounds.height)
        func itemTop(_ s: Int, _ i: Int) -> Double {
            guard i < data.itemCount(inSection: s) else { return end }
            let g = frames.sectionItemStarts[s] + i
            return frames.sectionTops[s] + frames.itemMinY[g]
        }
        let top: Double
        switch change {
        case .appendItems: top = end
        case .insertItems(let s, let at, _), .removeItems(let s, let at, _): top = itemTop(s, at)
        case .setHeight(let s, let item, _): top = itemTop(s, item)
        case .insertSection(let at, _): top = at < frames.sectionCount ? frames.sectionTops[at] : end
        case .removeSection(let at): top = frames.sectionTops[at]
        case .moveItem(let from, _): top = itemTop(from.section, from.item)
        case .moveSection(let from, _): top = frames.sectionTops[from]
        case .reloadItems(let s, let at, _): top = itemTop(s, at)
        }
        return Swift.min(Swift.max(0, top), end)
    }

    /// The last global index whose frame meets the viewport whose top is at `top` (-1: none).
    private func lastItem(meetingViewportAt top: Double) -> Int {
        let bottom = top + bounds.height
        var last = -1
        for s in 0..<frames.sectionCount {
            let sectionTop = frames.sectionTops[s]
            guard sectionTop < bottom, frames.sectionTops[s + 1] >= top else { continue }
            for g in frames.itemRange(inSection: s) {
                let minY = sectionTop + frames.itemMinY[g], maxY = minY + frames.itemHeight[g]
                if minY < bottom && (maxY > top || (maxY == minY && minY >= top)) { last = g }
            }
        }
        return last
    }

    /// Lays everything out: the full layout, then each waterfall section again with its lanes,
    /// locked up to the watermark.
    private mutating func layOut() {
        SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data, into: &frames)
        for s in 0..<data.sectionCount {
            let style = styles[s % styles.count]
            let range = data.itemRange(inSection: s)
            guard case .waterfall = style.kind else {
                for g in range { lanes[g] = Self.fullWidth }
                continue
            }
            for g in range where g > lastSeen { lanes[g] = Self.unassigned }
            let lockedBelow = Swift.min(Swift.max(lastSeen + 1 - range.lowerBound, 0), range.count)
            frames.layOutWaterfallSection(
                s, bounds: bounds, style: style, data: data, lanes: &lanes, lockedBelow: lockedBelow)
        }
        frames.restackSections(from: 0, styles: styles)
        frames._checkInvariants()
    }
}

extension LayoutFrames {
    /// `layOutSection` for a waterfall section (its items' frames and region bottom; no restack) whose items keep the lanes in `lanes` (global
    /// indices) below section index `lockedBelow`; the others are placed by the rule and their
    /// lanes written back.
    mutating func layOutWaterfallSection(
        _ section: Int, bounds: Rect, style: SectionStyle, data: LayoutData, lanes: inout [Int32], lockedBelow: Int
    ) {
        guard case .waterfall(let waterfall) = style.kind else { return }
        let range = itemRange(inSection: section)
        let regionTop = style.headerHeight + style.insets.top
        if range.isEmpty {
            itemsRegionBottoms[section] = regionTop
            return
        }
        let geometry = WaterfallGeometry(style: style, contentWidth: bounds.width)!
        var state = WaterfallSectionLayout.ColumnState(columns: waterfall.columns, top: regionTop)
        var order = WaterfallSectionLayout.ColumnState.startOrder(columns: waterfall.columns)
        let base = range.lowerBound
        state.withCursor(geometry, rule: WaterfallRule(waterfall), order: &order) { cursor in
            withItemWriter { items in
                for i in 0..<range.count {
                    let g = base + i
                    let height = data.heights[g]
                    let placed: WaterfallPlacement
                    if data.spansAllColumns[g] {
                        placed = cursor.placeFullWidth(item: i, height: height)
                        lanes[g] = LockLanesUpdater.fullWidth
                    } else if i < lockedBelow, lanes[g] >= 0 {
                        let c = Int(lanes[g])
                        cursor.record(item: i, column: c)
                        placed = cursor.base.place(height: height, inColumn: c)
                    } else {
                        placed = cursor.place(item: i, height: height, spansAllColumns: false)
                        lanes[g] = Int32(placed.column)
                    }
                    items.setFrame(g, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                }
            }
        }
        itemsRegionBottoms[section] = Swift.max(regionTop, state.tallest)
    }
}
