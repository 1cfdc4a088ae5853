import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The estimated data and the trace of `layout-self-sizing` at one item count.
package final class LayoutSelfSizingFixture: WorkloadFixture {
    package typealias Operation = LayoutSelfSizingWorkload.Operation
    let build: LayoutBuild
    let trace: SelfSizingTrace
    /// The data with every item at the estimate: what the layout under test starts from.
    let estimated: LayoutData
    let estimatedWidth: Double
    let estimatedHeight: Double

    init(build: LayoutBuild, workload: LayoutSelfSizingWorkload) throws {
        self.build = build
        trace = SelfSizingTrace(steps: workload.steps)
        estimatedWidth = workload.estimatedWidth
        estimatedHeight = workload.estimatedHeight
        estimated = try Self.estimate(build.data, width: workload.estimatedWidth, height: workload.estimatedHeight)
    }

    /// `data` with every item's height `height`, and its width `width` unless that is 0.
    static func estimate(_ data: LayoutData, width: Double, height: Double) throws -> LayoutData {
        var sections: [[ItemSize]] = []
        for s in 0..<data.sectionCount {
            sections.append((0..<data.itemCount(inSection: s)).map { i in
                let size = data.size(section: s, item: i)
                return ItemSize(width: width > 0 ? width : size.width, height: height, spansAllColumns: size.spansAllColumns)
            })
        }
        return try LayoutData(sections: sections)
    }

    /// A layout of the estimated data, prepared, at offset 0. Its data is a copy of its own, so
    /// that the first size it writes does not copy the arrays it shares with `estimated` in the
    /// timed region.
    func session(_ mode: LayoutStrategyMode) throws -> SelfSizingSession {
        let own = try Self.estimate(build.data, width: estimatedWidth, height: estimatedHeight)
        var layout = try build.make(mode, data: own)
        try build.prepare(&layout, mode: mode, step: "layout-self-sizing: prepare")
        return SelfSizingSession(layout: layout, data: build.data, viewport: build.scenario.viewport, estimatedWidth: estimatedWidth)
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var observations: [Observation<Operation>] = []
        if verify {
            let (anchorJump, sizeChurn) = try verifyTrace(mode: mode)
            observations = [Observation(.selfSizingStep, .anchorJump, [anchorJump]), Observation(.selfSizingStep, .sizeChurn, [sizeChurn])]
        }
        let operation = LayoutSelfSizingOperation(make: { [self] in try self.session(mode) }, trace: trace)
        return ModeMeasurement(operations: [TimedOperation(.selfSizingStep, .consuming(operation))], observations: observations)
    }

    /// Replays the trace, checking every step against a fresh layout of the data as it then is;
    /// returns `anchor_jump` and `size_churn`.
    func verifyTrace(mode: LayoutStrategyMode) throws -> (Double, Double) {
        let session = try session(mode)
        var mixed = estimated
        var anchorJump = 0.0, sizeChurn = 0.0
        for (index, move) in trace.moves.enumerated() {
            let step = SelfSizingSession.stepName(index, move)
            let before = session.layout.contentSize.height
            let screenMove: Double
            do {
                screenMove = try session.run(move, step: index, observe: true)
            } catch let violation as LayoutContract.Violation {
                throw build.failure(mode, violation)
            }
            anchorJump += screenMove.magnitude
            sizeChurn += (session.layout.contentSize.height - before).magnitude
            try checkAgainstFresh(session, mixed: &mixed, mode: mode, step: step)
        }
        _ = try build.verify(
            session.layout, mode: mode, data: mixed,
            rects: build.checkRects(contentHeight: session.layout.contentSize.height), after: "layout-self-sizing: after the trace")
        return (anchorJump, sizeChurn)
    }

    /// Every measured item of `session` where a fresh layout of the data (true sizes for the
    /// measured items, estimates for the rest) places it, and the same content height.
    private func checkAgainstFresh(_ session: SelfSizingSession, mixed: inout LayoutData, mode: LayoutStrategyMode, step: String) throws {
        let data = build.data
        for s in 0..<data.sectionCount {
            for i in 0..<data.itemCount(inSection: s) where session.measured[data.globalIndex(section: s, item: i)] {
                let size = data.size(section: s, item: i)
                if mixed.size(section: s, item: i) != size { try mixed.setSize(size, section: s, item: i) }
            }
        }
        var fresh = try build.make(mode, data: mixed)
        try build.prepare(&fresh, mode: mode, step: "\(step), a fresh layout of the measured sizes")
        func violation(_ id: ElementID?, _ detail: String) -> VerificationError {
            build.failure(mode, LayoutContract.Violation(check: "self-sizing-equals-fresh", step: step, element: id, detail: detail))
        }
        let height = session.layout.contentSize.height, expectedHeight = fresh.contentSize.height
        for s in 0..<data.sectionCount {
            for i in 0..<data.itemCount(inSection: s) where session.measured[data.globalIndex(section: s, item: i)] {
                let id = ElementID.item(i, section: s)
                let actual: Rect, expected: Rect
                do {
                    actual = try session.layout.attributes(for: id).frame
                    expected = try fresh.attributes(for: id).frame
                } catch {
                    throw violation(id, "attributes(for:) threw: \(error)")
                }
                guard !ReferenceTolerance.equal(actual, expected) else { continue }
                let estimate = estimated.size(section: s, item: i)
                let kept = actual.height == estimate.height && expected.height != estimate.height
                throw violation(id, "frame \(actual), a fresh layout with the measured sizes places it at \(expected)"
                    + (kept ? " (the layout kept its estimated height \(estimate.height) after the item's preferred attributes)" : ""))
            }
        }
        if !ReferenceTolerance.equal(height, expectedHeight) {
            throw violation(nil, "content height \(height), a fresh layout with the measured sizes has \(expectedHeight)")
        }
    }

    /// The layout after the whole trace.
    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        let session = try session(mode)
        for (index, move) in trace.moves.enumerated() { _ = try session.run(move, step: index, observe: false) }
        return build.snapshot(of: session.layout)
    }
}
