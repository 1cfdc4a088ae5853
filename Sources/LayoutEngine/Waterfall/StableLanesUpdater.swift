/// The `stable-lanes` update mode: TanStack Virtual's cached lane assignments (references §9,
/// (ii) item 6). An item keeps the column ("lane") it was given, so a height edit moves only the
/// later items of that lane instead of re-routing the rest of the section.
///
/// **How the placement differs from shortest-first.** An item gets its lane once, when it is
/// added (initial data, append, insert, new section): the section's render direction applied to
/// the column state at its position — shortest-first, ties to the leftmost. Afterwards it stays
/// in that lane whatever happens to the heights before it, so after edits an item is no longer
/// necessarily in the shortest column. Until the first edit the placement equals shortest-first.
/// Full-width items remain barriers: a full-width item starts below the tallest lane (plus
/// `lineSpacing` when a lane holds an item) and levels every lane, so an edit in the segment
/// before it moves it by the change of the tallest lane, and everything after it by that amount.
/// Sections whose style changes (styles cycle by index, so inserting or removing a section can
/// change later ones) are laid out afresh. `StableLanesReference` is the from-scratch definition.
///
/// **Costs.** A height edit of a lane item: O(log n) binary searches to find its position and the
/// next barrier, a `ShiftedOffsets` range shift of the lane's later tops in that segment
/// (O(n/4096 + 128)), O(columns · log n) to re-level the next barrier, and for every lane a lazy
/// shift past it. An edit of a full-width item shifts the rest of the section the same way.
/// Append: O(batch · columns). Inserts and deletes in the middle relay the section out with the
/// kept lanes (O(section)), like the array memmoves they need anyway.
///
/// **Materialisation.** Lane tops are the truth; `frames.itemMinY` of the items moved inside a
/// segment is brought up to date lazily, on the first read of `frames` after the edits (or before
/// the next structural change): each edit records its stale range of lane positions, and the read
/// sorts and merges them and writes each moved item once — O(items moved + e log e) for e edits
/// since the last read, the values that changed and nothing else. This is real work that the
/// timed `apply` does not include; without full-width items a single edit early in a long lane
/// moves O(n / columns) items, and that is what the next read pays. Items past a barrier are
/// shifted in `frames` eagerly through `ShiftedOffsets`, which is itself lazy. Because a read
/// writes into the shared storage, the type is not `Sendable`: read it from one thread at a time.
public struct StableLanesUpdater: LayoutUpdater {
    private var storage: StableLanesStorage

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        try UpdaterSupport.validate(bounds: bounds, styles: styles)
        storage = StableLanesStorage(bounds: bounds, styles: styles, data: data)
        storage.frames.checkInvariants()
    }

    public var data: LayoutData { storage.data }

    /// The frames, after copying pending lane moves into them (O(moved items), once per batch).
    public var frames: LayoutFrames {
        storage.materialize()
        return storage.frames
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        try storage.apply(change)
        storage.frames.checkInvariants()
    }

    /// Lane of every item of `section` (-1 for full-width items), for tests.
    func lanes(ofSection section: Int) -> [Int] { storage.sections[section].laneOfItem.map(Int.init) }

    /// Lane items whose tops the last read of `frames` had to write, for tests.
    var lastMaterializedItemCount: Int { storage.lastMaterializedItemCount }
}

/// The lanes of one waterfall section.
struct LaneSection {
    /// Per item (section-local index): its lane, or -1 for a full-width item.
    var laneOfItem: [Int32] = []
    /// Per lane: the section-local indices of its items, increasing.
    var members: [[Int]]
    /// Per lane: the section-relative tops of its items, by position in `members`. The truth for
    /// lane items; lazily shifted so a lane's suffix moves in O(n/4096 + 128).
    var tops: [ShiftedOffsets]
    /// Section-local indices of the full-width items, increasing.
    var barriers: [Int] = []

    init(lanes: Int) {
        members = [[Int]](repeating: [], count: lanes)
        tops = [ShiftedOffsets](repeating: ShiftedOffsets(), count: lanes)
    }

    var laneCount: Int { members.count }

