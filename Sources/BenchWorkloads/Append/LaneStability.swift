import LayoutEngine

/// What a change of `append` and `edit` does to what the user sees in a waterfall (docs/csv.md,
/// "Lane stability"): per change, counted outside the timed region by comparing the frames
/// before and after it.
///
/// - `lane_changes`: items that existed before the change and still exist, in a waterfall
///   section and not full-width, whose column (their x) changed.
/// - `moved_visible`: items that existed before and still exist, visible before the change in
///   the *change's viewport*, whose frame moved by more than 0.5 pt (x or y) on screen, the
///   content offset staying where it was (no anchoring).
/// - `column_spread`: packing — in the changed section (a waterfall), after the change, the
///   tallest column's bottom minus the shortest's where the columns end: above each full-width
///   item (which levels them) and at the section's end, summed (`columnSpread`).
///
/// The change's viewport is where the user is when the change happens: the scenario's
/// viewport height, scrolled so that its top is at the changed item's top before the change
/// (an insert: the item that was at the index; a removal, a height change, a reload: the first
/// item removed or changed; a move: the moved item or section where it was; a section: its top),
/// or, for an append, so that its bottom is at the old
/// content's end (load-more fires at the end). The offset is clamped to the content.
struct LaneStability {
    let styles: [SectionStyle]
    let viewportHeight: Double

    /// Whether the layout has a waterfall section the metrics speak of.
    static func applies(to styles: [SectionStyle]) -> Bool {
        styles.contains { if case .waterfall = $0.kind { return true } else { return false } }
    }

    /// The three metrics' values, one per change of `trace`, replayed by `mode` (the workloads
    /// take them from the verification's replay instead: `UpdateOperation.verifyObservingLanes`).
    static func observe(
        mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace
    ) throws -> Values {
        var updater = try mode.make(bounds: bounds, styles: styles, data: trace.initial)
        var observer = Observer(LaneStability(styles: styles, viewportHeight: bounds.height), updater)
        for change in trace.changes {
            try updater.apply(change)
            observer.record(change, updater)
        }
        return observer.values
    }

    /// One value per change of a trace, per metric.
    typealias Values = (laneChanges: [Double], movedVisible: [Double], columnSpread: [Double])

    /// The metrics of a replay someone else drives, change by change (the verification's, which
    /// reads the frames after every change anyway).
    ///
    /// It keeps two snapshots and refills them in turn, so that a change of a large layout
    /// reuses the storage of the one before it instead of allocating (and faulting in) new arrays.
    struct Observer {
        let counter: LaneStability
        private var before: Snapshot
        private var after = Snapshot()
        private(set) var values: Values = ([], [], [])

        /// Starts from the updater's frames before the first change.
        init(_ counter: LaneStability, _ updater: any LayoutUpdater) {
            self.counter = counter
            before = Snapshot(updater.frames, data: updater.data)
        }

        /// The values of `change`, which the updater has just applied.
        mutating func record(_ change: LayoutChange, _ updater: any LayoutUpdater) {
            after.fill(updater.frames, data: updater.data)
            let counts = counter.compare(before, after, change: change)
            values.laneChanges.append(Double(counts.laneChanges))
            values.movedVisible.append(Double(counts.movedVisible))
            values.columnSpread.append(counter.columnSpread(after, section: change.changedSection(in: after)))
            swap(&before, &after)
        }
    }

    /// Absolute item frames and where each section's items start.
    struct Snapshot {
        var minX: [Double] = []
        var minY: [Double] = []
        var maxY: [Double] = []
        var spans: [Bool] = []
        var sectionStarts: [Int] = []
        var sectionTops: [Double] = []
        var itemsRegionTops: [Double] = []
        var contentHeight: Double = 0

        /// An empty snapshot, for `fill(_:data:)`.
        init() {}

        init(_ frames: LayoutFrames, data: LayoutData) {
            fill(frames, data: data)
        }

