import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

package final class LayoutPrepareFixture: WorkloadFixture {
    package typealias Operation = LayoutPrepareWorkload.Operation
    let build: LayoutBuild

    init(build: LayoutBuild) { self.build = build }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        if verify {
            var layout = try build.make(mode)
            try build.prepare(&layout, mode: mode, step: "prepare")
            let fresh = try build.verify(layout, mode: mode, rects: build.checkRects(contentHeight: layout.contentSize.height), after: "prepare")
            layout.invalidate(with: .everything)
            try build.prepare(&layout, mode: mode, step: "relayout")
            let relaid = try build.verify(layout, mode: mode, rects: build.checkRects(contentHeight: layout.contentSize.height), after: "relayout")
            if let violation = LayoutContract.firstDifference(
                of: relaid, from: fresh.map { ReferenceElement(id: $0.id, frame: $0.frame) }, check: "relayout-equals-fresh", step: "relayout") {
                throw build.failure(mode, violation)
            }
        }
        let make = { [build] () throws -> any CollectionLayout in try build.make(mode) }
        return ModeMeasurement(operations: [
            TimedOperation(.prepare, .consuming(LayoutPrepareOperation(make: make, relayout: false))),
            TimedOperation(.relayout, .consuming(LayoutPrepareOperation(make: make, relayout: true))),
        ])
    }

    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        return build.snapshot(of: layout)
    }
}
