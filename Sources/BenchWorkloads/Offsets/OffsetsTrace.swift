import BenchStatistics
import LayoutEngine
import LayoutReference

/// One step of an `offsets` trace, with the answers the plain references gave after it.
struct OffsetsEvent {
    enum Kind {
        /// Row `row` comes into view and is measured: its text `text` has height `height` (at the
        /// width of the moment).
        case measure(row: Int, text: Int, height: Double)
        /// Row `row` gets height `height` without a measurement of its own: back to its estimate
        /// when a width change drops the cached heights, or one resize of a storm.
        case resize(row: Int, height: Double)
        /// Rows inserted (still estimated) at `at`.
        case insert(at: Int, heights: [Double])
        /// Rows removed.
        case remove(at: Int, count: Int)
        /// Which row is at the top of the viewport.
        case query
    }

    var kind: Kind
    /// The scroll offset the change is anchored at (before it), or the queried offset.
    var scroll: Double
    /// What the anchoring rule needs of the moment (`ScrollAnchorMode`).
    var context = ScrollAnchorContext()
    /// Flutter's laid-out rows after the step (empty for the other rules).
    var laidOut: Range<Int> = 0..<0
    // What `ScrollAnchorReference` answered.
    var correction: Double
    var count: Int
    var contentHeight: Double
    /// The content height the scroll bar shows after the step (Flutter's estimate, else `contentHeight`).
    var shownContentHeight: Double
    /// How far the row at the top of the viewport moved on screen in this step.
    var screenMove: Double
    /// A step of the same user-visible change as the one before (the measurements and query of
    /// one frame, the rows a width change sets back to their estimates): the user sees their
    /// movement and the content size after them as one.
    var joinsPrevious = false
    /// For `measure` and `resize`, the row; for `query`, the row at the offset; else the first changed row.
    var row: Int
    var rowOffset: Double

    var change: RowChange? {
        switch kind {
        case .measure(let row, _, let height), .resize(let row, let height): return .setHeight(row: row, height: height)
        case .insert(let at, let heights): return .insert(at: at, heights: heights)
        case .remove(let at, let count): return .remove(at: at, count: count)
        case .query: return nil
        }
    }
}

/// A sequence of events recorded against the references, plus their offsets at the end.
struct OffsetsTrace {
    var events: [OffsetsEvent] = []
    /// Every row start and the content height after the last event.
    var finalOffsets: [Double] = []
    /// Every row's height after the last event (what a structure holds once it replayed the trace).
    var finalHeights: [Double] = []
    /// The first event the timed operation replays, and every row's height before it (nil: the
    /// all-estimated rows, `timedFrom` 0). Events before it bring the list to where the timed part
    /// starts (a scroll before a rotation, a jump or a storm).
    var timedFrom = 0
    var timedStartHeights: [Double]?
    /// The content height shown before the first event, and the first event the anchoring
    /// metrics count.
    var shownBefore = 0.0
    var metricsFrom = 0

    /// `anchor_jump`: how far the row at the top of the viewport moved on screen, summed over the
    /// user-visible changes from `metricsFrom` (a frame's measurements, a width change's rows,
    /// each edit, each resize of a storm).
    var anchorJump: Double {
        var total = 0.0, pending = 0.0
        for event in events[metricsFrom...] {
            if !event.joinsPrevious { total += pending.magnitude; pending = 0 }
            pending += event.screenMove
        }
        return total + pending.magnitude
    }

    /// `size_churn`: how much the content height the scroll bar shows changed, summed over the
    /// same user-visible changes (the height after each).
    var sizeChurn: Double {
        var total = 0.0
        var previous = metricsFrom == 0 ? shownBefore : events[metricsFrom - 1].shownContentHeight
        var last = previous
        for event in events[metricsFrom...] {
            if !event.joinsPrevious {
                total += (last - previous).magnitude
                previous = last
            }
            last = event.shownContentHeight
        }
        return total + (last - previous).magnitude
    }
}

