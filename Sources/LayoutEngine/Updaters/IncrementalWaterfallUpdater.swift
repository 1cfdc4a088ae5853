/// The column state of one waterfall section at regular checkpoints, so that an edit in the
/// middle restarts from the nearest checkpoint instead of replaying the prefix.
///
/// Checkpoint k is the state before section item `k · 64`; there are `n / 64 + 1` of them for
/// n items (the last one equals `end` when 64 divides n). Bottoms are section-relative and live
/// in a `ShiftedOffsets`, so when an edit re-synchronises, every later checkpoint moves by the
/// same δ in O(n/4096 + 128) instead of O(n / 64).
struct ColumnCheckpoints {
    typealias ColumnState = WaterfallSectionLayout.ColumnState

    static let intervalBits = 6
    static let intervalMask = (1 << intervalBits) - 1

    /// Columns of the section; 0 for list and flow sections, which keep no column state.
    var columns: Int
    /// The state after the last item: where an append continues.
    var end: ColumnState
    /// Bottom of column c at checkpoint k, at `k · columns + c`.
    var bottoms = ShiftedOffsets()
    var occupied: [Bool] = []

    /// No checkpoints yet; `end` is the empty section's state.
    init(columns: Int, top: Double) {
        self.columns = columns
        self.end = ColumnState(columns: columns, top: top)
    }

    /// The state of a list or flow section: nothing.
    static var none: ColumnCheckpoints { ColumnCheckpoints(columns: 0, top: 0) }

    var count: Int { columns == 0 ? 0 : occupied.count / columns }

    func state(at k: Int) -> ColumnState {
        var state = ColumnState(columns: columns, top: 0)
        let first = k * columns
        for c in 0..<columns {
            state.bottoms[c] = bottoms[first + c]
            state.occupied[c] = occupied[first + c]
        }
        return state
    }

    /// Stores `state` as checkpoint k, which must exist already or be the next one.
    mutating func write(_ state: ColumnState, at k: Int) {
        state.bottoms.withUnsafeBufferPointer { bottoms in
            state.occupied.withUnsafeBufferPointer { occupied in write(bottoms: bottoms, occupied: occupied, at: k) }
        }
    }

    /// Stores the state under `cursor` as checkpoint k, which must exist already or be the next one.
    mutating func write(_ cursor: WaterfallCursor, at k: Int) {
        write(bottoms: UnsafeBufferPointer(cursor.bottoms), occupied: UnsafeBufferPointer(cursor.occupied), at: k)
    }

    private mutating func write(bottoms: UnsafeBufferPointer<Double>, occupied newOccupied: UnsafeBufferPointer<Bool>, at k: Int) {
        let first = k * columns
        if k < count {
            for c in 0..<columns {
                self.bottoms[first + c] = bottoms[c]
                occupied[first + c] = newOccupied[c]
            }
        } else {
            assert(k == count, "checkpoints are written in order")
            for c in 0..<columns {
                self.bottoms.append(bottoms[c])
                occupied.append(newOccupied[c])
            }
        }
    }

    /// δ when the state under `cursor` equals checkpoint k moved down by a common δ (same occupied
    /// columns, and every bottom exactly `old + δ`), nil otherwise. Exact comparison: a
    /// re-synchronisation is declared only when the shifted old vector is bit-identical to the
    /// recomputed one.
    func offset(of cursor: WaterfallCursor, at k: Int) -> Double? {
        guard k < count else { return nil }
        let first = k * columns
        let delta = cursor.bottoms[0] - bottoms[first]
        for c in 0..<columns {
            guard cursor.occupied[c] == occupied[first + c], cursor.bottoms[c] == bottoms[first + c] + delta else {
                return nil
            }
        }
        return delta
    }

    /// Keeps the first `newCount` checkpoints (O(count), for structural edits).
    mutating func truncate(to newCount: Int) {
        guard newCount < count else { return }
        bottoms.resize(to: newCount * columns)
        occupied.removeLast(occupied.count - newCount * columns)
    }

    /// Moves checkpoints `k...` down by `delta`.
    mutating func shift(fromCheckpoint k: Int, by delta: Double) {
        bottoms.shiftFrom(k * columns, by: delta)
    }
}

