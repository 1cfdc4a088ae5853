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
    let styleColumns: [WaterfallColumns?]
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
        self.styleColumns = UpdaterSupport.columns(bounds: bounds, styles: styles)
        self.data = data
        self.frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        sections = (0..<data.sectionCount).map { _ in LaneSection(lanes: 0) }
        for s in 0..<data.sectionCount where styleColumns[s % styles.count] != nil {
            rebuild(section: s, lanes: unassigned(data.itemCount(inSection: s)))
        }
    }

    private init(copying other: StableLanesStorage) {
        bounds = other.bounds
        styles = other.styles
        styleColumns = other.styleColumns
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
        for range in staleRanges {
            if range.section != section || range.lane != lane {
                section = range.section
                lane = range.lane
                written = range.low
            }
            let base = frames.sectionItemStarts[section]
            var p = Swift.max(written, range.low)
            while p < range.high {
                frames.itemMinY[base + sections[section].members[lane][p]] = sections[section].tops[lane][p]
                p += 1
            }
            lastMaterializedItemCount += Swift.max(0, range.high - Swift.max(written, range.low))
            written = Swift.max(written, range.high)
        }
        staleRanges.removeAll(keepingCapacity: true)
    }

    // MARK: Changes

    func heightChanged(section s: Int, item: Int) {
        let base = frames.sectionItemStarts[s]
        let global = base + item
        let oldHeight = frames.itemHeight[global], newHeight = data.heights[global]
        guard oldHeight != newHeight else { return }
        guard styleColumns[s % styles.count] != nil else {
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
                let state = segmentState(section: s, before: segmentEnd, after: previous)
                let top = barrierTop(state, lineSpacing: styles[s % styles.count].lineSpacing)
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
            if styleColumns[s % styles.count] != nil {
                var state = segmentState(section: s, before: at, after: sections[s].barriers.last ?? -1)
                for i in at..<n { placeAppending(section: s, item: i, lane: -2, state: &state, into: &sections[s]) }
                frames.itemsRegionBottoms[s] = state.tallest
            } else {
                frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
            }
        } else {
            materialize()
            frames.insertItemSlots(count, atGlobal: base + at, section: s)
            if styleColumns[s % styles.count] != nil {
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
        if styleColumns[s % styles.count] != nil {
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
        if styleColumns[s % styles.count] != nil {
            rebuild(section: s, lanes: unassigned(data.itemCount(inSection: s)))
        } else {
            sections[s] = LaneSection(lanes: 0)
        }
    }

    /// Lays out waterfall section `s` from scratch with the given lanes (-2: assign one now),
    /// rebuilding its lane structures. O(section), in one pass over unsafe buffers: the frames are
    /// moved out of the class first (no per-access exclusivity checks), the lanes are built as
    /// plain arrays, and the placement rules are `WaterfallSectionLayout`'s.
    private func rebuild(section s: Int, lanes: [Int32]) {
        guard let columns = styleColumns[s % styles.count],
              case .waterfall(let waterfall) = styles[s % styles.count].kind else { return }
        let style = styles[s % styles.count]
        let laneCount = columns.count, lineSpacing = style.lineSpacing
        let base = frames.sectionItemStarts[s], n = lanes.count
        let regionLeft = style.insets.left, regionWidth = bounds.width - style.insets.horizontal
        var laneOfItem = [Int32](repeating: -1, count: n)
        var members = [[Int]](repeating: [], count: laneCount)
        var laneTops = [[Double]](repeating: [], count: laneCount)
        var barriers: [Int] = []
        for c in 0..<laneCount {
            members[c].reserveCapacity(n / laneCount + 1)
            laneTops[c].reserveCapacity(n / laneCount + 1)
        }
        var bottoms = [Double](repeating: frames.itemsRegionTops[s], count: laneCount)
        var occupied = [Bool](repeating: false, count: laneCount)

        var local = frames
        frames = LayoutFrames()
        local.itemMinY.normalize()
        let heights = data.heights, spans = data.spansAllColumns
        _ = local.itemMinY.withUnshiftedMutableValues { minY in
            local.itemMinX.withUnsafeMutableBufferPointer { minX in
                local.itemWidth.withUnsafeMutableBufferPointer { width in
                    local.itemHeight.withUnsafeMutableBufferPointer { height in
                        bottoms.withUnsafeMutableBufferPointer { bottoms in
                            occupied.withUnsafeMutableBufferPointer { occupied in
                                for i in 0..<n {
                                    let global = base + i
                                    let itemHeight = heights[global]
                                    height[global] = itemHeight
                                    if spans[global] {
                                        minX[global] = regionLeft
                                        width[global] = regionWidth
                                        minY[global] = WaterfallSectionLayout.placeFullWidth(
                                            height: itemHeight, lineSpacing: lineSpacing, bottoms: bottoms, occupied: occupied)
                                        barriers.append(i)
                                    } else {
                                        let c = lanes[i] >= 0
                                            ? Int(lanes[i])
                                            : WaterfallSectionLayout.column(
                                                forItem: i, direction: waterfall.direction, bottoms: UnsafeBufferPointer(bottoms))
                                        let top = WaterfallSectionLayout.place(
                                            height: itemHeight, inColumn: c, lineSpacing: lineSpacing,
                                            bottoms: bottoms, occupied: occupied)
                                        minX[global] = columns.minX[c]
                                        width[global] = columns.width[c]
                                        minY[global] = top
                                        laneOfItem[i] = Int32(c)
                                        members[c].append(i)
                                        laneTops[c].append(top)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        local.itemsRegionBottoms[s] = n == 0 ? style.headerHeight + style.insets.top : bottoms.max()!
        frames = local

        var section = LaneSection(lanes: laneCount)
        section.laneOfItem = laneOfItem
        section.members = members
        section.tops = laneTops.map(ShiftedOffsets.init)
        section.barriers = barriers
        sections[s] = section
    }

    /// Places item `i`, the next one of `section` (an append), in `lane` (or in the lane the
    /// render direction picks from `state` when `lane` is -2; full-width items ignore it), writes
    /// its frame and appends it to the lane structures.
    private func placeAppending(
        section s: Int, item i: Int, lane requested: Int32, state: inout ColumnState, into section: inout LaneSection
    ) {
        let style = styles[s % styles.count]
        guard case .waterfall(let waterfall) = style.kind, let columns = styleColumns[s % styles.count] else { return }
        let global = frames.sectionItemStarts[s] + i
        let height = data.heights[global]
        frames.itemHeight[global] = height
        if data.spansAllColumns[global] {
            frames.itemMinX[global] = style.insets.left
            frames.itemWidth[global] = bounds.width - style.insets.horizontal
            frames.itemMinY[global] = state.placeFullWidth(height: height, lineSpacing: style.lineSpacing)
            section.laneOfItem.append(-1)
            section.barriers.append(i)
        } else {
            let c = requested >= 0 ? Int(requested) : state.column(forItem: i, direction: waterfall.direction)
            let top = state.place(height: height, inColumn: c, lineSpacing: style.lineSpacing)
            frames.itemMinX[global] = columns.minX[c]
            frames.itemWidth[global] = columns.width[c]
            frames.itemMinY[global] = top
            section.laneOfItem.append(Int32(c))
            section.members[c].append(i)
            section.tops[c].append(top)
        }
    }

    /// Where a full-width item placed on `state` starts: below the tallest lane, plus the line
    /// spacing when any lane holds an item (as `WaterfallSectionLayout.place`).
    private func barrierTop(_ state: ColumnState, lineSpacing: Double) -> Double {
        var top = state.bottoms[0]
        var anyOccupied = state.occupied[0]
        for c in 1..<state.bottoms.count {
            top = Swift.max(top, state.bottoms[c])
            anyOccupied = anyOccupied || state.occupied[c]
        }
        return anyOccupied ? top + lineSpacing : top
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
