import LayoutEngine
import BenchResults
import BenchScenarios

/// `prepare`: a layout of the whole content (frames plus the query index). `default` prepares a
/// new layout object — its arrays come fresh from the allocator, and for large layouts from the
/// kernel, page faults included; its `alloc_bytes` divided by the item count is the memory a layout
/// costs per item. `relayout` invalidates everything on a prepared layout and prepares it again,
/// reusing its storage, as after `reloadData` or a width change.
public struct PrepareWorkload: Workload {
    public enum Mode: String, WorkloadMode {
        case `default`
        case relayout

        /// Every strategy is exact.
        public var accuracyMetric: Metric? { nil }

        /// What the mode keeps per item at most: the prepared layout (`ModeFootprintTests`).
        public var bytesPerItem: Double { 80 }

        public var about: String {
            switch self {
            case .default: return "a new layout object: lay out every section and build the binary query index (fresh memory)"
            case .relayout: return "invalidate everything and prepare the same layout again, reusing its storage (reloadData)"
            }
        }

        public var reproduces: String {
            switch self {
            case .default: return "a layout object's first prepare (reloadData)"
            case .relayout: return "invalidateLayout, then prepare on the same object"
            }
        }
    }

    public enum Operation: String, WorkloadOperation {
        /// One whole `prepare()`.
        case prepare

        public var timed: String {
            "one `prepare()`: `default` on a new layout object, `relayout` on one invalidated with `.everything`"
        }
        public var untimed: String { "creating or invalidating the layout, freeing the previous one" }
    }

    public static let kind = "prepare"
    public static let about = "initial layout of the whole content (first prepare after reloadData)"
    public static let keys: [WorkloadKey] = []

    public init(spec: JSONReader) throws(ScenarioError) {
        try spec.finish()
    }

    public var operations: [Operation] { [.prepare] }

    public func validate(_ scenario: Scenario) throws(ScenarioError) {}

    public var footprint: WorkloadFootprint { .none }

    public func makeFixture(scenario: Scenario, items: Int) throws -> PrepareFixture {
        try PrepareFixture(scenario: scenario, items: items)
    }
}

public final class PrepareFixture: WorkloadFixture {
    public typealias Operation = PrepareWorkload.Operation
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    let data: LayoutData

    init(scenario: Scenario, items: Int) throws {
        self.scenario = scenario
        self.items = items
        styles = scenario.makeStyles()
        data = try scenario.makeData(items: items)
    }

    public func makeMeasurement(mode: PrepareWorkload.Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        if verify {
            // The frames the timed operation produces: a fresh prepare, or invalidate and prepare again.
            var layout = try SectionedLayout(bounds: scenario.viewport, styles: styles, data: data)
            try layout.prepare()
            if mode == .relayout {
                layout.invalidate(with: .everything)
                try layout.prepare()
            }
            if let problem = try ReferenceGeometry.firstMismatch(of: layout.frames, bounds: scenario.viewport, styles: styles, data: data) {
                throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: problem)
            }
        }
        let operation = PrepareOperation(bounds: scenario.viewport, styles: styles, data: data, reusesStorage: mode == .relayout)
        return ModeMeasurement(operations: [TimedOperation(.prepare, .consuming(operation))])
    }

    /// The prepared layout, queried exactly.
    public func snapshot(mode: PrepareWorkload.Mode) throws -> LayoutSnapshot {
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: styles, data: data)
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }
}

/// Prepares a layout: a fresh one (created, and the previous one freed, outside the timing), or
/// the same one after invalidating everything.
final class PrepareOperation: ConsumingOperation {
    private let bounds: Rect
    private let styles: [SectionStyle]
    private let data: LayoutData
    private let reusesStorage: Bool
    private var layout: SectionedLayout?

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData, reusesStorage: Bool) {
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.reusesStorage = reusesStorage
    }

    /// One prepare is the whole trace.
    let traceLength = 1

    func rewind() {}

    func prepareNext() throws {
        if reusesStorage, var reused = layout {
            layout = nil  // keep the storage uniquely referenced
            reused.invalidate(with: .everything)
            layout = reused
            return
        }
        layout = nil
        var fresh = try SectionedLayout(bounds: bounds, styles: styles, data: data)
        if reusesStorage {
            try fresh.prepare()
            fresh.invalidate(with: .everything)
        }
        layout = fresh
    }

    func runNext() throws -> Int {
        // Moved out of the optional and back: `layout!.prepare()` copied the layout's fields
        // (and destroyed the copy) inside the timed region.
        guard var current = layout.take() else { throw OperationMisuse.notPrepared }
        defer { layout = current }
        try current.prepare()
        return Int(truncatingIfNeeded: current.contentSize.height.bitPattern)
    }
}