/// The order state of the `last-index` and `grid-lanes` rules (`ColumnState.startOrder`) at the
/// same checkpoints as a section's `ColumnCheckpoints`, kept apart from them so that the default
/// rule's checkpoints are what they always were: checkpoint k's at `k · (columns + 1)` in `order`,
/// and `end`, the one after the last item. Empty for a section whose rule keeps none.
struct OrderCheckpoints {
    var columns: Int
    var order: [Int] = []
    var end: [Int] = []

    init(columns: Int) {
        self.columns = columns
        end = WaterfallSectionLayout.ColumnState.startOrder(columns: columns)
    }

    /// A section that keeps no order state.
    static var none: OrderCheckpoints {
        var none = OrderCheckpoints(columns: 0)
        none.end = []
        return none
    }

    var count: Int { order.count / (columns + 1) }

    func order(at k: Int) -> [Int] {
        Array(order[(k * (columns + 1))..<((k + 1) * (columns + 1))])
    }

    /// Stores `newOrder` as checkpoint k's; k must exist already or be the next one.
    mutating func write(_ newOrder: UnsafeBufferPointer<Int>, at k: Int) {
        let first = k * (columns + 1)
        if first < order.count {
            for c in 0...columns { order[first + c] = newOrder[c] }
        } else {
            assert(first == order.count, "order checkpoints are written in order")
            order.append(contentsOf: newOrder)
        }
    }

    /// Whether the cursor's order state equals checkpoint k's (a re-synchronisation needs both
    /// the columns and the order state to agree: the latter decides later ties).
    func matches(_ cursor: OrderedWaterfallCursor, at k: Int) -> Bool {
        let first = k * (columns + 1)
        for c in 0...columns where cursor.order[c] != order[first + c] { return false }
        return true
    }

    mutating func truncate(to newCount: Int) {
        if newCount < count { order.removeLast(order.count - newCount * (columns + 1)) }
    }
}

/// The `incremental` update mode: HDCollectionView's waterfall append, extended to edits in the
/// middle (docs/modes.md).
///
/// - An append continues from the cached column state after the section's last item: O(batch ·
///   columns), independent of n.
/// - An insert, delete or height change restarts from the checkpoint at or before the first
///   affected item (at most 63 items are replayed) and recomputes items in order until the new
///   column-bottom vector equals the old one up to a common shift δ — after a full-width item
///   (which levels every column), at a later checkpoint, or at the section end. Every later item
///   of the section, and every later checkpoint, then moves by δ through `ShiftedOffsets`, in
///   O(n/4096 + 128); later sections move through `sectionTops` in O(sections).
/// - In a list section an insert, delete or height change places only the inserted or resized
///   items and moves every later item of the section by one δ through `ShiftedOffsets`.
/// - Flow sections are laid out again whole when they change.
///
/// Inserts and deletes also move the item arrays (O(n) memmoves) and, when the edit
/// re-synchronises before the section end, rebuild the later checkpoints by reading the frames
/// back (O(n) without placement decisions), because checkpoint positions no longer line up.
///
/// Frames equal `full`'s after every change. With shortest-first placement the column choice
/// compares sums of heights, so exactness needs the shifted values to round like a recompute:
/// this holds whenever the inputs are dyadic (multiples of a power of two, such as whole or
/// quarter points, below 2^40), where every sum is exact; with arbitrary fractions, shifted
/// coordinates can differ from a recompute by a few ulps, which is far below the 1e-9 tolerance
/// of the comparison but can break a tie between two columns (equal within the tolerance, such as
/// 100 + 1e-15 against 100) the other way; the tests check such layouts against a reference that
/// lets exactly those ties go either way (`ReferenceLayout(breakingNearTiesLike:)`). Making every
/// shift exact instead costs a recompute to the section's end on each height change (about 50×
/// at 30,000 items), which is what this mode exists to avoid.
public struct IncrementalWaterfallUpdater: LayoutUpdater, ChangeSteps {
    typealias ColumnState = WaterfallSectionLayout.ColumnState

