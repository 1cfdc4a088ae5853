import LayoutEngine

extension ReuseScrollWorkload {
    package enum Operation: String, WorkloadOperation {
        /// The pool shows one frame's visible range.
        case scrollStep = "scroll-step"

        package var timed: String {
            "one frame of the scroll trace, in order, wrapping at its end: the cells of rows that left the visible range "
                + "enqueued and the rows that entered it given a cell by reuse identifier; a sample is a batch of "
                + "consecutive frames, divided"
        }
        package var untimed: String { "the visible ranges of the trace, computed beforehand from the rows' heights" }
    }
}

/// One frame of the trace per operation: the pool shows that frame's visible range (cycling).
final class ReuseScrollOperation<P: ReusePool>: BatchableOperation {
    private var pool: P
    private let ranges: [Range<Int>]
    private let identifiers: [UInt8]
    private var next = 0

    init(pool: P, ranges: [Range<Int>], identifiers: [UInt8]) {
        self.pool = pool
        self.ranges = ranges.isEmpty ? [0..<0] : ranges
        self.identifiers = identifiers
    }

    var traceLength: Int { ranges.count }
    /// The pool stays warm; the trace starts again at its first frame.
    func rewind() { next = 0 }

    func run(count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            pool.show(ranges[next], identifiers: identifiers)
            checksum &+= pool.visibleCellCount
            next += 1
            if next == ranges.count { next = 0 }
        }
        return checksum
    }
}
