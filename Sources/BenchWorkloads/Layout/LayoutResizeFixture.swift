import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The width trace of `layout-resize` at one item count.
package final class LayoutResizeFixture: WorkloadFixture {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = LayoutResizeWorkload.Operation
    let build: LayoutBuild
    let sizes: [Size]

    init(build: LayoutBuild, sizes: [Size]) {
        self.build = build
        self.sizes = sizes
    }

    /// The name of step `step` in failures: the workload, the step and its width change.
    func stepName(_ step: Int) -> String {
        let from = step == 0 ? build.scenario.viewport.width : sizes[step - 1].width
        return "layout-resize step \(step) (width \(format(from)) → \(format(sizes[step].width)))"
    }

    /// A fresh layout of the strategy at the viewport `size` (offset 0), prepared.
    private func fresh(_ mode: LayoutStrategyMode, size: Size, step: String) throws -> any CollectionLayout {
        var layout = try build.make(mode, bounds: Rect(x: 0, y: 0, width: size.width, height: size.height))
        try build.prepare(&layout, mode: mode, step: step)
        return layout
    }

    /// The viewports of the trace: each size at the content offset of half the scrollable height
    /// at the starting width (`startHeight`, the layout's content height there), clamped to the
    /// scrollable height a fresh layout has at that size.
    func viewports(mode: LayoutStrategyMode, startHeight: Double) throws -> [Rect] {
        let offset = max(0, startHeight - build.scenario.viewport.height) / 2
        var heights: [Double: Double] = [:]
        var viewports: [Rect] = []
        for (step, size) in sizes.enumerated() {
            if heights[size.width] == nil {
                heights[size.width] = try fresh(mode, size: size, step: "\(stepName(step)), a fresh layout at the new width").contentSize.height
            }
            let scrollable = max(0, heights[size.width]! - size.height)
            viewports.append(Rect(x: 0, y: min(offset, scrollable), width: size.width, height: size.height))
        }
        return viewports
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        let viewports = try viewports(mode: mode, startHeight: layout.contentSize.height)
        let operation = LayoutScrollOperation(layout: layout, viewports: viewports)
        var elements: [Double] = []
        if verify {
            for (step, viewport) in viewports.enumerated() {
                let said = operation.layout.shouldInvalidate(forBoundsChange: viewport)
                let answer: [LayoutAttributes]
                do {
                    answer = try operation.step()
                } catch {
                    throw build.failure(mode, LayoutContract.Violation(check: "prepare", step: stepName(step), element: nil, detail: "prepare() threw: \(error)"))
                }
                elements.append(Double(answer.count))
                guard ReferenceGeometry.checksChange(step: step, count: viewports.count, items: build.items) else { continue }
                try check(operation.layout, answer: answer, mode: mode, step: step, viewport: viewport, saidYes: said)
            }
            operation.rewind()
        }
        return ModeMeasurement(
            operations: [TimedOperation(.resizeStep, .batchable(operation))],
            observations: verify ? [Observation(.resizeStep, .elements, elements)] : [])
    }

    /// The checks after step `step`: the answer by the contract, every element and the content
    /// size against a fresh layout at the new width, and the reference geometry when declared.
    private func check(
        _ layout: any CollectionLayout, answer: [LayoutAttributes], mode: LayoutStrategyMode, step: Int, viewport: Rect, saidYes: Bool
    ) throws {
        let name = stepName(step)
        // Why a layout shows the old width's frames, when it does.
        let said = saidYes ? "" : " (shouldInvalidate(forBoundsChange:) said no to this width change, so the layout was not invalidated)"
        func failure(_ violation: LayoutContract.Violation) -> VerificationError {
            var violation = violation
            violation.detail += said
            return build.failure(mode, violation)
        }
        let universe: [LayoutAttributes]
        do {
            universe = try LayoutContract.elementsAfterBoundsChange(
                of: layout, answer: answer, rect: viewport, data: build.data, bounds: viewport, step: name)
        } catch {
            throw failure(error)
        }
        // The fresh layout, moved to the step's offset as UIKit moves any layout.
        let freshStep = "\(name), a fresh layout at the new width"
        var fresh = try fresh(mode, size: Size(width: viewport.width, height: viewport.height), step: freshStep)
        var ignored: [LayoutAttributes] = []
        do {
            try LayoutScrollOperation.scroll(&fresh, to: viewport, into: &ignored)
        } catch {
            throw build.failure(mode, LayoutContract.Violation(check: "prepare", step: freshStep, element: nil, detail: "prepare() threw: \(error)"))
        }
        let expected: [LayoutAttributes]
        do {
            expected = try LayoutContract.elements(of: fresh, data: build.data, bounds: viewport, step: freshStep, pinnedMayStack: true)
        } catch {
            throw build.failure(mode, error)
        }
        if let violation = LayoutContract.firstDifference(
            of: universe + extraElements(of: layout, known: universe), from: expected.map { ReferenceElement(id: $0.id, frame: $0.frame) },
            check: "resize-equals-fresh", step: name) {
            throw failure(violation)
        }
        let size = layout.contentSize, freshSize = fresh.contentSize
        if !ReferenceTolerance.equal(size.width, freshSize.width) || !ReferenceTolerance.equal(size.height, freshSize.height) {
            throw failure(LayoutContract.Violation(
                check: "resize-equals-fresh", step: name, element: nil,
                detail: "contentSize (\(size.width), \(size.height)), a fresh layout's at the new width (\(freshSize.width), \(freshSize.height))"))
        }
        if let reference = try PinnedReference(build: build, mode: mode, width: viewport.width),
           let violation = reference.firstDifference(of: universe, bounds: viewport, step: name) {
            throw failure(violation)
        }
    }

    /// What a query of everything returns beyond `known` (an element of the old width left behind).
    private func extraElements(of layout: any CollectionLayout, known: [LayoutAttributes]) -> [LayoutAttributes] {
        let ids = Set(known.map(\.id))
        var everything: [LayoutAttributes] = []
        let size = layout.contentSize
        layout.elements(in: Rect(x: -1e6, y: -1e6, width: size.width + 2e6, height: size.height + 2e6), into: &everything)
        var extra: [LayoutAttributes] = []
        var seen = Set<ElementID>()
        for element in everything where !ids.contains(element.id) && seen.insert(element.id).inserted { extra.append(element) }
        return extra
    }

    /// The layout after one pass of the trace, at the last width (offset 0).
    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        let viewports = try viewports(mode: mode, startHeight: layout.contentSize.height)
        let operation = LayoutScrollOperation(layout: layout, viewports: viewports)
        _ = try operation.run(count: viewports.count)
        let last = viewports[viewports.count - 1]
        return build.snapshot(of: operation.layout, viewport: Rect(x: 0, y: 0, width: last.width, height: last.height))
    }
}
