import LayoutEngine
import LayoutReference
import BenchScenarios

/// One batch per timed operation: `invalidate(with: .dataSourceCounts)`, the step's batch
/// (built before the timing) through `prepare(forCollectionViewUpdates:)`, then `prepare()`. A fresh layout of the initial data (built and prepared outside the
/// timing) starts each pass of the trace.
final class LayoutBatchOperation: ConsumingOperation {
    private let make: (LayoutData) throws -> any CollectionLayout
    private let trace: UpdateTrace
    private let batches: [[LayoutChange]]
    private var layout: (any CollectionLayout)?
    private var step = 0

    init(make: @escaping (LayoutData) throws -> any CollectionLayout, trace: UpdateTrace) {
        self.make = make
        self.trace = trace
        batches = trace.changes.map { [$0] }
    }

    var traceLength: Int { batches.count }

    func rewind() { layout = nil }

    func prepareNext() throws {
        if layout == nil || step == batches.count {
            layout = nil
            var fresh = try make(trace.freshInitialData())
            try fresh.prepare()
            layout = fresh
            step = 0
        }
    }

    func runNext() throws -> Int {
        guard layout != nil, step < batches.count else { throw OperationMisuse.notPrepared }
        layout!.invalidate(with: .dataSourceCounts)
        layout!.prepare(forCollectionViewUpdates: batches[step])
        try layout!.prepare()
        step += 1
        return Int(truncatingIfNeeded: layout!.contentSize.height.bitPattern)
    }
}
