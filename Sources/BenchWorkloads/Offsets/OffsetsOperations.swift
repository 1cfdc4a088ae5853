import LayoutEngine

extension OffsetsWorkload {
    package enum Operation: String, WorkloadOperation {
        case update
        case measureAndUpdate = "measure-and-update"
        case rowAtOffset = "row-at-offset"
        case insert
        case delete
        case loadOlder = "load-older"
        case jumpBack = "jump-back"
        case rotate
        case resizeStorm = "resize-storm"

        package var timed: String {
            let batch = "; a sample is a batch of consecutive ones, divided"
            let change = ", with scroll anchoring, in the trace's order; when the trace is used up it restarts from the all-estimated rows"
            switch self {
            case .update: return "one measured height replacing a row's estimate, then the row's offset read, cycling through the session's measurements" + batch
            case .measureAndUpdate:
                return "the template cell measuring a row's text, and the height applied with scroll anchoring, cycling through the session's measurements" + batch
            case .rowAtOffset: return "the row at one of the session's scroll offsets, cycling through them" + batch
            case .insert: return "one row inserted in the middle half" + change
            case .delete: return "one row deleted from the middle half" + change
            case .loadOlder: return "one older page of `page` rows inserted at the top" + change
            case .jumpBack:
                return "the template cell measuring a row that came into view after a far jump (to 60% of the content) or during the drag back up, and the height applied with the `anchor` rule (Flutter: every row the jump passes), cycling through them" + batch
            case .rotate:
                return "the template cell measuring, at the rotated width, a row visible after the rotation or during the drag back up, and the height applied with the `anchor` rule, cycling through them" + batch
            case .resizeStorm:
                return "one resize of the storm (`storm`: every row in reverse order, or row `stormRow` again and again) applied with the `anchor` rule at the middle of the content, cycling through them" + batch
            }
        }

        package var untimed: String {
            switch self {
            case .update, .measureAndUpdate, .rowAtOffset: return "building the structure from the estimated heights"
            case .jumpBack: return "building the structure as the short drag before the jump leaves it"
            case .rotate: return "building the structure as the rotation leaves it (`none`, `exact`: every row back to its estimate)"
            case .resizeStorm: return "building the structure as the scroll to the middle leaves it"
            case .insert, .delete, .loadOlder: return "building the structure from the estimated heights, again when the trace is used up"
            }
        }
    }
}

/// `update`: one measured height applied and the row's offset read, cycling through the
/// scroll-only trace's measurements (repeating them sets the same heights again: same work).
final class UpdateOffsetsOperation<S: RowOffsets>: BatchableOperation {
    private var structure: S
    private let rows: [Int]
    private let heights: [Double]
    private var next = 0

    init(structure: S, trace: OffsetsTrace) {
        self.structure = structure
        var rows: [Int] = [], heights: [Double] = []
        for event in trace.events {
            if case .measure(let row, _, let height) = event.kind {
                rows.append(row)
                heights.append(height)
            }
        }
        self.rows = rows
        self.heights = heights
    }

    var traceLength: Int { Swift.max(1, rows.count) }
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        guard !rows.isEmpty else { return 0 }
        var checksum = 0.0
        for _ in 0..<count {
            try structure.setHeight(heights[next], of: rows[next])
            checksum += structure.offset(of: rows[next])
            next += 1
            if next == rows.count { next = 0 }
        }
        return Int(truncatingIfNeeded: checksum.bitPattern)
    }
}

/// `measure-and-update`, `jump-back`, `rotate`: the template cell measures the row's text at the
/// width of the moment, and the height is applied with the scenario's anchoring rule at the
/// scroll offset of that moment (Flutter's also re-estimates the scroll extent, as its layout does).
final class MeasureOffsetsOperation<S: RowOffsets>: BatchableOperation {
    private var structure: S
    /// What every rule reads of a measurement; what only the other rules read is kept apart, so
    /// the default rule walks 24 bytes a step, not 56.
    private let events: [(row: Int, text: Int, scroll: Double)]
    private let anchorInputs: [(context: ScrollAnchorContext, laidOut: Range<Int>)]
    private unowned let fixture: OffsetsFixture
    private let width: Double
    private let anchor: ScrollAnchorMode
    private var next = 0

    init(structure: S, trace: OffsetsTrace, fixture: OffsetsFixture, width: Double) {
        self.structure = structure
        self.fixture = fixture
        self.width = width
        anchor = fixture.anchor
        let timed = trace.events[trace.timedFrom...]
        events = timed.compactMap {
            if case .measure(let row, let text, _) = $0.kind { return (row, text, $0.scroll) } else { return nil }
        }
        anchorInputs = anchor == .exact ? [] : timed.compactMap {
            if case .measure = $0.kind { return ($0.context, $0.laidOut) } else { return nil }
        }
    }

