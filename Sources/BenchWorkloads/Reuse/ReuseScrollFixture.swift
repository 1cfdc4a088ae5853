import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The rows' identifiers and the visible range of every frame, shared by all modes.
package final class ReuseScrollFixture: WorkloadFixture {
    package typealias Mode = ReuseMode
    package typealias Operation = ReuseScrollWorkload.Operation
    let scenario: Scenario
    let items: Int
    let workload: ReuseScrollWorkload
    let rowIdentifiers: [UInt8]
    let ranges: [Range<Int>]
    let capacity: Int

    init(scenario: Scenario, items: Int, workload: ReuseScrollWorkload) throws {
        self.scenario = scenario
        self.items = items
        self.workload = workload
        let heights = try scenario.makeData(items: items).heights
        var random = SplitMix64(seed: UInt64(workload.seed), stream: 6)
        rowIdentifiers = (0..<items).map { _ in UInt8(random.next(below: workload.identifiers)) }
        let rows = try PrefixSumReference(heights: heights)
        let trace = ScrollTrace(contentHeight: rows.contentHeight, viewportHeight: scenario.viewportSize.height, frames: workload.frames)
        ranges = try trace.offsets.map { try rows.visibleRows(top: $0, height: scenario.viewportSize.height) }
        capacity = workload.capacity ?? ((ranges.map(\.count).max() ?? 0) + 2)
    }

    /// The most rows visible at once.
    var mostVisible: Int { ranges.map(\.count).max() ?? 0 }

    /// The fewest cells any reuse strategy must create: per identifier, the most rows of that
    /// identifier visible at once (a cell never changes identifier), summed.
    var cellsNeeded: Int {
        var most = Array(repeating: 0, count: workload.identifiers)
        var counts = Array(repeating: 0, count: workload.identifiers)
        for range in ranges {
            for i in counts.indices { counts[i] = 0 }
            for row in range { counts[Int(rowIdentifiers[row])] += 1 }
            for i in most.indices { most[i] = Swift.max(most[i], counts[i]) }
        }
        return most.reduce(0, +)
    }

    package func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        switch mode {
        case .none: return try measurement(mode: mode, verify: verify) { RangeReusePool(source: FreshCells()) }
        case .setScan: return try measurement(mode: mode, verify: verify) { SetScanReusePool() }
        case .stacks:
            let identifiers = workload.identifiers, capacity = self.capacity
            return try measurement(mode: mode, verify: verify) {
                RangeReusePool(source: StackCells(identifierCount: identifiers, capacity: capacity))
            }
        }
    }

    /// The list the rows scroll through (reuse changes no frame).
    package func snapshot(mode: Mode) throws -> LayoutSnapshot {
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: scenario.makeStyles(), data: scenario.makeData(items: items), queryMode: .binary)
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }

    private func measurement<P: ReusePool>(mode: Mode, verify: Bool, make: () -> P) throws -> ModeMeasurement<Operation> {
        var pool = make()
        var seen: [Bool] = []
        for (frame, range) in ranges.enumerated() {
            pool.show(range, identifiers: rowIdentifiers)
            if verify, let problem = pool.firstProblem(visible: range, identifiers: rowIdentifiers, seen: &seen) {
                throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: "frame \(frame) (rows \(range)): \(problem)")
            }
        }
        let statistics = pool.statistics
        // The timed pool starts where the verified pass ended: warm, as a scrolling table is.
        let operation = ReuseScrollOperation(pool: pool, ranges: ranges, identifiers: rowIdentifiers)
        return ModeMeasurement(
            operations: [TimedOperation(.scrollStep, .batchable(operation))],
            observations: [
                Observation(.scrollStep, .cellsCreated, [Double(statistics.cellsCreated)]),
                Observation(.scrollStep, .dequeues, [Double(statistics.dequeues)]),
                Observation(.scrollStep, .peakPool, [Double(statistics.peakPoolSize)]),
                Observation(.scrollStep, .mostVisible, [Double(mostVisible)]),
                Observation(.scrollStep, .cellsNeeded, [Double(cellsNeeded)]),
            ])
    }
}
