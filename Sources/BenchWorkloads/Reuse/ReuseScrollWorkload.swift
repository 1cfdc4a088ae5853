import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `reuse-scroll`: the visible range of a list follows a scroll trace (`ScrollTrace`: drags,
/// flings, a scrubber pass, a jump to the top), and cells are dequeued and enqueued by reuse
/// identifier as rows appear and disappear (docs/modes.md). Rows draw one of `identifiers` reuse
/// identifiers at random; visible ranges come from the rows' heights (plain prefix sums).
/// Every mode is checked on every frame: each visible row has exactly one cell, created for the
/// row's identifier. Reported with the timing: `cells_created`, `dequeues`, `peak_pool`.
public struct ReuseScrollWorkload: Workload {
    public typealias Mode = ReuseMode
    public enum Operation: String, WorkloadOperation {
        /// The pool shows one frame's visible range.
        case scrollStep = "scroll-step"

        public var timed: String {
            "one frame of the scroll trace, in order, wrapping at its end: the cells of rows that left the visible range "
                + "enqueued and the rows that entered it given a cell by reuse identifier; a sample is a batch of "
                + "consecutive frames, divided"
        }
        public var untimed: String { "the visible ranges of the trace, computed beforehand from the rows' heights" }
    }

    public static let kind = "reuse-scroll"
    public static let about = "cells dequeued and enqueued by reuse identifier while the visible range follows a scroll trace"

    public static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(600), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (as `query`'s), one visible range each")
    public static let identifiersKey = WorkloadKey(
        "identifiers", .integer, default: .integer(3), bound: .between(1, 255),
        about: "reuse identifiers; each row draws one at random")
    public static let capacityKey = WorkloadKey(
        "capacity", .integer, default: .described("the most rows ever visible at once + 2"), bound: .between(1, 1_000_000),
        about: "free cells kept per identifier by `stacks`")
    public static let seedKey = WorkloadKey.seed("the rows' identifiers")
    public static let keys = [framesKey, identifiersKey, capacityKey, seedKey]

    public var frames: Int
    public var identifiers: Int
    /// Free cells kept per identifier by `stacks` (default: the most rows ever visible at once + 2).
    public var capacity: Int?
    public var seed: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(Self.framesKey)
        identifiers = try spec.int(Self.identifiersKey)
        capacity = try spec.optionalInt(Self.capacityKey)
        seed = try spec.int(Self.seedKey)
        try spec.finish()
    }

    public var operations: [Operation] { [.scrollStep] }

    public func validate(_ scenario: Scenario) throws(ScenarioError) {}

    public var footprint: WorkloadFootprint { .none }

    public func makeFixture(scenario: Scenario, items: Int) throws -> ReuseScrollFixture {
        try ReuseScrollFixture(scenario: scenario, items: items, workload: self)
    }
}

/// The rows' identifiers and the visible range of every frame, shared by all modes.
public final class ReuseScrollFixture: WorkloadFixture {
    public typealias Mode = ReuseMode
    public typealias Operation = ReuseScrollWorkload.Operation
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

    public func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
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
    public func snapshot(mode: Mode) throws -> LayoutSnapshot {
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

/// One frame of the trace per operation: the pool shows that frame's visible range (cycling).
final class ReuseScrollOperation<P: ReusePool>: BatchableOperation {
    private var pool: P
    private let ranges: [Range<Int>]
    private let identifiers: [UInt8]
    private var next = 0

    init(pool: P, ranges: [Range<Int>], identifiers: [UInt8]) {
        self.pool = pool
        self.ranges = ranges.isEmpty ? [0..<0] : ranges
        self.identifiers = identifiers
    }

    var traceLength: Int { ranges.count }
    /// The pool stays warm; the trace starts again at its first frame.
    func rewind() { next = 0 }

    func run(count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            pool.show(ranges[next], identifiers: identifiers)
            checksum &+= pool.visibleCellCount
            next += 1
            if next == ranges.count { next = 0 }
        }
        return checksum
    }
}

/// The reuse strategies, as a user reads them.
extension ReuseMode: WorkloadMode {
    public var about: String {
        switch self {
        case .none: return "a new cell for every row that appears; cells that leave are dropped"
        case .setScan: return "a row-to-cell dictionary copied and filtered every frame, one unbounded pool scanned for the identifier"
        case .stacks: return "one bounded LIFO stack per reuse identifier; the visible range is a ring diffed against the previous one, O(change)"
        }
    }

    public var reproduces: String {
        switch self {
        case .none: return "no reuse"
        case .setScan: return "DZTableView"
        case .stacks: return "UITableView's queue per reuse identifier"
        }
    }

    /// Every strategy is exact.
    public var accuracyMetric: Metric? { nil }

    /// What the mode keeps per item at most: pools hold the visible cells, not one per item
    /// (`ModeFootprintTests`).
    public var bytesPerItem: Double {
        switch self {
        case .none, .setScan, .stacks: 8
        }
    }
}
