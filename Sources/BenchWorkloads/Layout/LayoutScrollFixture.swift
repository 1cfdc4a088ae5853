import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The scroll of `layout-sticky-scroll` or `layout-reuse-scroll` at one item count.
package final class LayoutScrollFixture: WorkloadFixture {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One bounds change and the viewport query (and for `layout-reuse-scroll`, the cells).
        case scrollStep = "scroll-step"

        package var timed: String {
            "one step of the trace, in order, wrapping at its end: the new bounds, `shouldInvalidate(forBoundsChange:)` and, "
                + "when it says yes, `invalidationContext(forBoundsChange:)`, `invalidate(with:)` and `prepare()`; then the "
                + "viewport's `elements(in:into:)`; for `layout-reuse-scroll` also the cells given back and dequeued; "
                + "a sample is a batch of consecutive steps, divided"
        }
        package var untimed: String { "the layout's first prepare and the verification pass over the whole trace" }
    }

    enum Trace {
        /// `StickyScrollTrace`, no cells.
        case sticky(steps: Int)
        /// `ScrollTrace`, and cells by reuse identifier.
        case reuse(frames: Int, identifiers: Int, seed: Int)
    }

    let build: LayoutBuild
    let trace: Trace

    init(build: LayoutBuild, trace: Trace) {
        self.build = build
        self.trace = trace
    }

    /// The viewports of the trace, for a layout of `contentHeight`.
    func viewports(contentHeight: Double) -> [Rect] {
        let viewport = build.scenario.viewport
        switch trace {
        case .sticky(let steps):
            return StickyScrollTrace(contentHeight: contentHeight, viewportHeight: viewport.height, steps: steps).offsets.map {
                Rect(x: viewport.minX, y: $0, width: viewport.width, height: viewport.height)
            }
        case .reuse(let frames, _, _):
            let trace = ScrollTrace(contentHeight: contentHeight, viewportHeight: viewport.height, frames: frames)
            return trace.rects(viewport: viewport)
        }
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        let viewports = viewports(contentHeight: layout.contentSize.height)
        let operation = LayoutScrollOperation(layout: layout, viewports: viewports)
        let reference = verify ? try PinnedReference(build: build, mode: mode) : nil
        let checked = Set(ReferenceGeometry.checkedQueryFrames(count: viewports.count, items: build.items))

        // The answers of the whole trace from its first step (the check of the checked steps when
        // verifying), and what the cells need: the most elements visible at once, and the elements
        // other than items and index-0 supplementaries, which get slots of their own.
        var elements: [Double] = []
        var mostVisible = 0
        var extras = Set<ElementID>()
        let slots = ElementSlots(data: build.data)
        if verify || trace.reusesCells {
            elements.reserveCapacity(viewports.count)
            for (step, viewport) in viewports.enumerated() {
                let answer = try self.step(operation, mode: mode, step: step)
                let distinct = Set(answer.map(\.id))
                elements.append(Double(answer.count))
                mostVisible = max(mostVisible, distinct.count)
                for id in distinct where slots.standardSlot(of: id) == nil { extras.insert(id) }
                guard verify, checked.contains(step) else { continue }
                let stepName = "scroll step \(step)"
                let universe: [LayoutAttributes]
                do {
                    universe = try LayoutContract.elementsAfterBoundsChange(
                        of: operation.layout, answer: answer, rect: viewport, data: build.data, bounds: viewport, step: stepName)
                } catch {
                    throw build.failure(mode, error)
                }
                if let violation = reference?.firstDifference(of: universe, bounds: viewport, step: stepName) {
                    throw build.failure(mode, violation)
                }
            }
            operation.rewind()
        }

        var observations: [Observation<Operation>] = verify || trace.reusesCells ? [Observation(.scrollStep, .elements, elements)] : []
        if case .reuse(_, let identifiers, let seed) = trace {
            let reuse = ElementReuse(slots: slots.adding(extras), identifiers: identifiers, seed: seed, mostVisible: mostVisible)
            operation.reuse = reuse
            // The cells along the whole trace, checked against the plain simulation at every step
            // when verifying; the timed pool then starts warm, where this pass ended.
            var oracle = ReuseReference()
            for step in viewports.indices {
                let answer = try self.step(operation, mode: mode, step: step)
                let expected = oracle.step(answer.map(\.id)) { Int(reuse.identifier(of: $0)) }
                if verify, let violation = reuse.firstProblem(answer: answer, expected: expected, step: "scroll step \(step)") {
                    throw build.failure(mode, violation)
                }
            }
            operation.rewind()
            let statistics = reuse.pool.statistics
            observations += [
                Observation(.scrollStep, .cellsCreated, [Double(statistics.cellsCreated)]),
                Observation(.scrollStep, .dequeues, [Double(statistics.dequeues)]),
                Observation(.scrollStep, .peakPool, [Double(statistics.peakPoolSize)]),
                Observation(.scrollStep, .mostVisible, [Double(mostVisible)]),
                Observation(.scrollStep, .cellsNeeded, [Double(oracle.cellsNeeded)]),
            ]
        }
        return ModeMeasurement(operations: [TimedOperation(.scrollStep, .batchable(operation))], observations: observations)
    }

    /// One step of `operation`, untimed; a `prepare()` that throws fails the mode naming the step.
    private func step(_ operation: LayoutScrollOperation, mode: LayoutStrategyMode, step: Int) throws -> [LayoutAttributes] {
        do {
            return try operation.step()
        } catch {
            throw build.failure(mode, LayoutContract.Violation(check: "prepare", step: "scroll step \(step)", element: nil, detail: "prepare() threw: \(error)"))
        }
    }

    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        return build.snapshot(of: layout)
    }
}

extension LayoutScrollFixture.Trace {
    var reusesCells: Bool {
        if case .reuse = self { return true }
        return false
    }
}
