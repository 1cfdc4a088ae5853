import LayoutEngine
import BenchResults
import BenchScenarios

/// `offsets`: a self-sizing list whose rows start with estimated heights (one estimate, or one per
/// reuse identifier) and are measured through the template cell as they scroll into view, while
/// rows are inserted and removed (docs/modes.md). Modes are the `RowOffsets` strategies; every mode is
/// checked against `PrefixSumReference` after every step of every trace.
///
/// Operations (each its own trace, from the all-estimated list):
/// - `update`: a measured height replaces an estimate, then the row's offset is read (no anchoring);
/// - `measure-and-update`: the template cell measures the row's text, the height is applied with
///   scroll anchoring (the real per-row work while scrolling);
/// - `row-at-offset`: the row at the top of the viewport, for the offsets of the session's frames;
/// - `insert`, `delete`: one row in the middle half;
/// - `load-older`: a chat's older page of `page` rows inserted at the top, with anchoring.
public struct OffsetsWorkload: Workload {
    public typealias Mode = RowOffsetsMode
    public enum Operation: String, WorkloadOperation {
        case update
        case measureAndUpdate = "measure-and-update"
        case rowAtOffset = "row-at-offset"
        case insert
        case delete
        case loadOlder = "load-older"

        public var timed: String {
            let batch = "; a sample is a batch of consecutive ones, divided"
            let change = ", with scroll anchoring, in the trace's order; when the trace is used up it restarts from the all-estimated rows"
            switch self {
            case .update: return "one measured height replacing a row's estimate, then the row's offset read, cycling through the session's measurements" + batch
            case .measureAndUpdate:
                return "the template cell measuring a row's text, and the height applied with scroll anchoring, cycling through the session's measurements" + batch
            case .rowAtOffset: return "the row at one of the session's scroll offsets, cycling through them" + batch
            case .insert: return "one row inserted in the middle half" + change
            case .delete: return "one row deleted from the middle half" + change
            case .loadOlder: return "one older page of `page` rows inserted at the top" + change
            }
        }

        public var untimed: String {
            switch self {
            case .update, .measureAndUpdate, .rowAtOffset: return "building the structure from the estimated heights"
            case .insert, .delete, .loadOlder: return "building the structure from the estimated heights, again when the trace is used up"
            }
        }
    }

    public static let kind = "offsets"
    public static let about = "estimated row heights replaced by measured ones while scrolling, with middle edits and older pages loaded at the top"

    public static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(400), bound: .between(1, 100_000),
        about: "frames of the scroll session whose rows are measured as they appear")
    public static let estimatesKey = WorkloadKey(
        "estimates", .numbers, default: .described("[44]"), bound: .size, maxCount: 255,
        about: "the estimated row heights, one per reuse identifier; rows draw their identifier at random")
    public static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(100), bound: .between(1, 10_000),
        about: "changes in each insert, delete and load-older trace")
    public static let pageKey = WorkloadKey(
        "page", .integer, default: .integer(20), bound: .between(1, 1_000), about: "rows in one older page (`load-older`)")
    public static let seedKey = WorkloadKey.seed("the session, the changes and the rows' identifiers")
    public static let keys = [framesKey, estimatesKey, stepsKey, pageKey, WorkloadKey.operations, seedKey]

    /// Frames of the scroll session.
    public var frames: Int
    /// One estimate per reuse identifier; rows draw their identifier at random.
    public var estimates: [Double]
    /// Changes per insert, delete and load-older trace.
    public var steps: Int
    /// Rows per older page.
    public var page: Int
    public var seed: Int
    public var operations: [Operation]

    public init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(Self.framesKey)
        let estimatesKey = Self.estimatesKey, maxEstimates = estimatesKey.maxCount ?? 1
        if let nodes = try spec.optionalArray(estimatesKey.name) {
            guard !nodes.isEmpty, nodes.count <= maxEstimates else {
                throw spec.error(at: estimatesKey.name, "expected 1 to \(maxEstimates) estimates (one per reuse identifier), got \(nodes.count)")
            }
            var values: [Double] = []
            for node in nodes { values.append(try node.double(estimatesKey.bound)) }
            estimates = values
        } else {
            estimates = [44]
        }
        steps = try spec.int(Self.stepsKey)
        page = try spec.int(Self.pageKey)
        seed = try spec.int(Self.seedKey)
        operations = try spec.operationList(WorkloadKey.operations.name, of: Operation.self)
        try spec.finish()
    }

    /// Rows are measured from their generated text, in a list of one section kind.
    public func validate(_ scenario: Scenario) throws(ScenarioError) {
        guard case .generated(let generator) = scenario.data, case .text = generator.heights else {
            throw ScenarioError(file: scenario.file, path: scenario.data.isExplicit ? "data" : "data.generate.heights",
                                message: "the offsets workload measures rows from their text; expected \"distribution\": \"text\"")
        }
        guard case .list = scenario.layout.section(0).style.kind, scenario.layout.sections.count == 1 else {
            throw ScenarioError(file: scenario.file, path: "layout.kind",
                                message: "the offsets workload needs a list (one kind of section), got \(scenario.layout.sections.count) section kinds")
        }
    }

    public var footprint: WorkloadFootprint { .none }

    public func makeFixture(scenario: Scenario, items: Int) throws -> OffsetsFixture {
        try OffsetsFixture(scenario: scenario, items: items, workload: self)
    }
}

/// The offsets structures, as a user reads them.
extension RowOffsetsMode: WorkloadMode {
    public var about: String {
        switch self {
        case .rebuild: return "every change rebuilds all row offsets; the first visible row is found by summing heights from row 0"
        case .suffix: return "offsets re-summed from the first changed row; binary search for a row"
        case .fenwick: return "Fenwick tree of measured-minus-estimate deltas: O(log n) update, offset and row-at-offset; inserts rebuild it"
        case .btree: return "counted B+-tree of heights (32 per leaf, 32 children per branch): middle inserts and deletes are O(log n) too"
        }
    }

    public var reproduces: String {
        switch self {
        case .rebuild: return "DZTableView"
        case .suffix: return "TanStack Virtual, react-virtualized"
        case .fenwick: return "none: a Fenwick tree"
        case .btree: return "none: a counted B+-tree"
        }
    }

    /// Every strategy is exact.
    public var accuracyMetric: Metric? { nil }

    /// What the mode keeps per item at most: heights, estimates and the offsets structure
    /// (`ModeFootprintTests`).
    public var bytesPerItem: Double {
        switch self {
        case .rebuild, .suffix, .fenwick: 160
        case .btree: 192
        }
    }
}
