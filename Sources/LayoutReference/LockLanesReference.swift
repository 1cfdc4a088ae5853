import LayoutEngine

/// The oracle of the `lock-lanes` update mode (docs/modes.md), written apart from
/// `LockLanesUpdater`: a marker on the item the user saw last, carried with the items through
/// every change, and, after each change, everything laid out from scratch by `ReferenceLayout`
/// with the lanes of the items up to the marked one remembered and every later lane forgotten.
/// O(n) per change.
///
/// The user's viewport is the viewport's height at offset 0 at the start, then at each change
/// where the change happens (before it): its top at the changed item's top (an insert: the item
/// at the index; a removal or a height change: the first item removed or changed; a section: its
/// top), or its bottom at the content's end for an append, clamped to the content (a move: the
/// moved item or section where it was; a reload: the first reloaded item). Every item whose frame
/// meets it is seen; the marker moves to the last seen item if that comes later. When the marked
/// item is removed, the marker passes to the item just before the removed ones. A move and a
/// reload remove the items and insert them anew, unmarked and without lanes.
public struct LockLanesReference: UpdateExpectation {
    public let styles: [SectionStyle]
    public let viewport: Rect
    public private(set) var data: LayoutData
    public private(set) var layout: ReferenceLayout
    private var lanes: [[Int]]
    /// Per section and item: whether it is the last item the user has seen (at most one).
    private var marked: [[Bool]]

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        self.styles = styles
        viewport = bounds
        self.data = data
        marked = (0..<data.sectionCount).map { [Bool](repeating: false, count: data.itemCount(inSection: $0)) }
        // Nothing is marked yet: every lane is forgotten, as `layOut()` would leave them.
        var remembered: [[Int]]? = (0..<data.sectionCount).map {
            [Int](repeating: ReferenceWaterfallSection.unassigned, count: data.itemCount(inSection: $0))
        }
        layout = try ReferenceLayout(data: data, styles: styles, viewportWidth: bounds.width, lanes: &remembered)
        lanes = remembered!
        see(from: 0)
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        // The data first (a change it refuses leaves everything as it was); what the user sees
        // is read from the layout, which is still the one before the change.
        try change.apply(to: &data)
        see(from: viewportTop(change))
        func fresh(_ n: Int) -> [Int] { [Int](repeating: ReferenceWaterfallSection.unassigned, count: n) }
        switch change {
        case .appendItems(let s, let items):
            lanes[s] += fresh(items.count)
            marked[s] += [Bool](repeating: false, count: items.count)
        case .insertItems(let s, let at, let items):
            lanes[s].insert(contentsOf: fresh(items.count), at: at)
            marked[s].insert(contentsOf: [Bool](repeating: false, count: items.count), at: at)
        case .removeItems(let s, let at, let count):
            let hadMark = marked[s][at..<(at + count)].contains(true)
            lanes[s].removeSubrange(at..<(at + count))
            marked[s].removeSubrange(at..<(at + count))
            if hadMark { markItem(before: s, at) }
        case .setHeight:
            break
        case .insertSection(let at, let items):
            lanes.insert(fresh(items.count), at: at)
            marked.insert([Bool](repeating: false, count: items.count), at: at)
            for t in (at + 1)..<lanes.count where styles[t % styles.count] != styles[(t - 1) % styles.count] {
                lanes[t] = fresh(lanes[t].count)
            }
        case .removeSection(let at):
            let hadMark = marked[at].contains(true)
            lanes.remove(at: at)
            marked.remove(at: at)
            if hadMark { markItem(before: at, 0) }
            for t in at..<lanes.count where styles[t % styles.count] != styles[(t + 1) % styles.count] {
                lanes[t] = fresh(lanes[t].count)
            }
        case .moveItem(let from, let to):
            // Removed, then a new item at the destination.
            let hadMark = marked[from.section][from.item]
            lanes[from.section].remove(at: from.item)
            marked[from.section].remove(at: from.item)
            if hadMark { markItem(before: from.section, from.item) }
            lanes[to.section].insert(ReferenceWaterfallSection.unassigned, at: to.item)
            marked[to.section].insert(false, at: to.item)
        case .moveSection(let from, let to) where from != to:
            let hadMark = marked[from].contains(true)
            let movedCount = lanes[from].count
            lanes.remove(at: from)
            marked.remove(at: from)
            if hadMark { markItem(before: from, 0) }
            lanes.insert(fresh(movedCount), at: to)
            marked.insert([Bool](repeating: false, count: movedCount), at: to)
            // Every section between the two indices moved by one: its lanes go when its style did.
            for t in min(from, to)...max(from, to) where t != to {
                let before = from < to ? t + 1 : t - 1
                if styles[t % styles.count] != styles[before % styles.count] { lanes[t] = fresh(lanes[t].count) }
            }
        case .moveSection:
            break  // onto itself: nothing moves
        case .reloadItems(let s, let at, let items):
            let hadMark = marked[s][at..<(at + items.count)].contains(true)
            lanes[s].replaceSubrange(at..<(at + items.count), with: fresh(items.count))
            marked[s].replaceSubrange(at..<(at + items.count), with: [Bool](repeating: false, count: items.count))
            if hadMark { markItem(before: s, at) }
        }
        layOut()
    }

    public func firstDifference(of frames: LayoutFrames) -> String? {
        ReferenceCheck.firstMismatch(of: frames, against: layout, coverage: .whole)
    }

    /// The marked item as (section, item), or nil.
    private var mark: (section: Int, item: Int)? {
        for s in stride(from: marked.count - 1, through: 0, by: -1) {
            if let i = marked[s].lastIndex(of: true) { return (s, i) }
        }
        return nil
    }

    /// Marks the item just before item `i` of section `s` in reading order (none at the start).
    private mutating func markItem(before s: Int, _ i: Int) {
        if i > 0 {
            marked[s][i - 1] = true
            return
        }
        var t = s - 1
        while t >= 0 && marked[t].isEmpty { t -= 1 }
        if t >= 0 { marked[t][marked[t].count - 1] = true }
    }

    /// The viewport's top for `change`, on the layout before it.
    private func viewportTop(_ change: LayoutChange) -> Double {
        let end = max(0, layout.contentHeight - viewport.height)
        func top(_ s: Int, _ i: Int) -> Double {
            i < layout.itemCount(inSection: s) ? layout.itemFrames[layout.sectionItemStarts[s] + i].minY : end
        }
        var y: Double
        switch change {
        case .appendItems: y = end
        case .insertItems(let s, let at, _): y = top(s, at)
        case .removeItems(let s, let at, _): y = top(s, at)
        case .setHeight(let s, let item, _): y = top(s, item)
        case .insertSection(let at, _): y = at < layout.sectionCount ? layout.sectionTops[at] : end
        case .removeSection(let at): y = layout.sectionTops[at]
        case .moveItem(let from, _): y = top(from.section, from.item)
        case .moveSection(let from, _): y = layout.sectionTops[from]
        case .reloadItems(let s, let at, _): y = top(s, at)
        }
        y = min(max(0, y), end)
        return y
    }

    /// The user looks at the viewport whose top is `top`: the marker moves to the last item seen
    /// if it comes after the marked one.
    private mutating func see(from top: Double) {
        let window = Rect(x: 0, y: top, width: viewport.width, height: viewport.height)
        var last: (Int, Int)?
        for s in 0..<layout.sectionCount {
            for i in 0..<layout.itemCount(inSection: s) {
                let frame = layout.itemFrames[layout.sectionItemStarts[s] + i]
                let meets = frame.height > 0
                    ? frame.minY < window.maxY && frame.maxY > window.minY
                    : frame.minY >= window.minY && frame.minY < window.maxY
                if meets { last = (s, i) }
            }
        }
        guard let (s, i) = last else { return }
        if let current = mark {
            if (current.section, current.item) >= (s, i) { return }
            marked[current.section][current.item] = false
        }
        marked[s][i] = true
    }

    /// Lays out with the lanes of the items up to the marked one, the others forgotten.
    /// The lanes are moved out while the layout writes them, so that they are not copied.
    private mutating func layOut() {
        let mark = self.mark
        var remembered: [[Int]]? = lanes
        lanes = []
        for s in 0..<remembered!.count {
            // Items (s, i) <= the mark's (section, item) are seen: a prefix of the section.
            let seen = mark.map { s < $0.section ? remembered![s].count : s == $0.section ? $0.item + 1 : 0 } ?? 0
            for i in seen..<remembered![s].count { remembered![s][i] = ReferenceWaterfallSection.unassigned }
        }
        layout.relayOut(data, lanes: &remembered)
        lanes = remembered!
    }
}