        /// Takes the frames of `frames` (`LayoutFrames.itemFrame(global:section:)`'s minX, minY
        /// and maxY), keeping the storage of the arrays it held.
        mutating func fill(_ frames: LayoutFrames, data: LayoutData) {
            sectionStarts = frames.sectionItemStarts
            sectionTops = frames.sectionTops
            itemsRegionTops = frames.itemsRegionTops
            contentHeight = frames.contentHeight
            spans.removeAll(keepingCapacity: true)
            spans.append(contentsOf: data.spansAllColumns)
            minX.removeAll(keepingCapacity: true)
            frames.itemMinX.withUnsafeBufferPointer { minX.append(contentsOf: $0) }
            let count = frames.itemCount
            func resize(_ values: inout [Double]) {
                if values.count > count {
                    values.removeLast(values.count - count)
                } else {
                    values.append(contentsOf: repeatElement(0, count: count - values.count))
                }
            }
            resize(&minY)
            resize(&maxY)
            frames.itemHeight.withUnsafeBufferPointer { heights in
                minY.withUnsafeMutableBufferPointer { minY in
                    maxY.withUnsafeMutableBufferPointer { maxY in
                        for s in 0..<frames.sectionCount {
                            let top = frames.sectionTops[s]
                            let range = frames.itemRange(inSection: s)
                            // Relative tops as stored when no shift is pending, else through the shifts.
                            let done: Void? = frames.itemMinY.withUnshiftedValues { relative in
                                for i in range {
                                    minY[i] = top + relative[i]
                                    maxY[i] = minY[i] + heights[i]
                                }
                            }
                            if done == nil {
                                for i in range {
                                    minY[i] = top + frames.itemMinY[i]
                                    maxY[i] = minY[i] + heights[i]
                                }
                            }
                        }
                    }
                }
            }
        }

        var sectionCount: Int { sectionStarts.count - 1 }
        func count(_ s: Int) -> Int { sectionStarts[s + 1] - sectionStarts[s] }
    }

    func isWaterfall(_ s: Int) -> Bool {
        if case .waterfall = styles[s % styles.count].kind { return true }
        return false
    }

    /// Where the user's viewport starts for `change`, on the frames before it.
    func viewportTop(_ before: Snapshot, change: LayoutChange) -> Double {
        let end = Swift.max(0, before.contentHeight - viewportHeight)
        func itemTop(_ s: Int, _ i: Int) -> Double {
            i < before.count(s) ? before.minY[before.sectionStarts[s] + i] : end
        }
        let top: Double
        switch change {
        case .appendItems: top = end
        case .insertItems(let s, let at, _): top = itemTop(s, at)
        case .removeItems(let s, let at, _): top = itemTop(s, at)
        case .setHeight(let s, let item, _): top = itemTop(s, item)
        case .insertSection(let at, _): top = at < before.sectionCount ? before.sectionTops[at] : end
        case .removeSection(let at): top = before.sectionTops[at]
        case .moveItem(let from, _): top = itemTop(from.section, from.item)
        case .moveSection(let from, _): top = before.sectionTops[from]
        case .reloadItems(let s, let at, _): top = itemTop(s, at)
        }
        return Swift.min(Swift.max(0, top), end)
    }

    /// Where old item `i` of old section `s` is after `change`: its new section and index, or
    /// nil when the change removed it.
    static func newPosition(section s: Int, item i: Int, change: LayoutChange) -> (section: Int, item: Int)? {
        switch change {
        case .appendItems, .setHeight:
            return (s, i)
        case .insertItems(let section, let at, let items):
            return s == section && i >= at ? (s, i + items.count) : (s, i)
        case .removeItems(let section, let at, let count):
            guard s == section, i >= at else { return (s, i) }
            return i < at + count ? nil : (s, i - count)
        case .insertSection(let at, _):
            return s >= at ? (s + 1, i) : (s, i)
        case .removeSection(let at):
            if s == at { return nil }
            return s > at ? (s - 1, i) : (s, i)
        case .reloadItems:
            return (s, i)
        case .moveItem(let from, let to):
            // The moved item is followed to its destination; the others close up at the source
            // and make room at the destination.
            if s == from.section && i == from.item { return (to.section, to.item) }
            let j = s == from.section && i > from.item ? i - 1 : i
            return s == to.section && j >= to.item ? (s, j + 1) : (s, j)
        case .moveSection(let from, let to):
            if s == from { return (to, i) }
            let t = s > from ? s - 1 : s
            return t >= to ? (t + 1, i) : (t, i)
        }
    }

