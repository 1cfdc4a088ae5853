/// The reference of the `stable-lanes` mode: it remembers each waterfall item's lane and, after
/// every change, lays out everything again from scratch with those lanes. O(n) per change, and
/// simple enough to be checked by eye.
///
/// The rule (see `StableLanesUpdater`): items are placed in index order; an item that has no
/// lane yet (just added: initial data, append, insert, new section) gets one with the section's
/// render direction from the column state at its position — shortest-first, ties to the
/// leftmost — and keeps it afterwards; an item with a lane goes to that lane's bottom (plus
/// `lineSpacing` when the lane already holds an item). Full-width items stay barriers exactly as
/// in `WaterfallSectionLayout`. When a section's style changes (styles cycle by section index, so
/// inserting or removing a section can change the style of later ones) its lanes are forgotten.
public struct StableLanesReference: LayoutUpdater {
    /// A lane for an item that has none yet.
    static let unassigned = -2
    /// The lane of a full-width item (and of list and flow items, which have none).
    static let spanning = -1

    public let bounds: Rect
    public let styles: [SectionStyle]
    public private(set) var data: LayoutData
    public private(set) var frames = LayoutFrames()
    /// Lane of every item, per section.
    private(set) var lanes: [[Int]]

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        try UpdaterSupport.validate(bounds: bounds, styles: styles)
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.lanes = (0..<data.sectionCount).map { [Int](repeating: Self.unassigned, count: data.itemCount(inSection: $0)) }
        layOut()
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        try change.apply(to: &data)
        let fresh = { (count: Int) in [Int](repeating: Self.unassigned, count: count) }
        switch change {
        case .appendItems(let section, let items):
            lanes[section].append(contentsOf: fresh(items.count))
        case .insertItems(let section, let at, let items):
            lanes[section].insert(contentsOf: fresh(items.count), at: at)
        case .removeItems(let section, let at, let count):
            lanes[section].removeSubrange(at..<(at + count))
        case .setHeight:
            break
        case .insertSection(let at, let items):
            lanes.insert(fresh(items.count), at: at)
            for t in (at + 1)..<lanes.count where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t - 1) {
                lanes[t] = fresh(lanes[t].count)
            }
        case .removeSection(let at):
            lanes.remove(at: at)
            for t in at..<lanes.count where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + 1) {
                lanes[t] = fresh(lanes[t].count)
            }
        }
        layOut()
    }

    /// Everything from scratch: list and flow sections as `SectionedLayout` does, waterfall
    /// sections item by item with their remembered lanes.
    private mutating func layOut() {
        frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        for s in 0..<data.sectionCount {
            let style = styles[s % styles.count]
            guard case .waterfall(let waterfall) = style.kind else { continue }
            let columns = WaterfallColumns(
                style: waterfall, regionLeft: style.insets.left,
                regionWidth: bounds.width - style.insets.horizontal, spacing: style.itemSpacing)
            let regionTop = style.headerHeight + style.insets.top
            var state = WaterfallSectionLayout.ColumnState(columns: waterfall.columns, top: regionTop)
            let start = data.sectionStarts[s]
            var sectionLanes = lanes[s]
            let data = self.data, regionWidth = bounds.width - style.insets.horizontal
            frames.withItemWriter { items in
                for i in 0..<data.itemCount(inSection: s) {
                    let global = start + i
                    let height = data.heights[global]
                    if data.spansAllColumns[global] {
                        sectionLanes[i] = Self.spanning
                        var top = state.bottoms.max()!
                        if state.occupied.contains(true) { top += style.lineSpacing }
                        items.setFrame(global, minX: style.insets.left, minY: top, width: regionWidth, height: height)
                        for c in 0..<waterfall.columns {
                            state.bottoms[c] = top + height
                            state.occupied[c] = true
                        }
                    } else {
                        if sectionLanes[i] == Self.unassigned {
                            sectionLanes[i] = state.column(forItem: i, direction: waterfall.direction)
                        }
                        let c = sectionLanes[i]
                        let top = state.bottoms[c] + (state.occupied[c] ? style.lineSpacing : 0)
                        items.setFrame(global, minX: columns.minX[c], minY: top, width: columns.width[c], height: height)
                        state.bottoms[c] = top + height
                        state.occupied[c] = true
                    }
                }
            }
            lanes[s] = sectionLanes
            frames.itemsRegionBottoms[s] = data.itemCount(inSection: s) == 0 ? regionTop : state.tallest
        }
        frames.restackSections(from: 0, styles: styles)
        frames.checkInvariants()
    }
}
