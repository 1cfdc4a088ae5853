import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

package final class LayoutQueryFixture: WorkloadFixture {
    package typealias Operation = LayoutQueryWorkload.Operation
    let build: LayoutBuild
    let frames: Int

    init(build: LayoutBuild, frames: Int) {
        self.build = build
        self.frames = frames
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        let viewport = build.scenario.viewport
        let trace = ScrollTrace(contentHeight: layout.contentSize.height, viewportHeight: viewport.height, frames: frames)
        let rects = trace.rects(viewport: viewport)
        var elements: [Double] = []
        if verify {
            let checked = ReferenceGeometry.checkedQueryFrames(count: rects.count, items: build.items).map { ("trace frame \($0)", rects[$0]) }
            _ = try build.verify(layout, mode: mode, rects: checked + build.checkRects(contentHeight: layout.contentSize.height), after: "prepare")
            var buffer: [LayoutAttributes] = []
            for rect in rects {
                layout.elements(in: rect, into: &buffer)
                elements.append(Double(buffer.count))
            }
        }
        return ModeMeasurement(
            operations: [TimedOperation(.query, .batchable(makeQueryOperation(layout, rects: rects)))],
            observations: verify ? [Observation(.query, .elements, elements)] : [])
    }

    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        return build.snapshot(of: layout)
    }
}