    public let bounds: Rect
    public let styles: [SectionStyle]
    public private(set) var data: LayoutData
    public private(set) var frames: LayoutFrames
    /// Waterfall geometry per style (nil for list and flow styles).
    let styleGeometry: [WaterfallGeometry?]
    /// Placement rule per style.
    let styleRules: [WaterfallRule]
    /// Whether any style's rule keeps an order state: false for the default rule, whose
    /// operations then test this one stored flag and touch no order state at all.
    let keepsOrder: Bool
    /// Column state per section (`.none` for list and flow sections).
    var checkpoints: [ColumnCheckpoints] = []
    /// Order state per section, for the rules that keep one (`.none` otherwise).
    var orderCheckpoints: [OrderCheckpoints] = []
    /// Reused buffer for laying out a whole list or flow section.
    private var scratch: [Double] = []
    /// The order state of the section being recomputed, for the rules that keep one (between the
    /// checkpoint it starts from, the placement loop and `settle`); unused by `leftmost`.
    private var workingOrder: [Int] = []
    /// Items whose placement the last `apply` computed (replayed from a checkpoint, recomputed,
    /// or laid out with a whole section). Tests check that edits and appends stay local.
    internal private(set) var lastRecomputedItemCount = 0

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        try UpdaterSupport.validate(bounds: bounds, styles: styles)
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        self.styleGeometry = WaterfallGeometry.perStyle(styles, contentWidth: bounds.width)
        self.styleRules = WaterfallRule.perStyle(styles)
        self.keepsOrder = styleRules.contains { $0.keepsOrder }
        checkpoints.reserveCapacity(data.sectionCount)
        orderCheckpoints.reserveCapacity(data.sectionCount)
        for s in 0..<data.sectionCount {
            checkpoints.append(.none)
            orderCheckpoints.append(.none)
            resetCheckpoints(section: s)
        }
        _checkInvariants()
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        try change.apply(to: &data)
        lastRecomputedItemCount = 0
        change.route(to: &self, data: data)
        _checkInvariants()
    }

    // MARK: Changes

    mutating func itemsInserted(section s: Int, at: Int, count: Int) {
        guard count > 0 else { return }
        frames.insertItemSlots(count, atGlobal: frames.sectionItemStarts[s] + at, section: s)
        placeInserted(section: s, at: at, count: count)
        frames.restackSections(from: s, styles: styles)
    }

    /// Places section `s` after `count` items were inserted at `at`, their slots already there.
    @inline(__always)
    private mutating func placeInserted(section s: Int, at: Int, count: Int) {
        let n = data.itemCount(inSection: s)
        if isList(s) {
            updateList(section: s, placing: at..<(at + count))
        } else if styleGeometry[s % styles.count] == nil {
            relayOut(section: s)
        } else if at + count == n {
            // Append: continue from the cached end state; no replay, no re-synchronisation.
            // The rules that keep an order state take a copy of this path of their own, so that
            // this one (the default's) tests one flag more than it did before the rules.
            if keepsOrder {
                appendKeepingOrder(section: s, at: at, count: count, itemCount: n)
            } else {
                append(section: s, at: at, count: count, itemCount: n)
            }
        } else {
            recompute(section: s, firstAffected: at, firstUnchanged: at + count, structuralShift: count)
        }
    }

    /// An append to waterfall section `s`: continues from the cached end state, no replay, no
    /// re-synchronisation. Moves the end state out (no copy of its arrays); `settle` stores the
    /// new one.
    @inline(__always)
    private mutating func append(section s: Int, at: Int, count: Int, itemCount n: Int) {
        var state = checkpoints[s].end
        checkpoints[s].end = ColumnCheckpoints.ColumnState.empty
        _ = place(section: s, from: at, state: &state, firstAffected: at, firstUnchanged: n, structuralShift: count)
        settleEnd(section: s, state: &state, itemCount: n)
    }

    /// `append` when some style's rule keeps an order state: from the section's end order too.
    @inline(never)
    private mutating func appendKeepingOrder(section s: Int, at: Int, count: Int, itemCount n: Int) {
        if tracksOrder(s) { loadOrder(section: s, checkpoint: nil, truncating: false) }
        append(section: s, at: at, count: count, itemCount: n)
    }

    mutating func itemsRemoved(section s: Int, at: Int, count: Int) {
        guard count > 0 else { return }
        let start = frames.sectionItemStarts[s] + at
        frames.removeItemSlots(start..<(start + count), section: s)
        placeRemoved(section: s, at: at, count: count)
        frames.restackSections(from: s, styles: styles)
    }

    /// Places section `s` after `count` items were removed at `at`, their slots already gone.
    @inline(__always)
    private mutating func placeRemoved(section s: Int, at: Int, count: Int) {
        if isList(s) {
            updateList(section: s, placing: at..<at)
        } else if styleGeometry[s % styles.count] == nil {
            relayOut(section: s)
        } else {
            recompute(section: s, firstAffected: at, firstUnchanged: at, structuralShift: -count)
        }
    }

    mutating func heightChanged(section s: Int, item: Int) {
        let global = frames.sectionItemStarts[s] + item
        guard frames.itemHeight[global] != data.heights[global] else { return }
        // One item: the full-width item itself re-synchronises (it levels the columns whatever its height).
        placeChanged(section: s, items: item..<(item + 1), firstUnchanged: item)
        frames.restackSections(from: s, styles: styles)
    }

    /// Places section `s` after the items `changed` took other sizes or other items (the count
    /// unchanged): a list places them and shifts the rest, a flow section is laid out again, a
    /// waterfall recomputes from the checkpoint before them until its columns re-synchronise.
    /// `firstUnchanged`: the first index at which a full-width item may re-synchronise (the
    /// range's end when an item in it may have become or stopped being full-width).
    @inline(__always)
    private mutating func placeChanged(section s: Int, items changed: Range<Int>, firstUnchanged: Int? = nil) {
        guard !changed.isEmpty else { return }
        if isList(s) {
            updateList(section: s, placing: changed)
        } else if styleGeometry[s % styles.count] == nil {
            relayOut(section: s)
        } else {
            recompute(
                section: s, firstAffected: changed.lowerBound, firstUnchanged: firstUnchanged ?? changed.upperBound,
                structuralShift: 0, lastChanged: changed.upperBound - 1)
        }
    }

    mutating func itemsReloaded(section s: Int, at: Int, count: Int) {
        placeChanged(section: s, items: at..<(at + count))
        frames.restackSections(from: s, styles: styles)
    }

    /// Within a section the items between source and destination, both included, changed
    /// places (the count is the same); across sections the source loses a slot and the
    /// destination gains one, both slots edited before either section is placed, so that the
    /// frames and the data agree on where every section starts.
    mutating func itemMoved(from: ItemPath, to: ItemPath) {
        if from.section == to.section {
            guard from.item != to.item else { return }
            placeChanged(section: to.section, items: Swift.min(from.item, to.item)..<(Swift.max(from.item, to.item) + 1))
            frames.restackSections(from: to.section, styles: styles)
            return
        }
        let source = frames.sectionItemStarts[from.section] + from.item
        frames.removeItemSlots(source..<(source + 1), section: from.section)
        frames.insertItemSlots(1, atGlobal: frames.sectionItemStarts[to.section] + to.item, section: to.section)
        placeRemoved(section: from.section, at: from.item, count: 1)
        placeInserted(section: to.section, at: to.item, count: 1)
        frames.restackSections(from: Swift.min(from.section, to.section), styles: styles)
    }

    /// The moved section is laid out at its new index; every section between the two indices
    /// moved by one index and is laid out again when that cycles it to another style.
    mutating func sectionMoved(from: Int, to: Int) {
        guard from != to else { return }
        let count = frames.itemRange(inSection: from).count
        frames.removeSectionSlots(at: from)
        checkpoints.remove(at: from)
        orderCheckpoints.remove(at: from)
        frames.insertSectionSlots(at: to, itemCount: count)
        checkpoints.insert(.none, at: to)
        orderCheckpoints.insert(.none, at: to)
        relayOut(section: to)
        let shift = from < to ? 1 : -1
        for t in Swift.min(from, to)...Swift.max(from, to)
        where t != to && UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + shift) {
            relayOut(section: t)
        }
        frames.restackSections(from: Swift.min(from, to), styles: styles)
    }

    mutating func sectionInserted(at: Int, itemCount: Int) {
        frames.insertSectionSlots(at: at, itemCount: itemCount)
        checkpoints.insert(.none, at: at)
        orderCheckpoints.insert(.none, at: at)
        relayOut(section: at)
        // Styles cycle by section index: every later section may now have another style.
        for t in (at + 1)..<frames.sectionCount
        where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t - 1) {
            relayOut(section: t)
        }
        frames.restackSections(from: at, styles: styles)
    }

    mutating func sectionRemoved(at: Int) {
        frames.removeSectionSlots(at: at)
        checkpoints.remove(at: at)
        orderCheckpoints.remove(at: at)
        for t in at..<frames.sectionCount where UpdaterSupport.styleChanged(styles, section: t, previousIndex: t + 1) {
            relayOut(section: t)
        }
        frames.restackSections(from: at, styles: styles)
    }

    // MARK: Waterfall recomputation

    /// Recomputes waterfall section `s` after its items changed from `first` on: restart from
    /// the checkpoint at or before `first`, place until the columns re-synchronise, then shift.
    /// `firstUnchanged` is the first (new) index whose item existed before with the same height;
    /// `shift` is how many items were inserted (positive) or removed (negative).
    /// `lastChanged`: the last index whose item changed (default `first`); checkpoints are
    /// compared only past it.
    private mutating func recompute(
        section s: Int, firstAffected first: Int, firstUnchanged: Int, structuralShift shift: Int, lastChanged: Int? = nil
    ) {
        let k = first >> ColumnCheckpoints.intervalBits
        var state = checkpoints[s].state(at: k)
        if tracksOrder(s) { loadOrder(section: s, checkpoint: k, truncating: shift != 0) }
        // After an insert or a delete the checkpoints past the edit no longer sit at multiples of
        // 64 of the new indices; they are written again as the recomputation passes them.
        if shift != 0 { checkpoints[s].truncate(to: k + 1) }
        let resync = place(
            section: s, from: k << ColumnCheckpoints.intervalBits, state: &state,
            firstAffected: lastChanged ?? first, firstUnchanged: firstUnchanged, structuralShift: shift)
        settle(section: s, state: &state, resync: resync, structural: shift != 0)
    }

    /// Places items of waterfall section `s` from `start` on through a `WaterfallCursor` (the rules
    /// of the full layout), writing frames through one `LayoutFrames.ItemWriter` and checkpoints as
    /// it passes them. Stops and returns the index to shift from and δ as soon as the new column
    /// state equals the old one moved by δ; returns nil at the section end.
    private mutating func place(
        section s: Int, from start: Int, state: inout ColumnState,
        firstAffected: Int, firstUnchanged: Int, structuralShift: Int
    ) -> (at: Int, delta: Double)? {
        guard let geometry = styleGeometry[s % styles.count] else { return nil }
        let base = frames.sectionItemStarts[s]
        let n = frames.sectionItemStarts[s + 1] - base
        // Old checkpoints line up with new indices only when no item was inserted or removed.
        let comparesCheckpoints = structuralShift == 0
        // Left-to-right placement picks columns by index: the old and new items after a barrier
        // take the same columns only when the index moved by a multiple of the column count.
        let resyncsAtFullWidth = geometry.direction == .shortestFirst || structuralShift % geometry.columns.count == 0
        // The rules that keep an order state branch off here, once per operation, to a loop of
        // their own; the default's path below is the one it always was.
        if tracksOrder(s) {
            return placeKeepingOrder(
                section: s, from: start, to: n, sectionStart: base, geometry: geometry, state: &state,
                comparesCheckpointsAfter: comparesCheckpoints ? firstAffected : nil, firstUnchanged: firstUnchanged,
                resyncsAtFullWidth: resyncsAtFullWidth)
        }
        let resync = Self.placeItems(
            from: start, to: n, sectionStart: base, geometry: geometry,
            heights: data.heights, spansAllColumns: data.spansAllColumns,
            state: &state, frames: &frames, checkpoints: &checkpoints[s],
            comparesCheckpointsAfter: comparesCheckpoints ? firstAffected : nil, firstUnchanged: firstUnchanged,
            resyncsAtFullWidth: resyncsAtFullWidth)
        lastRecomputedItemCount += (resync?.at ?? n) - start
        return resync
    }

    /// `place` for a rule that keeps an order state (`workingOrder`), out of line so that the
    /// default rule's `place` carries none of it.
    @inline(never)
    private mutating func placeKeepingOrder(
        section s: Int, from start: Int, to n: Int, sectionStart base: Int, geometry: WaterfallGeometry,
        state: inout ColumnState, comparesCheckpointsAfter firstAffected: Int?, firstUnchanged: Int,
        resyncsAtFullWidth: Bool
    ) -> (at: Int, delta: Double)? {
        let resync = Self.placeItems(
            from: start, to: n, sectionStart: base, geometry: geometry, rule: styleRules[s % styles.count],
            heights: data.heights, spansAllColumns: data.spansAllColumns,
            state: &state, order: &workingOrder, frames: &frames, checkpoints: &checkpoints[s],
            orderCheckpoints: &orderCheckpoints[s],
            comparesCheckpointsAfter: firstAffected, firstUnchanged: firstUnchanged,
            resyncsAtFullWidth: resyncsAtFullWidth)
        lastRecomputedItemCount += (resync?.at ?? n) - start
        return resync
    }

    /// Sets `workingOrder` to section `s`'s order state at checkpoint `k` (nil: at the end), and
    /// drops the later checkpoints when `truncating`. Out of line, as the rest of the order
    /// state's handling, so that the default rule's operations carry none of it.
    @inline(never)
    private mutating func loadOrder(section s: Int, checkpoint k: Int?, truncating: Bool) {
        guard let k else {
            workingOrder = orderCheckpoints[s].end
            return
        }
        workingOrder = orderCheckpoints[s].order(at: k)
        if truncating { orderCheckpoints[s].truncate(to: k + 1) }
    }

    /// Whether section `s`'s rule keeps an order state.
    @inline(__always)
    private func tracksOrder(_ s: Int) -> Bool {
        keepsOrder && styleRules[s % styles.count].keepsOrder
    }

    /// The loop of `place`, with the frames and the section's checkpoints as separate `inout`
    /// arguments so that both can be written while the frames are open (no copies).
    /// `comparesCheckpointsAfter`: compare checkpoints past this index (nil: never).
    private static func placeItems(
        from start: Int, to n: Int, sectionStart base: Int, geometry: WaterfallGeometry,
        heights: [Double], spansAllColumns: [Bool],
        state: inout ColumnState, frames: inout LayoutFrames, checkpoints: inout ColumnCheckpoints,
        comparesCheckpointsAfter firstAffected: Int?, firstUnchanged: Int, resyncsAtFullWidth: Bool
    ) -> (at: Int, delta: Double)? {
        state.withCursor(geometry) { cursor -> (at: Int, delta: Double)? in
            frames.withItemWriter { items -> (at: Int, delta: Double)? in
                heights.withUnsafeBufferPointer { heights -> (at: Int, delta: Double)? in
                    spansAllColumns.withUnsafeBufferPointer { spans -> (at: Int, delta: Double)? in
                        // Local copies: stores through the buffers cannot alias them, so the
                        // compiler keeps them in registers instead of reloading after every store.
                        let cursor = cursor, items = items
                        var i = start
                        while i < n {
                            if i & ColumnCheckpoints.intervalMask == 0 {
                                let k = i >> ColumnCheckpoints.intervalBits
                                if let firstAffected, i > firstAffected, let delta = checkpoints.offset(of: cursor, at: k) {
                                    return (i, delta)
                                }
                                checkpoints.write(cursor, at: k)
                            }
                            // Ordinary items up to the next checkpoint or full-width item.
                            let runEnd = Swift.min(n, (i | ColumnCheckpoints.intervalMask) + 1)
                            while i < runEnd && !spans[base + i] {
                                let global = base + i
                                let height = heights[global]
                                let placed = cursor.place(height: height, inColumn: cursor.column(forItem: i))
                                items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                                i += 1
                            }
                            if i < runEnd {
                                let global = base + i
                                let height = heights[global]
                                let oldBottom = items.minY[global] + items.height[global]
                                let placed = cursor.placeFullWidth(height: height)
                                items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                                i += 1
                                // A full-width item levels every column, in the old layout as in the new one.
                                if i > firstUnchanged, resyncsAtFullWidth {
                                    return (i, placed.minY + height - oldBottom)
                                }
                            }
                        }
                        return nil
                    }
                }
            }
        }
    }

    /// The loop of `place` for a rule that keeps an order state (`order`), through an
    /// `OrderedWaterfallCursor`: the loop above, which stays as it was so that the default rule
    /// pays nothing for the others.
    private static func placeItems(
        from start: Int, to n: Int, sectionStart base: Int, geometry: WaterfallGeometry, rule: WaterfallRule,
        heights: [Double], spansAllColumns: [Bool],
        state: inout ColumnState, order: inout [Int], frames: inout LayoutFrames, checkpoints: inout ColumnCheckpoints,
        orderCheckpoints: inout OrderCheckpoints,
        comparesCheckpointsAfter firstAffected: Int?, firstUnchanged: Int, resyncsAtFullWidth: Bool
    ) -> (at: Int, delta: Double)? {
        state.withCursor(geometry, rule: rule, order: &order) { cursor -> (at: Int, delta: Double)? in
            frames.withItemWriter { items -> (at: Int, delta: Double)? in
                heights.withUnsafeBufferPointer { heights -> (at: Int, delta: Double)? in
                    spansAllColumns.withUnsafeBufferPointer { spans -> (at: Int, delta: Double)? in
                        // Local copies: stores through the buffers cannot alias them, so the
                        // compiler keeps them in registers instead of reloading after every store.
                        let cursor = cursor, items = items
                        var i = start
                        while i < n {
                            if i & ColumnCheckpoints.intervalMask == 0 {
                                let k = i >> ColumnCheckpoints.intervalBits
                                if let firstAffected, i > firstAffected, let delta = checkpoints.offset(of: cursor.base, at: k),
                                   orderCheckpoints.matches(cursor, at: k)
                                {
                                    return (i, delta)
                                }
                                checkpoints.write(cursor.base, at: k)
                                orderCheckpoints.write(UnsafeBufferPointer(cursor.order), at: k)
                            }
                            // Ordinary items up to the next checkpoint or full-width item.
                            let runEnd = Swift.min(n, (i | ColumnCheckpoints.intervalMask) + 1)
                            while i < runEnd && !spans[base + i] {
                                let global = base + i
                                let height = heights[global]
                                let placed = cursor.place(item: i, height: height, spansAllColumns: false)
                                items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                                i += 1
                            }
                            if i < runEnd {
                                let global = base + i
                                let height = heights[global]
                                let oldBottom = items.minY[global] + items.height[global]
                                let placed = cursor.placeFullWidth(item: i, height: height)
                                items.setFrame(global, minX: placed.minX, minY: placed.minY, width: placed.width, height: height)
                                i += 1
                                // A full-width item levels every column, in the old layout as in the new one.
                                if i > firstUnchanged, resyncsAtFullWidth {
                                    return (i, placed.minY + height - oldBottom)
                                }
                            }
                        }
                        return nil
                    }
                }
            }
        }
    }

    /// Finishes a recomputation of section `s`: shifts the untouched rest of the section by δ
    /// after a re-synchronisation, or records the end state; then the items-region bottom.
    private mutating func settle(
        section s: Int, state: inout ColumnState, resync: (at: Int, delta: Double)?, structural: Bool
    ) {
        let base = frames.sectionItemStarts[s]
        let n = frames.sectionItemStarts[s + 1] - base
        if let resync, resync.at < n {
            frames.itemMinY.shift((base + resync.at)..<(base + n), by: resync.delta)
            if structural {
                rescan(section: s, from: resync.at, state: &state)
                return
            }
            let firstMoved = (resync.at + ColumnCheckpoints.intervalMask) >> ColumnCheckpoints.intervalBits
            checkpoints[s].shift(fromCheckpoint: firstMoved, by: resync.delta)
            for c in 0..<checkpoints[s].columns { checkpoints[s].end.bottoms[c] += resync.delta }
            // A shifted bottom, (x + δ) − δ, may round an ulp below the items region's top, where a
            // recompute puts it exactly; the region never ends above where it starts.
            frames.itemsRegionBottoms[s] = Swift.max(frames.itemsRegionTops[s], checkpoints[s].end.tallest)
        } else {
            settleEnd(section: s, state: &state, itemCount: n)
        }
    }

    /// `settle` without a re-synchronisation: records the end state (and a checkpoint when one
    /// falls at the end), then the items-region bottom. Inlined into `append`, which then costs
    /// what it did before the placement rules added the order state's branch.
    @inline(__always)
    private mutating func settleEnd(section s: Int, state: inout ColumnState, itemCount n: Int) {
        if n & ColumnCheckpoints.intervalMask == 0 {
            checkpoints[s].write(state, at: n >> ColumnCheckpoints.intervalBits)
        }
        checkpoints[s].end = state
        frames.itemsRegionBottoms[s] = Swift.max(frames.itemsRegionTops[s], state.tallest)
        if tracksOrder(s) { settleOrder(section: s, itemCount: n) }
    }

    /// Records `workingOrder`, the order state after the last item, as the end's and, when a
    /// checkpoint falls at the end, as its.
    @inline(never)
    private mutating func settleOrder(section s: Int, itemCount n: Int) {
        if n & ColumnCheckpoints.intervalMask == 0 {
            workingOrder.withUnsafeBufferPointer { orderCheckpoints[s].write($0, at: n >> ColumnCheckpoints.intervalBits) }
        }
        orderCheckpoints[s].end = workingOrder
    }

    /// Rebuilds the checkpoints and end state of waterfall section `s` from its frames, from item
    /// `start` on, given the column state before `start`. An item's column is read back from its
    /// x, so this makes no placement decision: O(n − start) loads, no comparisons of heights.
    private mutating func rescan(section s: Int, from start: Int, state: inout ColumnState) {
        guard let columns = styleGeometry[s % styles.count]?.columns else { return }
        let base = frames.sectionItemStarts[s]
        let n = frames.sectionItemStarts[s + 1] - base
        let columnCount = columns.count
        for i in start..<n {
            if i & ColumnCheckpoints.intervalMask == 0 {
                checkpoints[s].write(state, at: i >> ColumnCheckpoints.intervalBits)
            }
            let global = base + i
            let bottom = frames.itemMinY[global] + frames.itemHeight[global]
            if data.spansAllColumns[global] {
                for c in 0..<columnCount {
                    state.bottoms[c] = bottom
                    state.occupied[c] = true
                }
            } else {
                let x = frames.itemMinX[global]
                var c = 0
                while c < columnCount - 1, columns.minX[c] != x { c += 1 }
                state.bottoms[c] = bottom
                state.occupied[c] = true
            }
        }
        if n & ColumnCheckpoints.intervalMask == 0 {
            checkpoints[s].write(state, at: n >> ColumnCheckpoints.intervalBits)
        }
        checkpoints[s].end = state
        frames.itemsRegionBottoms[s] = Swift.max(frames.itemsRegionTops[s], state.tallest)
        if tracksOrder(s) { rescanOrder(section: s, from: start) }
    }

    /// `rescan` for the order state, a second pass for the rules that keep one: from
    /// `workingOrder`, the state before `start`, each item's column read back from its x (a
    /// full-width item is the last of every column), written at each checkpoint and at the end.
    @inline(never)
    private mutating func rescanOrder(section s: Int, from start: Int) {
        guard let columns = styleGeometry[s % styles.count]?.columns else { return }
        let base = frames.sectionItemStarts[s]
        let n = frames.sectionItemStarts[s + 1] - base
        let columnCount = columns.count
        for i in start..<n {
            if i & ColumnCheckpoints.intervalMask == 0 {
                workingOrder.withUnsafeBufferPointer { orderCheckpoints[s].write($0, at: i >> ColumnCheckpoints.intervalBits) }
            }
            let global = base + i
            if data.spansAllColumns[global] {
                for c in 0..<columnCount { workingOrder[c] = i }
                workingOrder[columnCount] = columnCount
            } else {
                let x = frames.itemMinX[global]
                var c = 0
                while c < columnCount - 1, columns.minX[c] != x { c += 1 }
                workingOrder[c] = i
                workingOrder[columnCount] = c + 1
            }
        }
        settleOrder(section: s, itemCount: n)
    }

    /// Builds the column state of section `s` from scratch out of its (already correct) frames.
    private mutating func resetCheckpoints(section s: Int) {
        guard let geometry = styleGeometry[s % styles.count] else {
            checkpoints[s] = .none
            orderCheckpoints[s] = .none
            return
        }
        let columns = geometry.columns
        let top = frames.itemsRegionTops[s]
        let tracksOrder = styleRules[s % styles.count].keepsOrder
        checkpoints[s] = ColumnCheckpoints(columns: columns.count, top: top)
        orderCheckpoints[s] = tracksOrder ? OrderCheckpoints(columns: columns.count) : .none
        if tracksOrder { workingOrder = ColumnCheckpoints.ColumnState.startOrder(columns: columns.count) }
        var state = ColumnState(columns: columns.count, top: top)
        rescan(section: s, from: 0, state: &state)
    }

    // MARK: List sections

    private func isList(_ s: Int) -> Bool {
        if case .list = styles[s % styles.count].kind { return true }
        return false
    }

    /// Places the items `placed` of list section `s` and moves the rest of the section by δ.
    private mutating func updateList(section s: Int, placing placed: Range<Int>) {
        lastRecomputedItemCount += frames.updateListSection(
            s, placing: placed, bounds: bounds, style: styles[s % styles.count], heights: data.heights)
    }

    /// Lays out section `s` whole (any kind) and rebuilds its column state.
    private mutating func relayOut(section s: Int) {
        frames.layOutSection(s, bounds: bounds, style: styles[s % styles.count], data: data, scratch: &scratch)
        lastRecomputedItemCount += frames.itemRange(inSection: s).count
        resetCheckpoints(section: s)
    }
}
