import LayoutEngine

/// One scroll step per operation, walking the trace (wrapping around): a bounds change through
/// the UIKit lifecycle and the viewport query, or for the baseline (`boundsChanges` false) the
/// viewport query alone.
final class ScrollStep: BatchableOperation {
    private var layout: SectionedLayout
    private let viewports: [Rect]
    private let boundsChanges: Bool
    private var next = 0
    private var buffer: [LayoutAttributes] = []

    init(layout: SectionedLayout, viewports: [Rect], boundsChanges: Bool) {
        self.layout = layout
        self.viewports = viewports
        self.boundsChanges = boundsChanges
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { viewports.count }

    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        // One exclusive access to the layout for the whole batch.
        try Self.scroll(count: count, boundsChanges: boundsChanges, layout: &layout, viewports: viewports, next: &next, buffer: &buffer)
    }

    /// One step, returning its answer (for verification, untimed).
    func step() throws -> [LayoutAttributes] {
        _ = try run(count: 1)
        return buffer
    }

    /// `count` scroll steps: shouldInvalidate → invalidate → prepare → viewport query.
    private static func scroll(
        count: Int, boundsChanges: Bool, layout: inout SectionedLayout, viewports: [Rect], next: inout Int,
        buffer: inout [LayoutAttributes]
    ) throws -> Int {
        var checksum = 0
        for _ in 0..<count {
            let bounds = viewports[next]
            if boundsChanges {
                if layout.shouldInvalidate(forBoundsChange: bounds) {
                    layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
                }
                try layout.prepare()
            }
            layout.elements(in: bounds, into: &buffer)
            checksum &+= buffer.count
            next += 1
            if next == viewports.count { next = 0 }
        }
        return checksum
    }
}
