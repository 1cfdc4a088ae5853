import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// One scroll step per operation through a registered layout, walking the trace (wrapping): the
/// bounds change as UIKit makes it, the viewport query, and for `layout-reuse-scroll` the cells.
final class LayoutScrollOperation: BatchableOperation {
    private(set) var layout: any CollectionLayout
    private let viewports: [Rect]
    private var next = 0
    private var buffer: [LayoutAttributes] = []
    /// The cells (`layout-reuse-scroll`); nil for `layout-sticky-scroll`.
    var reuse: ElementReuse?

    init(layout: any CollectionLayout, viewports: [Rect]) {
        self.layout = layout
        self.viewports = viewports.isEmpty ? [Rect(x: 0, y: 0, width: 0, height: 0)] : viewports
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { viewports.count }

    /// The layout stays where the last step left it; the trace starts again at its first step.
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        var checksum = 0
        for _ in 0..<count {
            try Self.scroll(&layout, to: viewports[next], into: &buffer)
            checksum &+= buffer.count
            if let reuse { checksum &+= reuse.show(buffer) }
            next += 1
            if next == viewports.count { next = 0 }
        }
        return checksum
    }

    /// One step, returning its answer (for verification, untimed).
    func step() throws -> [LayoutAttributes] {
        _ = try run(count: 1)
        return buffer
    }

    /// A bounds change as UIKit makes it, then the query of the new bounds.
    static func scroll<Layout: CollectionLayout>(_ layout: inout Layout, to bounds: Rect, into buffer: inout [LayoutAttributes]) throws {
        try LayoutBoundsChange.apply(to: &layout, bounds: bounds)
        layout.elements(in: bounds, into: &buffer)
    }
}
