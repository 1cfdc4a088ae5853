import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// Prepares a layout of a registered kind: a fresh one (created, and the previous one freed,
/// outside the timing), or the same one after invalidating everything.
final class LayoutPrepareOperation: ConsumingOperation {
    private let make: () throws -> any CollectionLayout
    private let relayout: Bool
    private var layout: (any CollectionLayout)?

    init(make: @escaping () throws -> any CollectionLayout, relayout: Bool) {
        self.make = make
        self.relayout = relayout
    }

    let traceLength = 1

    func rewind() {}

    func prepareNext() throws {
        if relayout, layout != nil {
            layout!.invalidate(with: .everything)
            return
        }
        layout = nil
        var fresh = try make()
        if relayout {
            try fresh.prepare()
            fresh.invalidate(with: .everything)
        }
        layout = fresh
    }

    func runNext() throws -> Int {
        guard layout != nil else { throw OperationMisuse.notPrepared }
        try layout!.prepare()
        return Int(truncatingIfNeeded: layout!.contentSize.height.bitPattern)
    }
}
