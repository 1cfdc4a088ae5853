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
    }

    public static let kind = "offsets"
    public static let about = "estimated row heights replaced by measured ones while scrolling, with middle edits and older pages loaded at the top"

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
        frames = try spec.optionalInt("frames", default: 400, .between(1, 100_000))
        if let nodes = try spec.optionalArray("estimates") {
            guard !nodes.isEmpty, nodes.count <= 255 else {
                throw spec.error(at: "estimates", "expected 1 to 255 estimates (one per reuse identifier), got \(nodes.count)")
            }
            var values: [Double] = []
            for node in nodes { values.append(try node.double(.size)) }
            estimates = values
        } else {
            estimates = [44]
        }
        steps = try spec.optionalInt("steps", default: 100, .between(1, 10_000))
        page = try spec.optionalInt("page", default: 20, .between(1, 1_000))
        seed = try spec.optionalInt("seed", default: 1, .atLeast(0))
        operations = try spec.operationList(of: Operation.self)
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
