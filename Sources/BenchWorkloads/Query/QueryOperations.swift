import LayoutEngine

extension QueryWorkload {
    package enum Operation: String, WorkloadOperation {
        /// One viewport-sized rect query.
        case query

        package var timed: String {
            "one viewport rect query of the scroll trace, in order, wrapping at its end (a sample is a batch of "
                + "consecutive frames, divided; every frame is timed, pass after pass); when headers or footers pin, "
                + "the frame's bounds change (shouldInvalidate, invalidate, prepare) comes before its query"
        }
        package var untimed: String { "the answer buffer's first growth (warm-up)" }
    }
}

/// One viewport query per operation, walking the trace frame by frame (wrapping around): the
/// `query` workload's built-in layout and `layout-query`'s registered ones. The driver reaches
/// `run(count:)` through the protocol, that is the unspecialised generic code (37 instructions a
/// query more than a class written for `SectionedLayout`), so the built-in layout's loop is
/// pre-specialised; a registered layout (an existential) is opened once, when the operation is
/// made (`makeQueryOperation`).
final class QueryOperation<Layout: CollectionLayout>: BatchableOperation {
    private let layout: Layout
    private let rects: [Rect]
    private var frame = 0
    private var buffer: [LayoutAttributes] = []

    init(layout: Layout, rects: [Rect]) {
        self.layout = layout
        self.rects = rects
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { rects.count }

    func rewind() { frame = 0 }

    @_specialize(where Layout == SectionedLayout)
    func run(count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            layout.elements(in: rects[frame], into: &buffer)
            checksum &+= buffer.count
            frame += 1
            if frame == rects.count { frame = 0 }
        }
        return checksum
    }
}

/// A `QueryOperation` over a registered layout, its type opened from the existential.
func makeQueryOperation<Layout: CollectionLayout>(_ layout: Layout, rects: [Rect]) -> any BatchableOperation {
    QueryOperation(layout: layout, rects: rects)
}