    var traceLength: Int { Swift.max(1, events.count) }
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        guard !events.isEmpty else { return 0 }
        var checksum = 0.0
        let cell = fixture.cell, width = width, anchor = anchor
        for _ in 0..<count {
            let event = events[next]
            let height = cell.height(of: fixture.text(event.text), width: width)
            let change = RowChange.setHeight(row: event.row, height: height)
            // The default rule straight to the structure: through the rule's switch (a call
            // that takes the context) an edit costs more instructions than the structure's own.
            if anchor == .exact {
                checksum += try structure.apply(change, anchoredAt: event.scroll)
            } else {
                let inputs = anchorInputs[next]
                checksum += try structure.apply(change, anchoredAt: event.scroll, mode: anchor, context: inputs.context)
                if anchor == .flutter { checksum += structure.flutterEstimatedContentHeight(laidOut: inputs.laidOut) }
            }
            next += 1
            if next == events.count { next = 0 }
        }
        return Int(truncatingIfNeeded: checksum.bitPattern)
    }
}

/// `resize-storm`: one resize of the storm applied with the anchoring rule at the scroll offset of
/// its moment, cycling through them (a second pass sets the same heights again: the same work).
final class ResizeOffsetsOperation<S: RowOffsets>: BatchableOperation {
    private var structure: S
    private let events: [(change: RowChange, scroll: Double, context: ScrollAnchorContext)]
    private let anchor: ScrollAnchorMode
    private var next = 0

    init(structure: S, trace: OffsetsTrace, anchor: ScrollAnchorMode) {
        self.structure = structure
        self.anchor = anchor
        events = trace.events[trace.timedFrom...].compactMap {
            if case .resize(let row, let height) = $0.kind { return (.setHeight(row: row, height: height), $0.scroll, $0.context) } else { return nil }
        }
    }

    var traceLength: Int { Swift.max(1, events.count) }
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        guard !events.isEmpty else { return 0 }
        var checksum = 0.0
        let anchor = anchor
        for _ in 0..<count {
            let event = events[next]
            checksum += try structure.apply(event.change, anchoredAt: event.scroll, mode: anchor, context: event.context)
            next += 1
            if next == events.count { next = 0 }
        }
        return Int(truncatingIfNeeded: checksum.bitPattern)
    }
}

/// `row-at-offset`: the row at each of the session's scroll offsets.
final class RowAtOffsetOperation<S: RowOffsets>: BatchableOperation {
    private let structure: S
    private let offsets: [Double]
    private var next = 0

    init(structure: S, offsets: [Double]) {
        self.structure = structure
        self.offsets = offsets.isEmpty ? [0] : offsets
    }

    var traceLength: Int { offsets.count }
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        var checksum = 0
        for _ in 0..<count {
            checksum &+= try structure.row(at: offsets[next])
            next += 1
            if next == offsets.count { next = 0 }
        }
        return checksum
    }
}

/// `insert`, `delete`, `load-older`: the trace's changes one after the other (with the anchoring
/// rule; edits need no context: no rule looks at it for an insert or a removal), one per
/// timed operation; when the trace runs out, the structure is rebuilt from the initial heights
/// outside the timed region.
final class EditOffsetsOperation<S: RowOffsets>: ConsumingOperation {
    private let initial: [Double]
    private let make: ([Double]) throws -> S
    private let changes: [(change: RowChange, scroll: Double)]
    private let anchor: ScrollAnchorMode
    /// Never optional: in this unspecialised generic class every use of an `S?` asks the runtime
    /// for `Optional<S>`'s metadata, a hash-table probe per operation whose cost grows with the
    /// process's other generic types. Between rounds it holds an empty structure.
    private var structure: S
    private var prepared = false
    private var next = 0

    init(initial: [Double], make: @escaping ([Double]) throws -> S, trace: OffsetsTrace, anchor: ScrollAnchorMode) throws {
        self.initial = initial
        self.make = make
        self.anchor = anchor
        changes = trace.events.compactMap { event in event.change.map { ($0, event.scroll) } }
        structure = try make([])
    }

    var traceLength: Int { Swift.max(1, changes.count) }

    func rewind() {
        prepared = false
    }

    func prepareNext() throws {
        if !prepared || next >= changes.count {
            prepared = false
            structure = try make([])  // the old structure goes before the new one is built
            structure = try make(initial)
            prepared = true
            next = 0
        }
    }

    func runNext() throws -> Int {
        guard prepared else { throw OperationMisuse.notPrepared }
        guard next < changes.count else { return 0 }
        let (change, scroll) = changes[next]
        let correction = try structure.apply(change, anchoredAt: scroll, mode: anchor, context: ScrollAnchorContext())
        next += 1
        return Int(truncatingIfNeeded: correction.bitPattern) &+ structure.count
    }
}
