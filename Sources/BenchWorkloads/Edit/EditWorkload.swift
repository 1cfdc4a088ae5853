import BenchStatistics
import LayoutEngine
import BenchResults
import BenchScenarios

/// `edit`: changes in the middle of the content — inserts, deletes and height changes at
/// positions drawn from the middle half of the items — `steps` of each, each one a timed
/// operation (`insert`, `delete`, `height-change`). Modes are the update strategies.
public struct EditWorkload: Workload {
    public typealias Mode = WaterfallUpdateMode
    public enum Operation: String, WorkloadOperation {
        /// One item inserted in the middle.
        case insert
        /// One item removed from the middle.
        case delete
        /// The height of one item in the middle changed.
        case heightChange = "height-change"

        public var timed: String {
            switch self {
            case .insert: return "one item inserted in the middle half of the items, " + UpdateTiming.timed
            case .delete: return "one item deleted from the middle half of the items, " + UpdateTiming.timed
            case .heightChange: return "one item's height changed in the middle half of the items, " + UpdateTiming.timed
            }
        }
        public var untimed: String { UpdateTiming.untimed }
    }

    public static let kind = "edit"
    public static let about = "inserts, deletes and height changes in the middle of the content"

    public static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(50), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "changes in the trace of each operation")
    public static let seedKey = WorkloadKey.seed("the positions changed")
    public static let positionKey = WorkloadKey(
        "position", choosing: EditPosition.middleHalf,
        about: "where each change lands: an item drawn from the middle half (`middle-half`), or always item 0 (`first`), n/2 (`middle`) or n−1 (`last`) of the current n items (Chromium's grid-lanes relayout test resizes the first)")
    public static let keys = [stepsKey, positionKey, WorkloadKey.operations, seedKey]

    /// Where the changes of the trace land.
    public enum EditPosition: String, CaseIterable, Sendable {
        case middleHalf = "middle-half"
        case first
        case middle
        case last
    }

    public var steps: Int
    public var operations: [Operation]
    public var seed: Int
    public var position: EditPosition

    public init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(Self.stepsKey)
        operations = try spec.operationList(WorkloadKey.operations.name, of: Operation.self)
        seed = try spec.int(Self.seedKey)
        position = try spec.choice(Self.positionKey, default: .middleHalf)
        try spec.finish()
    }

    /// A delete or a height change needs an item to act on.
    public func validate(_ scenario: Scenario) throws(ScenarioError) {
        if scenario.itemCounts.contains(0), let operation = operationNames.first(where: { $0 != "insert" }) {
            throw scenario.workload.error(
                at: "operations",
                "\(JSONValue.quoted(operation)) needs at least one item, and the data has none; use \"operations\": [\"insert\"]")
        }
    }

    /// Each change inserts at most one item; two new items per section are drawn for each step.
    public var footprint: WorkloadFootprint { WorkloadFootprint(addedItems: steps, newItemsPerSection: 2 * steps) }

    public func makeFixture(scenario: Scenario, items: Int) throws -> UpdateFixture<Operation> {
        UpdateFixture(scenario: scenario, items: items, traces: try traces(scenario: scenario, items: items))
    }

    /// The changes of each operation (`layout-edit` replays the same).
    func traces(scenario: Scenario, items: Int) throws -> [(Operation, UpdateTrace)] {
        let initial = try scenario.makeData(items: items)
        let newItems = try scenario.makeExtraItems(count: 2 * steps, stream: 2)
        var random = SplitMix64(seed: UInt64(seed))
        var traces: [(Operation, UpdateTrace)] = []
        for operation in operations {
            var data = initial
            var changes: [LayoutChange] = []
            for step in 0..<steps {
                // A position in the middle half of the current items, never in an empty section
                // (with no items at all, an insert goes to the start of the last section).
                let count = data.itemCount
                guard count > 0 || operation == .insert else { break }
                let drawn = count / 4 + Int(random.next() % UInt64(Swift.max(1, count / 2)))
                let global: Int
                switch position {
                case .middleHalf: global = drawn
                case .first: global = 0
                case .middle: global = count / 2
                case .last: global = Swift.max(0, count - 1)
                }
                var section = 0
                while section + 1 < data.sectionCount && data.sectionStarts[section + 1] <= global { section += 1 }
                let item = global - data.sectionStarts[section]
                let change: LayoutChange
                switch operation {
                case .insert: change = .insertItems(section: section, at: item, items: [newItems[section][step]])
                case .delete: change = .removeItems(section: section, at: item, count: 1)
                case .heightChange: change = .setHeight(section: section, item: item, height: newItems[section][steps + step].height)
                }
                try change.apply(to: &data)
                changes.append(change)
            }
            traces.append((operation, UpdateTrace(initial: initial, changes: changes)))
        }
        return traces
    }
}
