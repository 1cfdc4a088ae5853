import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The prepared layout, the trace and the exact answer of every frame, shared by all modes.
package final class QueryFixture: WorkloadFixture {
    package typealias Operation = QueryWorkload.Operation
    let scenario: Scenario
    let items: Int
    let layout: SectionedLayout
    let trace: ScrollTrace
    /// Whether headers or footers pin, so that each frame moves the bounds before its query.
    let pins: Bool
    /// Per frame, the exact answer (`linear`'s, checked against the reference geometry by
    /// `referenceProblem`) sorted by element.
    private(set) lazy var reference: Result<[[LayoutAttributes]], any Error> = Result {
        var linear = layout
        linear.setQueryMode(.linear)
        try linear.prepare()
        var buffer: [LayoutAttributes] = []
        return try trace.offsets.indices.map { frame in
            try answer(of: &linear, at: trace.rect(at: frame, viewport: scenario.viewport), into: &buffer)
            return buffer.sorted { $0.id < $1.id }
        }
    }

    /// The first difference of the prepared layout, or of `linear`'s answers on the checked trace
    /// frames, from the reference geometry (`ReferenceGeometry`); nil when they agree. Every mode
    /// fails when this is not nil: they all query these frames.
    private lazy var referenceProblem: Result<String?, any Error> = Result {
        let geometry = try ReferenceGeometry.layout(bounds: scenario.viewport, styles: layout.styles, data: layout.data)
        if let problem = ReferenceCheck.firstMismatch(of: layout.frames, against: geometry) {
            return "the prepared layout against the reference layout: \(problem)"
        }
        let reference = try reference.get()
        for frame in ReferenceGeometry.checkedQueryFrames(count: trace.offsets.count, items: items) {
            let rect = trace.rect(at: frame, viewport: scenario.viewport)
            let problem = pins
                ? ReferenceCheck.firstMismatch(
                    ofPinnedQuery: rect, answer: reference[frame], against: geometry, pinOffset: layout.pinOffset,
                    offset: rect.minY, viewportHeight: rect.height)
                : ReferenceCheck.firstMismatch(ofQuery: rect, answer: reference[frame], against: geometry)
            if let problem {
                return "linear's answer at trace frame \(frame) against the reference layout: \(problem)"
            }
        }
        return nil
    }

    init(scenario: Scenario, items: Int, frames: Int) throws {
        self.scenario = scenario
        self.items = items
        var layout = try SectionedLayout(
            bounds: scenario.viewport, styles: scenario.makeStyles(), data: scenario.makeData(items: items),
            pinOffset: scenario.layout.pinOffset)
        try layout.prepare()
        self.layout = layout
        pins = !layout.pinned.isEmpty
        trace = ScrollTrace(
            contentHeight: layout.contentSize.height, viewportHeight: scenario.viewport.height, frames: frames)
    }

    package func makeMeasurement(mode: RectQueryMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        if verify, let problem = try referenceProblem.get() {
            throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: problem)
        }
        var modeLayout = layout
        modeLayout.setQueryMode(mode)
        try modeLayout.prepare()
        let (recall, elements) = try check(
            mode: mode.rawValue, isExact: mode.isExact, verify: verify,
            query: { rect, buffer in try answer(of: &modeLayout, at: rect, into: &buffer) })
        let operation: any BatchableOperation
        if pins {
            let viewports = trace.rects(viewport: scenario.viewport)
            operation = ScrollStep(layout: modeLayout, viewports: viewports, boundsChanges: true)
        } else {
            operation = QueryOperation(layout: modeLayout, rects: trace.rects(viewport: scenario.viewport))
        }
        return ModeMeasurement(
            operations: [TimedOperation(.query, .batchable(operation))],
            observations: [Observation(.query, .recall, recall), Observation(.query, .elements, elements)])
    }

    /// The prepared layout, queried with the mode.
    package func snapshot(mode: RectQueryMode) throws -> LayoutSnapshot {
        LayoutSnapshot(frames: layout.frames, queryMode: mode, viewport: scenario.viewport)
    }

    /// `layout`'s answer for the viewport `rect`: when something pins, after moving the bounds
    /// there, as a scroll does.
    func answer(of layout: inout SectionedLayout, at rect: Rect, into buffer: inout [LayoutAttributes]) throws {
        if pins {
            if layout.shouldInvalidate(forBoundsChange: rect) {
                layout.invalidate(with: layout.invalidationContext(forBoundsChange: rect))
            }
            try layout.prepare()
        }
        layout.elements(in: rect, into: &buffer)
    }

    /// Runs `query` on every frame of the trace: an exact mode must return exactly the reference
    /// (else `VerificationError`); a heuristic gets its recall per frame. Also counts elements.
    func check(
        mode: String, isExact: Bool, verify: Bool, query: (Rect, inout [LayoutAttributes]) throws -> Void
    ) throws -> (recall: [Double], elements: [Double]) {
        var recall: [Double] = [], elements: [Double] = []
        recall.reserveCapacity(trace.offsets.count)
        elements.reserveCapacity(trace.offsets.count)
        var buffer: [LayoutAttributes] = []
        for frame in trace.offsets.indices where verify {
            let rect = trace.rect(at: frame, viewport: scenario.viewport)
            try query(rect, &buffer)
            let exact = try reference.get()[frame]
            elements.append(Double(buffer.count))
            if isExact {
                let returned = buffer.sorted { $0.id < $1.id }
                if let problem = Self.difference(returned, exact) {
                    throw VerificationError(
                        scenario: scenario.name, mode: mode, items: items,
                        detail: "query \(rect) at trace frame \(frame): \(problem)")
                }
                recall.append(1)
            } else {
                recall.append(QueryRecall(returned: buffer, exact: exact).recall)
            }
        }
        return (recall, elements)
    }

    /// How two sorted answers differ (a missing, extra or misplaced element), or nil.
    static func difference(_ returned: [LayoutAttributes], _ exact: [LayoutAttributes]) -> String? {
        let returnedIDs = Set(returned.map(\.id)), exactIDs = Set(exact.map(\.id))
        if returned.count != returnedIDs.count { return "an element was returned twice" }
        if let missing = exact.first(where: { !returnedIDs.contains($0.id) }) { return "missed \(missing.id)" }
        if let extra = returned.first(where: { !exactIDs.contains($0.id) }) { return "returned \(extra.id), which does not intersect" }
        for (a, b) in zip(returned, exact) where !ReferenceTolerance.equal(a.frame, b.frame) {
            return "\(a.id) has frame \(a.frame), expected \(b.frame)"
        }
        return nil
    }
}
