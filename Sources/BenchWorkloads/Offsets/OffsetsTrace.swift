import BenchStatistics
import LayoutEngine
import LayoutReference

/// One step of an `offsets` trace, with the answers the plain prefix sum gave after it.
struct OffsetsEvent {
    enum Kind {
        /// Row `row` comes into view and is measured: its text `text` has height `height`.
        case measure(row: Int, text: Int, height: Double)
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
    // What `PrefixSumReference` answered.
    var correction: Double
    var count: Int
    var contentHeight: Double
    /// For `measure`, the measured row; for `query`, the row at the offset; else the first changed row.
    var row: Int
    var rowOffset: Double

    var change: RowChange? {
        switch kind {
        case .measure(let row, _, let height): return .setHeight(row: row, height: height)
        case .insert(let at, let heights): return .insert(at: at, heights: heights)
        case .remove(let at, let count): return .remove(at: at, count: count)
        case .query: return nil
        }
    }
}

/// A sequence of events recorded against `PrefixSumReference`, plus its offsets at the end.
struct OffsetsTrace {
    var events: [OffsetsEvent] = []
    /// Every row start and the content height after the last event.
    var finalOffsets: [Double] = []
    /// Every row's height after the last event (what a structure holds once it replayed the trace).
    var finalHeights: [Double] = []
}

/// Plays a user scrolling through a self-sizing list, against the plain prefix sum, and records
/// what happens: rows measured (through the template cell) as they come into view, with scroll
/// anchoring; flings, jumps, edits in the middle, a chat loading older messages at the top, and a
/// scrubber pass through everything.
struct OffsetsSimulator {
    var reference: PrefixSumReference
    /// Per row: its text (an index into `measuredHeights`) and whether it was measured yet.
    var rowTexts: [Int]
    var measured: [Bool]
    var scroll = 0.0
    let viewportHeight: Double
    /// Height of every text, as the template cell measures it (texts of inserted rows at the end).
    let measuredHeights: [Double]
    /// The estimate of every text's row (by its reuse identifier).
    let estimates: [Double]
    /// The next unused text for an inserted row.
    var nextText: Int
    var random: SplitMix64
    var trace = OffsetsTrace()

    init(rowCount: Int, viewportHeight: Double, measuredHeights: [Double], estimates: [Double], seed: UInt64) throws {
        rowTexts = Array(0..<rowCount)
        measured = Array(repeating: false, count: rowCount)
        reference = try PrefixSumReference(heights: Array(estimates[0..<rowCount]))
        self.viewportHeight = viewportHeight
        self.measuredHeights = measuredHeights
        self.estimates = estimates
        nextText = rowCount
        random = SplitMix64(seed: seed, stream: 4)
    }

    private mutating func record(_ kind: OffsetsEvent.Kind, scroll: Double, correction: Double, row: Int) {
        let count = reference.count
        let clamped = Swift.min(row, count)
        trace.events.append(OffsetsEvent(
            kind: kind, scroll: scroll, correction: correction, count: count,
            contentHeight: reference.contentHeight, row: clamped, rowOffset: reference.offset(of: clamped)))
    }

    private mutating func apply(_ kind: OffsetsEvent.Kind, change: RowChange, row: Int) throws {
        let before = scroll
        let correction = try reference.apply(change, anchoredAt: before)
        record(kind, scroll: before, correction: correction, row: row)
        scroll = before + correction
    }

    /// Measures every visible row that still has its estimate (again after each, since a
    /// measurement moves what is visible).
    mutating func measureVisible() throws {
        for _ in 0..<64 {
            let visible = try reference.visibleRows(top: scroll, height: viewportHeight)
            guard let row = visible.first(where: { !measured[$0] }) else { return }
            var next = row
            while next < visible.upperBound {
                if !measured[next] {
                    measured[next] = true
                    let text = rowTexts[next]
                    try apply(.measure(row: next, text: text, height: measuredHeights[text]),
                              change: .setHeight(row: next, height: measuredHeights[text]), row: next)
                }
                next += 1
            }
        }
    }

    /// Scrolls to `y` (clamped to the content), measures what came into view, queries the top row.
    mutating func frame(to y: Double) throws {
        scroll = Swift.min(Swift.max(0, y), Swift.max(0, reference.contentHeight - viewportHeight))
        try measureVisible()
        let row = try reference.row(at: scroll)
        record(.query, scroll: scroll, correction: 0, row: row)
    }

    /// Inserts `count` new (estimated) rows at `at`.
    mutating func insert(count: Int, at: Int) throws {
        let texts = (0..<count).map { nextText + $0 }
        guard texts.last ?? 0 < measuredHeights.count else { return }
        nextText += count
        let heights = texts.map { estimates[$0] }
        rowTexts.insert(contentsOf: texts, at: at)
        measured.insert(contentsOf: repeatElement(false, count: count), at: at)
        try apply(.insert(at: at, heights: heights), change: .insert(at: at, heights: heights), row: at)
    }

    mutating func remove(count: Int, at: Int) throws {
        rowTexts.removeSubrange(at..<(at + count))
        measured.removeSubrange(at..<(at + count))
        try apply(.remove(at: at, count: count), change: .remove(at: at, count: count), row: at)
    }

    /// A row in the middle half of the list.
    mutating func middleRow() -> Int {
        let count = reference.count
        return count / 4 + random.next(below: Swift.max(1, count / 2))
    }

    mutating func finish() -> OffsetsTrace {
        trace.finalOffsets = reference.allOffsets
        trace.finalHeights = reference.heights
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
            for step in 0..<part where reference.count > 2 {
                if step % 2 == 0 { try insert(count: 1, at: middleRow()) } else { try remove(count: 1, at: middleRow()) }
                try frame(to: scroll)
            }
        }
        try frame(to: reference.contentHeight * (0.3 + 0.4 * random.nextDouble()))
        for _ in 0..<part { try frame(to: scroll + 4) }
        if edits {
            // A chat: back to the top; each time the top is reached, an older page arrives above.
            try frame(to: 0)
            for _ in 0..<3 {
                try insert(count: page, at: 0)
                try measureVisible()
                while scroll > 0 { try frame(to: scroll - 60) }
            }
        }
        let scrub = Swift.max(1, frames - trace.events.lazy.filter { if case .query = $0.kind { return true } else { return false } }.count)
        let start = scroll
        for step in 1...scrub {
            let end = Swift.max(0, reference.contentHeight - viewportHeight)
            try frame(to: start + (end - start) * Double(step) / Double(scrub))
        }
    }
}
