import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The data, the trace and the reference layout, shared by all modes.
package final class StickyScrollFixture: WorkloadFixture {
    package typealias Mode = StickyScrollWorkload.Mode
    package typealias Operation = StickyScrollWorkload.Operation
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    let data: LayoutData
    let trace: StickyScrollTrace
    let viewports: [Rect]
    /// The independent geometry every step is checked against (built on first use: the callgrind
    /// child, which does not verify, never pays for it).
    private(set) lazy var reference: ReferenceLayout = {
        // The same inputs the layout accepted; the reference refuses only what the engine refuses.
        try! ReferenceLayout(data: data, styles: styles, viewportWidth: scenario.viewport.width)
    }()

    init(scenario: Scenario, items: Int, steps: Int) throws {
        self.scenario = scenario
        self.items = items
        styles = scenario.makeStyles()
        data = try scenario.makeData(items: items)
        let contentHeight = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: styles, data: data).contentHeight
        trace = StickyScrollTrace(contentHeight: contentHeight, viewportHeight: scenario.viewport.height, steps: steps)
        viewports = trace.offsets.map {
            Rect(x: scenario.viewport.minX, y: $0, width: scenario.viewport.width, height: scenario.viewport.height)
        }
    }

    /// The layout a mode scrolls, prepared at the viewport's first place.
    func makeLayout(mode: Mode) throws -> SectionedLayout {
        var layout: SectionedLayout
        if let pinningMode = mode.pinningMode {
            layout = try SectionedLayout(
                bounds: scenario.viewport, styles: styles, data: data, queryMode: .binary,
                pinOffset: scenario.layout.pinOffset, pinningMode: pinningMode)
        } else {
            layout = try SectionedLayout(bounds: scenario.viewport, styles: styles.map(\.unpinned), data: data, queryMode: .binary)
        }
        try layout.prepare()
        return layout
    }

    package func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        let layout = try makeLayout(mode: mode)
        let operation = ScrollStep(layout: layout, viewports: viewports, boundsChanges: mode.pinningMode != nil)
        var elements: [Double] = []
        if verify {
            // One pass over the whole trace from the first step, checking the answers of the
            // checked steps (every step up to 300,000 items, every 10th above: the reference's
            // answer is a linear scan of every element).
            elements.reserveCapacity(viewports.count)
            let checked = Set(ReferenceGeometry.checkedQueryFrames(count: viewports.count, items: items))
            for (step, viewport) in viewports.enumerated() {
                let answer = try operation.step()
                elements.append(Double(answer.count))
                guard checked.contains(step) else { continue }
                if let problem = check(mode: mode, viewport: viewport, answer: answer) {
                    throw VerificationError(
                        scenario: scenario.name, mode: mode.rawValue, items: items, detail: "scroll step \(step): \(problem)")
                }
            }
            operation.rewind()
        }
        return ModeMeasurement(
            operations: [TimedOperation(.scrollStep, .batchable(operation))],
            observations: [Observation(.scrollStep, .elements, elements)])
    }

    /// How `answer`, a mode's viewport query at `viewport`, differs from the reference, or nil.
    func check(mode: Mode, viewport: Rect, answer: [LayoutAttributes]) -> String? {
        if mode.pinningMode == nil {
            return ReferenceCheck.firstMismatch(ofQuery: viewport, answer: answer, against: reference)
        }
        return ReferenceCheck.firstMismatch(
            ofPinnedQuery: viewport, answer: answer, against: reference, pinOffset: scenario.layout.pinOffset,
            offset: viewport.minY, viewportHeight: viewport.height)
    }

    /// The laid-out frames; pinned headers and footers move with `dump --offset` (not for the baseline).
    package func snapshot(mode: Mode) throws -> LayoutSnapshot {
        let layout = try makeLayout(mode: mode)
        return LayoutSnapshot(
            frames: layout.frames, queryMode: .binary, viewport: scenario.viewport, styles: layout.styles,
            pinOffset: layout.pinOffset)
    }
}