/// Plays a user scrolling through a self-sizing list under one anchoring rule, against the plain
/// references, and records what happens: rows measured (through the template cell) as they come
/// into view, with the rule's correction; flings, jumps, edits in the middle, a chat loading older
/// messages at the top, a scrubber pass, a rotation, a storm of resizes.
///
/// What comes into view is measured: the visible rows (UITableView, TanStack Virtual without
/// overscan), or for Flutter every row from its laid-out children to the new viewport and the
/// cache extent around it, laid out contiguously (a far jump lays out every row it passes).
struct OffsetsSimulator {
    var reference: ScrollAnchorReference
    var mode: ScrollAnchorMode { reference.mode }
    /// Per row: its text (an index into `measuredHeights`), whether it has a measurement at the
    /// current width, and whether it was ever measured (TanStack keeps sizes by key).
    var rowTexts: [Int]
    var measured: [Bool]
    var everMeasured: [Bool]
    var viewportHeight: Double
    var viewportWidth: Double
    /// Height of every text at the current width, as the template cell measures it (texts of
    /// inserted rows at the end); the rotated widths' once the list is rotated.
    var measuredHeights: [Double]
    let rotatedHeights: [Double]
    /// The estimate of every text's row (by its reuse identifier).
    let estimates: [Double]
    /// The last scroll moved toward the top.
    var backward = false
    /// Flutter's laid-out children.
    var laidOut: Range<Int> = 0..<0
    /// The next unused text for an inserted row.
    var nextText: Int
    var random: SplitMix64
    var trace = OffsetsTrace()

    var scroll: Double {
        get { reference.scroll }
        set { reference.scroll = newValue }
    }

    init(rowCount: Int, viewport: Size, measuredHeights: [Double], rotatedHeights: [Double] = [],
         estimates: [Double], anchor: ScrollAnchorMode, seed: UInt64) throws {
        rowTexts = Array(0..<rowCount)
        measured = Array(repeating: false, count: rowCount)
        everMeasured = measured
        reference = try ScrollAnchorReference(heights: Array(estimates[0..<rowCount]), mode: anchor)
        viewportHeight = viewport.height
        viewportWidth = viewport.width
        self.measuredHeights = measuredHeights
        self.rotatedHeights = rotatedHeights
        self.estimates = estimates
        nextText = rowCount
        random = SplitMix64(seed: seed, stream: 4)
        trace.shownBefore = shownContentHeight
    }

    var rows: PrefixSumReference { reference.rows }
    var shownContentHeight: Double { reference.shownContentHeight(laidOut: laidOut) }

    private mutating func record(_ kind: OffsetsEvent.Kind, scroll: Double, context: ScrollAnchorContext = ScrollAnchorContext(),
                                 step: ScrollAnchorReference.Step? = nil, row: Int, joinsPrevious: Bool = false) {
        let count = rows.count
        let clamped = Swift.min(row, count)
        trace.events.append(OffsetsEvent(
            kind: kind, scroll: scroll, context: context, laidOut: mode == .flutter ? laidOut : 0..<0,
            correction: step?.correction ?? 0, count: count, contentHeight: rows.contentHeight,
            shownContentHeight: shownContentHeight, screenMove: step?.screenMove ?? 0, joinsPrevious: joinsPrevious,
            row: clamped, rowOffset: rows.offset(of: clamped)))
    }

    @discardableResult
    private mutating func apply(_ kind: OffsetsEvent.Kind, change: RowChange, row: Int,
                                context: ScrollAnchorContext = ScrollAnchorContext(), joinsPrevious: Bool = false) throws -> Double {
        let before = scroll
        let step = try reference.apply(change, context: context)
        record(kind, scroll: before, context: context, step: step, row: row, joinsPrevious: joinsPrevious)
        return step.correction
    }

    /// Measures row `row` at the current width, with the rule's correction; returns the correction.
    @discardableResult
    mutating func measure(_ row: Int) throws -> Double {
        let text = rowTexts[row], height = measuredHeights[text]
        let context = ScrollAnchorContext(isRemeasurement: everMeasured[row], scrollingBackward: backward, firstLaidOut: laidOut.lowerBound)
        measured[row] = true
        everMeasured[row] = true
        return try apply(.measure(row: row, text: text, height: height), change: .setHeight(row: row, height: height), row: row, context: context)
    }

    /// Measures every visible row that has no measurement at this width (again after each, since
    /// a measurement moves what is visible).
    mutating func measureVisible() throws {
        for _ in 0..<64 {
            let visible = try rows.visibleRows(top: scroll, height: viewportHeight)
            guard let row = visible.first(where: { !measured[$0] }) else { return }
            var next = row
            while next < visible.upperBound {
                if !measured[next] { try measure(next) }
                next += 1
            }
        }
    }

