import LayoutEngine

/// The oracle of the `stable-lanes` update mode: it remembers each waterfall item's lane and,
/// after every change, lays everything out again from scratch with `ReferenceLayout`, waterfall
/// items in the lanes they remember. O(n) per change, and simple enough to be checked by eye.
///
/// The rule: items are placed in index order; an item that has no lane yet (just added: initial
/// data, append, insert, new section) gets one by the section's render direction from the column
/// state at its position (shortest-first, ties to the leftmost) and keeps it afterwards; an item
/// with a lane goes to that lane's bottom (plus `lineSpacing` when the lane already holds an
/// item). Full-width items stay barriers exactly as in a plain waterfall. When a section's style
/// changes (styles cycle by section index, so inserting, removing or moving a section can change
/// the style of later ones) its lanes are forgotten. A moved item and a reloaded item are, as
/// UIKit has them, removed and inserted: they get their lanes afresh; a moved section keeps its
/// items' lanes unless its style changes.
public struct StableLanesReference: UpdateExpectation {
    public let styles: [SectionStyle]
    public private(set) var data: LayoutData
    /// The layout of `data` with the remembered lanes.
    public private(set) var layout: ReferenceLayout
    /// The lane of every item, per section (`ReferenceWaterfallSection.unassigned` until placed).
    private var lanes: [[Int]]

    /// Throws what the engine throws for an unusable viewport or style.
    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        self.styles = styles
        self.data = data
        var remembered: [[Int]]? = (0..<data.sectionCount).map { Self.fresh(data.itemCount(inSection: $0)) }
        layout = try ReferenceLayout(data: data, styles: styles, viewportWidth: bounds.width, lanes: &remembered)
        lanes = remembered!
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        try change.apply(to: &data)
        switch change {
        case .appendItems(let section, let items):
            lanes[section].append(contentsOf: Self.fresh(items.count))
        case .insertItems(let section, let at, let items):
            lanes[section].insert(contentsOf: Self.fresh(items.count), at: at)
        case .removeItems(let section, let at, let count):
            lanes[section].removeSubrange(at..<(at + count))
        case .setHeight:
            break
        case .insertSection(let at, let items):
            lanes.insert(Self.fresh(items.count), at: at)
            for t in (at + 1)..<lanes.count where styleChanged(section: t, previousIndex: t - 1) {
                lanes[t] = Self.fresh(lanes[t].count)
            }
        case .removeSection(let at):
            lanes.remove(at: at)
            for t in at..<lanes.count where styleChanged(section: t, previousIndex: t + 1) {
                lanes[t] = Self.fresh(lanes[t].count)
            }
        case .moveItem(let from, let to):
            lanes[from.section].remove(at: from.item)
            lanes[to.section].insert(ReferenceWaterfallSection.unassigned, at: to.item)
        case .moveSection(let from, let to):
            // Where each section now at t was before the move.
            let previous = (0..<lanes.count).map { t -> Int in
                if t == to { return from }
                if from < to, t >= from, t < to { return t + 1 }
                if from > to, t > to, t <= from { return t - 1 }
                return t
            }
            let old = lanes
            lanes = previous.map { old[$0] }
            for t in 0..<lanes.count where styleChanged(section: t, previousIndex: previous[t]) {
                lanes[t] = Self.fresh(lanes[t].count)
            }
        case .reloadItems(let s, let at, let items):
            lanes[s].replaceSubrange(at..<(at + items.count), with: Self.fresh(items.count))
        }
        layOut()
    }

    /// Every element of `frames` against the layout with the remembered lanes, or nil.
    public func firstDifference(of frames: LayoutFrames) -> String? {
        ReferenceCheck.firstMismatch(of: frames, against: layout, coverage: .whole)
    }

    /// Lays everything out again with the remembered lanes, in the layout's own storage. The
    /// lanes are moved out while the layout writes them, so that they are not copied.
    private mutating func layOut() {
        var remembered: [[Int]]? = lanes
        lanes = []
        layout.relayOut(data, lanes: &remembered)
        lanes = remembered!
    }

    private static func fresh(_ count: Int) -> [Int] {
        [Int](repeating: ReferenceWaterfallSection.unassigned, count: count)
    }

    /// Whether the section now at `t`, at `previousIndex` before a section was inserted or
    /// removed, cycles to another style.
    private func styleChanged(section t: Int, previousIndex: Int) -> Bool {
        styles[t % styles.count] != styles[previousIndex % styles.count]
    }
}