    /// Records item `i`, just placed after every other item of the section (an append).
    mutating func append(item i: Int, placedIn placed: WaterfallPlacement) {
        if placed.column < 0 {
            laneOfItem.append(-1)
            barriers.append(i)
        } else {
            laneOfItem.append(Int32(placed.column))
            members[placed.column].append(i)
            tops[placed.column].append(placed.minY)
        }
    }

    /// The first position in `sorted` whose value is at least `value`.
    static func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) >> 1
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// The mutable state of a `StableLanesUpdater`, in a class so that reading `frames` can
/// materialise pending lane moves; the updater copies it before mutating when it is shared.
final class StableLanesStorage: ChangeSteps {
    typealias ColumnState = WaterfallSectionLayout.ColumnState

    let bounds: Rect
    let styles: [SectionStyle]
    let styleGeometry: [WaterfallGeometry?]
    var data: LayoutData
    var frames: LayoutFrames
    /// Per section; empty (no lanes) for list and flow sections.
    var sections: [LaneSection] = []
    /// Lane positions whose tops in `frames` are stale, one entry per edit since the last read:
    /// `(section, lane, first position, end position)`.
    var staleRanges: [(section: Int, lane: Int, low: Int, high: Int)] = []
    /// Items whose tops the last materialisation wrote (tests check it is what moved, not n).
    var lastMaterializedItemCount = 0
    private var scratch: [Double] = []

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData) {
        self.bounds = bounds
        self.styles = styles
        self.styleGeometry = WaterfallGeometry.perStyle(styles, contentWidth: bounds.width)
        self.data = data
        self.frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        sections = (0..<data.sectionCount).map { _ in LaneSection(lanes: 0) }
        for s in 0..<data.sectionCount where styleGeometry[s % styles.count] != nil {
            rebuild(section: s, lanes: unassigned(data.itemCount(inSection: s)))
        }
    }

    private init(copying other: StableLanesStorage) {
        bounds = other.bounds
        styles = other.styles
        styleGeometry = other.styleGeometry
        data = other.data
        frames = other.frames
        sections = other.sections
        staleRanges = other.staleRanges
    }

    func copy() -> StableLanesStorage { StableLanesStorage(copying: self) }

    func apply(_ change: LayoutChange) throws(LayoutError) {
        try change.apply(to: &data)
        var steps = self
        change.route(to: &steps, data: data)
    }

    /// Copies the tops of every lane item moved since the last call into `frames`: the stale
    /// ranges sorted and merged, so each moved item is written once. O(moved + e log e) for e edits.
    func materialize() {
        guard !staleRanges.isEmpty else { return }
        lastMaterializedItemCount = 0
        staleRanges.sort { ($0.section, $0.lane, $0.low) < ($1.section, $1.lane, $1.low) }
        var section = -1, lane = -1, written = 0
        let sectionItemStarts = frames.sectionItemStarts
        frames.withItemWriter { items in
            for range in staleRanges {
                if range.section != section || range.lane != lane {
                    section = range.section
                    lane = range.lane
                    written = range.low
                }
                let base = sectionItemStarts[section]
                var p = Swift.max(written, range.low)
                while p < range.high {
                    items.minY[base + sections[section].members[lane][p]] = sections[section].tops[lane][p]
                    p += 1
                }
                lastMaterializedItemCount += Swift.max(0, range.high - Swift.max(written, range.low))
                written = Swift.max(written, range.high)
            }
        }
        staleRanges.removeAll(keepingCapacity: true)
    }

    // MARK: Changes

    func heightChanged(section s: Int, item: Int) {
        let base = frames.sectionItemStarts[s]
        let global = base + item
        let oldHeight = frames.itemHeight[global], newHeight = data.heights[global]
        guard oldHeight != newHeight else { return }
        guard styleGeometry[s % styles.count] != nil else {
            frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
            frames.restackSections(from: s, styles: styles)
            return
        }
        frames.itemHeight[global] = newHeight
        let n = frames.sectionItemStarts[s + 1] - base
        let lane = Int(sections[s].laneOfItem[item])
        if lane < 0 {
            // A barrier: everything after it moves with its bottom.
            shiftRest(section: s, from: item + 1, by: newHeight - oldHeight)
        } else {
            let next = LaneSection.lowerBound(sections[s].barriers, item + 1)
            let segmentEnd = next < sections[s].barriers.count ? sections[s].barriers[next] : n
            let position = LaneSection.lowerBound(sections[s].members[lane], item)
            let positionEnd = LaneSection.lowerBound(sections[s].members[lane], segmentEnd)
            if position + 1 < positionEnd {
                sections[s].tops[lane].shift((position + 1)..<positionEnd, by: newHeight - oldHeight)
                staleRanges.append((s, lane, position + 1, positionEnd))
            }
            if segmentEnd < n {
                // The next barrier moves with the tallest lane of the segment, and the rest with it.
                let previous = next > 0 ? sections[s].barriers[next - 1] : -1
                var state = segmentState(section: s, before: segmentEnd, after: previous)
                let top = state.withCursor(styleGeometry[s % styles.count]!) { $0.fullWidthTop() }
                shiftRest(section: s, from: segmentEnd, by: top - frames.itemMinY[base + segmentEnd])
            }
        }
        frames.itemsRegionBottoms[s] = regionBottom(section: s)
        frames.restackSections(from: s, styles: styles)
    }

    func itemsInserted(section s: Int, at: Int, count: Int) {
        guard count > 0 else { return }
        let base = frames.sectionItemStarts[s]
        let n = data.itemCount(inSection: s)
        if at + count == n {
            // Append: continue from the lanes' bottoms after the last barrier.
            frames.insertItemSlots(count, atGlobal: base + at, section: s)
            if let geometry = styleGeometry[s % styles.count] {
                var state = segmentState(section: s, before: at, after: sections[s].barriers.last ?? -1)
                var section = sections[s]
                sections[s] = LaneSection(lanes: 0)
                let heights = data.heights, spans = data.spansAllColumns
                frames.withItemWriter { items in
                    state.withCursor(geometry) { cursor in
                        for i in at..<n {
                            let global = base + i
                            let placed = cursor.place(item: i, height: heights[global], spansAllColumns: spans[global])
                            items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: heights[global])
                            section.append(item: i, placedIn: placed)
                        }
                    }
                }
                sections[s] = section
                frames.itemsRegionBottoms[s] = state.tallest
            } else {
                frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
            }
        } else {
            materialize()
            frames.insertItemSlots(count, atGlobal: base + at, section: s)
            if styleGeometry[s % styles.count] != nil {
                var lanes = sections[s].laneOfItem
                lanes.insert(contentsOf: repeatElement(-2, count: count), at: at)
                rebuild(section: s, lanes: lanes)
            } else {
                frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
            }
        }
        frames.restackSections(from: s, styles: styles)
    }

    func itemsRemoved(section s: Int, at: Int, count: Int) {
        guard count > 0 else { return }
        materialize()
        let start = frames.sectionItemStarts[s] + at
        frames.removeItemSlots(start..<(start + count), section: s)
        if styleGeometry[s % styles.count] != nil {
            var lanes = sections[s].laneOfItem
            lanes.removeSubrange(at..<(at + count))
            rebuild(section: s, lanes: lanes)
        } else {
            frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
        }
        frames.restackSections(from: s, styles: styles)
    }

    func sectionInserted(at: Int, itemCount: Int) {
        materialize()
        frames.insertSectionSlots(at: at, itemCount: itemCount)
        sections.insert(LaneSection(lanes: 0), at: at)
        layOutAfresh(section: at)
        for t in (at + 1)..<frames.sectionCount
        where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t - 1) {
            layOutAfresh(section: t)
        }
        frames.restackSections(from: at, styles: styles)
    }

    func sectionRemoved(at: Int) {
        materialize()
        frames.removeSectionSlots(at: at)
        sections.remove(at: at)
        for t in at..<frames.sectionCount where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + 1) {
            layOutAfresh(section: t)
        }
        frames.restackSections(from: at, styles: styles)
    }

    // MARK: Lanes

    private func unassigned(_ count: Int) -> [Int32] { [Int32](repeating: -2, count: count) }

    /// Lays out section `s` as new: its style's placement, and fresh lanes for a waterfall.
    private func layOutAfresh(section s: Int) {
        frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
        if styleGeometry[s % styles.count] != nil {
            rebuild(section: s, lanes: unassigned(data.itemCount(inSection: s)))
        } else {
            sections[s] = LaneSection(lanes: 0)
        }
    }

    /// Lays out waterfall section `s` from scratch with the given lanes (-2: assign one now),
    /// rebuilding its lane structures. O(section), in one pass through a `WaterfallCursor` (the
    /// full layout's rules, with kept lanes) and one `LayoutFrames.ItemWriter`.
    private func rebuild(section s: Int, lanes: [Int32]) {
        guard let geometry = styleGeometry[s % styles.count] else { return }
        let style = styles[s % styles.count]
        let laneCount = geometry.columns.count
        let base = frames.sectionItemStarts[s], n = lanes.count
        var laneOfItem = [Int32](repeating: -1, count: n)
        var members = [[Int]](repeating: [], count: laneCount)
        var laneTops = [[Double]](repeating: [], count: laneCount)
        var barriers: [Int] = []
        for c in 0..<laneCount {
            members[c].reserveCapacity(n / laneCount + 1)
            laneTops[c].reserveCapacity(n / laneCount + 1)
        }
        var state = ColumnState(columns: laneCount, top: frames.itemsRegionTops[s])
        let heights = data.heights, spans = data.spansAllColumns
        frames.withItemWriter { items in
            state.withCursor(geometry) { cursor in
                heights.withUnsafeBufferPointer { heights in
                    spans.withUnsafeBufferPointer { spans in
                        lanes.withUnsafeBufferPointer { lanes in
                            for i in 0..<n {
                                let global = base + i
                                let height = heights[global]
                                let placed = cursor.place(
                                    item: i, height: height, spansAllColumns: spans[global], lane: Int(lanes[i]))
                                items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                                if placed.column < 0 {
                                    barriers.append(i)
                                } else {
                                    laneOfItem[i] = Int32(placed.column)
                                    members[placed.column].append(i)
                                    laneTops[placed.column].append(placed.minY)
                                }
                            }
                        }
                    }
                }
            }
        }
        frames.itemsRegionBottoms[s] = n == 0 ? style.headerHeight + style.insets.top : state.tallest
        var section = LaneSection(lanes: laneCount)
        section.laneOfItem = laneOfItem
        section.members = members
        section.tops = laneTops.map(ShiftedOffsets.init)
        section.barriers = barriers
        sections[s] = section
    }

    /// The lane bottoms just before item `end` of section `s`, in the segment that starts after
    /// barrier `previous` (-1: the section start). O(lanes · log n).
    private func segmentState(section s: Int, before end: Int, after previous: Int) -> ColumnState {
        let base = frames.sectionItemStarts[s]
        let lanes = sections[s].laneCount
        let segmentTop: Double
        if previous >= 0 {
            segmentTop = frames.itemMinY[base + previous] + frames.itemHeight[base + previous]
        } else {
            segmentTop = frames.itemsRegionTops[s]
        }
        var state = ColumnState(columns: lanes, top: segmentTop)
        for c in 0..<lanes {
            let members = sections[s].members[c]
            let last = LaneSection.lowerBound(members, end) - 1
            if last >= 0, members[last] > previous {
                state.bottoms[c] = sections[s].tops[c][last] + data.heights[base + members[last]]
                state.occupied[c] = true
            } else {
                state.occupied[c] = previous >= 0
            }
        }
        return state
    }

    /// The bottom of the items region of waterfall section `s`: its tallest lane after the last barrier.
    private func regionBottom(section s: Int) -> Double {
        let n = frames.itemRange(inSection: s).count
        if n == 0 { return frames.itemsRegionTops[s] }
        return segmentState(section: s, before: n, after: sections[s].barriers.last ?? -1).tallest
    }

    /// Moves items `start...` of section `s` (every lane and every barrier) down by `delta`.
    private func shiftRest(section s: Int, from start: Int, by delta: Double) {
        let base = frames.sectionItemStarts[s]
        let n = frames.sectionItemStarts[s + 1] - base
        guard delta != 0, start < n else { return }
        frames.itemMinY.shift((base + start)..<(base + n), by: delta)
        for c in 0..<sections[s].laneCount {
            sections[s].tops[c].shiftFrom(LaneSection.lowerBound(sections[s].members[c], start), by: delta)
        }
    }
}