    /// Flutter's layout for a viewport at `target`: children added above the first laid-out one
    /// (each corrects the offset) down to the cache extent above the target, then every row from
    /// the first child on laid out in order until the cache extent below the viewport, the
    /// children outside both dropped. Returns the target, moved by the corrections and clamped
    /// to the real end once the last row is laid out.
    mutating func flutterLayout(to y: Double) throws -> Double {
        let cache = ScrollAnchorMode.flutterCacheExtent
        var target = y
        for _ in 0..<4 {
            var first = Swift.min(laidOut.lowerBound, rows.count)
            while first > 0, rows.offset(of: first) > target - cache {
                first -= 1
                laidOut = (first + 1)..<Swift.max(first + 1, laidOut.upperBound)
                if !measured[first] { target += try measure(first) }
            }
            laidOut = first..<Swift.max(first, laidOut.upperBound)
            var row = first
            while row < rows.count, rows.offset(of: row) < target + viewportHeight + cache {
                if !measured[row] { try measure(row) }
                row += 1
            }
            if row == rows.count { target = Swift.min(target, Swift.max(0, rows.contentHeight - viewportHeight)) }
            target = Swift.max(0, target)
            // The children the new viewport and its cache extent need.
            let newFirst = try rows.count == 0 ? 0 : rows.row(at: Swift.max(0, target - cache))
            var newEnd = newFirst
            while newEnd < rows.count, rows.offset(of: newEnd) < target + viewportHeight + cache { newEnd += 1 }
            laidOut = newFirst..<newEnd
            if laidOut.allSatisfy({ measured[$0] }) { break }
        }
        return target
    }

    /// Scrolls to `y` (clamped to the content the scroll bar shows), lays out or measures what
    /// came into view, queries the top row: one user-visible change (`joining` the one before).
    mutating func frame(to y: Double, joining: Bool = false) throws {
        let first = trace.events.count
        let target = Swift.min(Swift.max(0, y), Swift.max(0, shownContentHeight - viewportHeight))
        backward = target < scroll
        if mode == .flutter {
            scroll = try flutterLayout(to: target)
        } else {
            scroll = target
            try measureVisible()
        }
        let row = try rows.row(at: scroll)
        record(.query, scroll: scroll, row: row)
        for index in first..<trace.events.count { trace.events[index].joinsPrevious = joining || index > first }
    }

    /// Inserts `count` new (estimated) rows at `at`.
    mutating func insert(count: Int, at: Int) throws {
        let texts = (0..<count).map { nextText + $0 }
        guard texts.last ?? 0 < measuredHeights.count else { return }
        nextText += count
        let heights = texts.map { estimates[$0] }
        rowTexts.insert(contentsOf: texts, at: at)
        measured.insert(contentsOf: repeatElement(false, count: count), at: at)
        everMeasured.insert(contentsOf: repeatElement(false, count: count), at: at)
        try apply(.insert(at: at, heights: heights), change: .insert(at: at, heights: heights), row: at)
    }

    mutating func remove(count: Int, at: Int) throws {
        rowTexts.removeSubrange(at..<(at + count))
        measured.removeSubrange(at..<(at + count))
        everMeasured.removeSubrange(at..<(at + count))
        try apply(.remove(at: at, count: count), change: .remove(at: at, count: count), row: at)
        if laidOut.upperBound > rows.count { laidOut = Swift.min(laidOut.lowerBound, rows.count)..<rows.count }
    }

    /// The device rotates: width and height swap and every measurement is of the old width.
    /// UITableView (`none`, `exact`) drops its cached heights, the rows go back to their
    /// estimates (in one relayout, anchored for `exact`); TanStack keeps its stale sizes until the
    /// rows are measured again; Flutter lays its children out again from the first one. Then the
    /// visible rows are measured at the new width.
    mutating func rotate() throws {
        swap(&viewportWidth, &viewportHeight)
        measuredHeights = rotatedHeights
        measured = Array(repeating: false, count: rows.count)
        if mode == .none || mode == .exact {
            var joins = false
            for row in 0..<rows.count where rows.height(of: row) != estimates[rowTexts[row]] {
                let estimate = estimates[rowTexts[row]]
                try apply(.resize(row: row, height: estimate), change: .setHeight(row: row, height: estimate), row: row, joinsPrevious: joins)
                joins = true
            }
        }
    }

    /// One resize of row `row` to `height` (a storm's), with the rule's correction.
    mutating func resize(_ row: Int, to height: Double) throws {
        let context = ScrollAnchorContext(isRemeasurement: everMeasured[row], scrollingBackward: backward, firstLaidOut: laidOut.lowerBound)
        everMeasured[row] = true
        measured[row] = true
        try apply(.resize(row: row, height: height), change: .setHeight(row: row, height: height), row: row, context: context)
    }