    func compare(_ before: Snapshot, _ after: Snapshot, change: LayoutChange) -> (laneChanges: Int, movedVisible: Int) {
        let top = viewportTop(before, change: change), bottom = top + viewportHeight
        var laneChanges = 0, movedVisible = 0
        for s in 0..<before.sectionCount {
            let waterfall = isWaterfall(s)
            for i in 0..<before.count(s) {
                guard let (t, j) = Self.newPosition(section: s, item: i, change: change) else { continue }
                let old = before.sectionStarts[s] + i, new = after.sectionStarts[t] + j
                let dx = abs(after.minX[new] - before.minX[old])
                if waterfall, !before.spans[old], dx > 1e-6 { laneChanges += 1 }
                // Visible: the old frame meets the viewport (a zero-height item on its edge counts).
                let visible = before.minY[old] < bottom
                    && (before.maxY[old] > top || (before.maxY[old] == before.minY[old] && before.minY[old] >= top))
                if visible, dx > 0.5 || abs(after.minY[new] - before.minY[old]) > 0.5 { movedVisible += 1 }
            }
        }
        return (laneChanges, movedVisible)
    }

    /// Packing of waterfall section `s` (0 for another kind): the tallest column's bottom minus
    /// the shortest's where the columns end — before each full-width item, which levels them
    /// (the gap left above it), and after the last item — summed. A column that holds no item
    /// since the last level ends there.
    func columnSpread(_ after: Snapshot, section s: Int?) -> Double {
        guard let s, s < after.sectionCount, isWaterfall(s),
              case .waterfall(let style) = styles[s % styles.count].kind else { return 0 }
        var floor = after.sectionTops[s] + after.itemsRegionTops[s]
        // By column x, since the last level: the distinct x values seen, ascending, and each
        // one's latest bottom. A section has a few columns: a binary search of them is cheaper
        // than hashing every item's x.
        var lefts: [Double] = [], bottoms: [Double] = []
        lefts.reserveCapacity(style.columns)
        bottoms.reserveCapacity(style.columns)
        var spread = 0.0
        func gap() -> Double {
            var highest = floor, lowest = bottoms.count < style.columns ? floor : Double.infinity
            for bottom in bottoms {
                highest = Swift.max(highest, bottom)
                lowest = Swift.min(lowest, bottom)
            }
            return lowest.isFinite ? highest - lowest : 0
        }
        for g in after.sectionStarts[s]..<after.sectionStarts[s + 1] {
            if after.spans[g] {
                spread += gap()
                lefts.removeAll(keepingCapacity: true)
                bottoms.removeAll(keepingCapacity: true)
                floor = after.maxY[g]
                continue
            }
            // The last x at most `x` (or the first when all are larger), searched in log2 steps
            // whose choice is a select, not a branch the item's column would mispredict.
            let x = after.minX[g]
            var base = 0, remaining = lefts.count
            while remaining > 1 {
                let half = remaining / 2
                base = lefts[base + half] <= x ? base + half : base
                remaining -= half
            }
            if base < lefts.count, lefts[base] == x {
                bottoms[base] = after.maxY[g]
            } else {
                let at = base < lefts.count && lefts[base] < x ? base + 1 : base
                lefts.insert(x, at: at)
                bottoms.insert(after.maxY[g], at: at)
            }
        }
        // Rounded to a millionth of a point: modes that shift frames by a δ agree to the last digit.
        return ((spread + gap()) * 1e6).rounded() / 1e6
    }
}

extension LayoutChange {
    /// The section the change touched, in the layout after it (nil: a section was removed).
    func changedSection(in after: LaneStability.Snapshot) -> Int? {
        switch self {
        case .appendItems(let s, _), .insertItems(let s, _, _), .removeItems(let s, _, _), .setHeight(let s, _, _): return s
        case .insertSection(let at, _): return at
        case .removeSection: return nil
        case .moveItem(_, let to): return to.section
        case .moveSection(_, let to): return to
        case .reloadItems(let s, _, _): return s
        }
    }
}
