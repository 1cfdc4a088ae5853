import LayoutEngine

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

/// `measure-and-update`: the template cell measures the row's text, and the height is applied with
/// scroll anchoring at the scroll offset of that moment.
final class MeasureOffsetsOperation<S: RowOffsets>: BatchableOperation {
    private var structure: S
    private let events: [(row: Int, text: Int, scroll: Double)]
    private unowned let fixture: OffsetsFixture
    private var next = 0

    init(structure: S, trace: OffsetsTrace, fixture: OffsetsFixture) {
        self.structure = structure
        self.fixture = fixture
        events = trace.events.compactMap {
            if case .measure(let row, let text, _) = $0.kind { return (row, text, $0.scroll) } else { return nil }
        }
    }

    var traceLength: Int { Swift.max(1, events.count) }
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        guard !events.isEmpty else { return 0 }
        var checksum = 0.0
        let cell = fixture.cell, width = fixture.cellWidth
        for _ in 0..<count {
            let event = events[next]
            let height = cell.height(of: fixture.text(event.text), width: width)
            checksum += try structure.apply(.setHeight(row: event.row, height: height), anchoredAt: event.scroll)
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

/// `insert`, `delete`, `load-older`: the trace's changes one after the other (anchored), one per
/// timed operation; when the trace runs out, the structure is rebuilt from the initial heights
/// outside the timed region.
final class EditOffsetsOperation<S: RowOffsets>: ConsumingOperation {
    private let initial: [Double]
    private let make: ([Double]) throws -> S
    private let changes: [(change: RowChange, scroll: Double)]
    private var structure: S?
    private var next = 0

    init(initial: [Double], make: @escaping ([Double]) throws -> S, trace: OffsetsTrace) {
        self.initial = initial
        self.make = make
        changes = trace.events.compactMap { event in event.change.map { ($0, event.scroll) } }
    }

    var traceLength: Int { Swift.max(1, changes.count) }

    func rewind() { structure = nil }

    func prepareNext() throws {
        if structure == nil || next >= changes.count {
            structure = nil
            structure = try make(initial)
            next = 0
        }
    }

    func runNext() throws -> Int {
        guard structure != nil else { throw OperationMisuse.notPrepared }
        guard next < changes.count else { return 0 }
        let (change, scroll) = changes[next]
        let correction = try structure!.apply(change, anchoredAt: scroll)
        next += 1
        return Int(truncatingIfNeeded: correction.bitPattern) &+ structure!.count
    }
}