    /// Marks the start of the part a timed operation replays (and the anchoring metrics count).
    mutating func startTimedPart() {
        trace.timedFrom = trace.events.count
        trace.metricsFrom = trace.events.count
        trace.timedStartHeights = rows.heights
    }

    /// A row in the middle half of the list.
    mutating func middleRow() -> Int {
        let count = rows.count
        return count / 4 + random.next(below: Swift.max(1, count / 2))
    }

    mutating func finish() -> OffsetsTrace {
        trace.finalOffsets = rows.allOffsets
        trace.finalHeights = rows.heights
        return trace
    }

    // MARK: Scripts

    /// The whole session (`frames` frames): a drag and a fling from the top, edits in the middle
    /// while the user stays put, a jump and a drag, a chat loading older pages at the top (if
    /// `edits`), and a scrubber pass from top to bottom.
    mutating func session(frames: Int, edits: Bool, page: Int) throws {
        let part = Swift.max(1, frames / 8)
        for _ in 0..<part { try frame(to: scroll + 4) }
        var velocity = 120.0
        for _ in 0..<part { try frame(to: scroll + velocity); velocity *= 0.95 }
        if edits {
            for step in 0..<part where rows.count > 2 {
                if step % 2 == 0 { try insert(count: 1, at: middleRow()) } else { try remove(count: 1, at: middleRow()) }
                try frame(to: scroll)
            }
        }
        try frame(to: shownContentHeight * (0.3 + 0.4 * random.nextDouble()))
        for _ in 0..<part { try frame(to: scroll + 4) }
        if edits {
            // A chat: back to the top; each time the top is reached, an older page arrives above.
            try frame(to: 0)
            for _ in 0..<3 {
                try insert(count: page, at: 0)
                try frame(to: scroll)
                while scroll > 0 { try frame(to: scroll - 60) }
            }
        }
        let scrub = Swift.max(1, frames - trace.events.lazy.filter { if case .query = $0.kind { return true } else { return false } }.count)
        let start = scroll
        for step in 1...scrub {
            let end = Swift.max(0, shownContentHeight - viewportHeight)
            try frame(to: start + (end - start) * Double(step) / Double(scrub))
        }
    }

    /// `jump-back`: a short drag from the top, then (timed and counted) a far jump to 60% of the
    /// content and a drag back up over `frames / 4` frames of 60 pt.
    mutating func jumpAndBack(frames: Int) throws {
        for _ in 0..<Swift.max(1, frames / 8) { try frame(to: scroll + 4) }
        startTimedPart()
        try frame(to: shownContentHeight * 0.6)
        for _ in 0..<Swift.max(1, frames / 4) { try frame(to: scroll - 60) }
    }

    /// `rotate`: a drag and a fling from the top in portrait, then (counted) the rotation and
    /// (timed from the first measurement at the new width) a drag back up over `frames / 8` frames.
    mutating func rotation(frames: Int) throws {
        let part = Swift.max(1, frames / 8)
        for _ in 0..<part { try frame(to: scroll + 4) }
        var velocity = 120.0
        for _ in 0..<part { try frame(to: scroll + velocity); velocity *= 0.95 }
        let metricsFrom = trace.events.count
        try rotate()
        startTimedPart()
        trace.metricsFrom = metricsFrom
        try frame(to: scroll, joining: trace.events.count > metricsFrom)
        for _ in 0..<part { try frame(to: scroll - 60) }
    }

    /// `resize-storm`: the viewport moved to the middle of the content, then (timed and counted)
    /// the storm's resizes, each anchored at the offset of its moment: every row from the last to
    /// the first measured (`reverse`), or one row resized `resizes` times (`repeat`), cycling
    /// through its measured height plus 0, 8, 16 and 24 pt.
    mutating func storm(_ order: OffsetsWorkload.StormOrder, row: Int, resizes: Int) throws {
        try frame(to: shownContentHeight / 2)
        startTimedPart()
        switch order {
        case .reverse:
            for row in stride(from: rows.count - 1, through: 0, by: -1) { try resize(row, to: measuredHeights[rowTexts[row]]) }
        case .repeat:
            let target = Swift.min(row, rows.count - 1)
            guard target >= 0 else { return }
            for k in 0..<resizes { try resize(target, to: measuredHeights[rowTexts[target]] + 8 * Double(k % 4)) }
        }
    }
}
