import LayoutEngine
import LayoutReference
import BenchScenarios

/// The traces of a batch workload at one item count, shared by the kind's strategies.
///
/// Verification, per operation's trace: a layout of the initial data, prepared; then each change
/// as a batch (`invalidate(with: .dataSourceCounts)`, `prepare(forCollectionViewUpdates: [change])`, `prepare()`). After the changes
/// `ReferenceGeometry.checksChange` picks (every one at small counts; the first, middle and last
/// above), the updated layout must pass the contract (`LayoutContract`, and the reference geometry
/// when its kind declares `sameGeometryAs`) for the data as it now is, and its elements and frames
/// must equal those of a fresh layout of that data from the kind's factory (check
/// `batch-equals-fresh`, within `ReferenceTolerance`).
package final class LayoutBatchFixture<Operation: WorkloadOperation>: WorkloadFixture {
    package typealias Mode = LayoutStrategyMode
    let build: LayoutBuild
    let traces: [(Operation, UpdateTrace)]

    init(build: LayoutBuild, traces: [(Operation, UpdateTrace)]) {
        self.build = build
        self.traces = traces
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var operations: [TimedOperation<Operation>] = []
        for (operation, trace) in traces {
            if verify { try verifyBatches(mode: mode, operation: operation, trace: trace) }
            let build = build
            let work = LayoutBatchOperation(make: { data in try build.make(mode, data: data) }, trace: trace)
            operations.append(TimedOperation(operation, .consuming(work)))
        }
        return ModeMeasurement(operations: operations)
    }

    func verifyBatches(mode: LayoutStrategyMode, operation: Operation, trace: UpdateTrace) throws {
        var layout = try build.make(mode, data: trace.initial)
        try build.prepare(&layout, mode: mode, step: "\(operation.rawValue): prepare")
        var data = trace.initial
        for (step, change) in trace.changes.enumerated() {
            let name = "\(operation.rawValue) batch \(step) (\(change.shortDescription))"
            layout.invalidate(with: .dataSourceCounts)
            layout.prepare(forCollectionViewUpdates: [change])
            try build.prepare(&layout, mode: mode, step: name)
            try change.apply(to: &data)
            guard ReferenceGeometry.checksChange(step: step, count: trace.changes.count, items: build.items) else { continue }
            let updated = try everyElement(of: layout, mode: mode, data: data, step: name)
            var fresh = try build.make(mode, data: data)
            let freshStep = "\(name), a fresh layout of the data"
            try build.prepare(&fresh, mode: mode, step: freshStep)
            let expected = try everyElement(of: fresh, mode: mode, data: data, step: freshStep)
            if let violation = LayoutContract.firstDifference(
                of: updated, from: expected.map { ReferenceElement(id: $0.id, frame: $0.frame) }, check: "batch-equals-fresh", step: name) {
                throw build.failure(mode, violation)
            }
            _ = try build.verify(layout, mode: mode, data: data, rects: build.checkRects(contentHeight: layout.contentSize.height), after: name)
        }
    }

    /// The elements of `data` (`LayoutContract.elements`, frames checked) and any other that a
    /// query of everything returns (an item a batch should have deleted, say).
    private func everyElement(of layout: any CollectionLayout, mode: LayoutStrategyMode, data: LayoutData, step: String) throws -> [LayoutAttributes] {
        var elements: [LayoutAttributes]
        do {
            elements = try LayoutContract.elements(of: layout, data: data, bounds: build.scenario.viewport, step: step)
        } catch {
            throw build.failure(mode, error)
        }
        let known = Set(elements.map(\.id))
        var everything: [LayoutAttributes] = []
        let size = layout.contentSize
        layout.elements(in: Rect(x: -1e6, y: -1e6, width: size.width + 2e6, height: size.height + 2e6), into: &everything)
        elements += everything.filter { !known.contains($0.id) }
        return elements
    }

    /// The layout after the whole trace of the first operation.
    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        guard let (operation, trace) = traces.first else {
            var layout = try build.make(mode)
            try build.prepare(&layout, mode: mode, step: "prepare")
            return build.snapshot(of: layout)
        }
        var layout = try build.make(mode, data: trace.initial)
        try build.prepare(&layout, mode: mode, step: "prepare")
        var data = trace.initial
        for (step, change) in trace.changes.enumerated() {
            layout.invalidate(with: .dataSourceCounts)
            layout.prepare(forCollectionViewUpdates: [change])
            try build.prepare(&layout, mode: mode, step: "\(operation.rawValue) batch \(step)")
            try change.apply(to: &data)
        }
        return build.snapshot(of: layout, data: data)
    }
}
