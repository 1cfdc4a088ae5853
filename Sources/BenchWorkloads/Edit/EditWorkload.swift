import BenchStatistics
import LayoutEngine
import BenchResults
import BenchScenarios

/// `edit`: changes in the middle of the content — inserts, deletes, height changes, item moves,
/// section moves and reloads with a new size at positions drawn from the middle half of the items
/// — `steps` of each, each one a timed operation (`insert`, `delete`, `height-change`, `move`,
/// `move-section`, `reload`). Modes are the update strategies.
///
/// Each operation has a trace of its own, drawn from one seeded generator in the order the
/// operations are listed, so adding the later operations changed none of the earlier ones'
/// traces. A `move` takes the item at the drawn position; on even steps it lands at another
/// position of its own section, on odd steps (when there are several sections) in another
/// section, so half the moves cross sections. A `move-section` moves the drawn position's section
/// to another index (onto itself when there is one section). A `reload` gives the drawn item a
/// new size, width included, as `reloadItems(at:)` with a data source that changed.
package struct EditWorkload: Workload {
    package typealias Mode = WaterfallUpdateMode
    package static let kind = "edit"
    package static let about = "inserts, deletes, height changes, moves, section moves and reloads in the middle of the content"

    package var steps: Int
    package var operations: [Operation]
    package var seed: Int
    package var position: EditPosition

    package init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(Self.stepsKey)
        operations = try spec.operationList(WorkloadKey.operations.name, of: Operation.self)
        seed = try spec.int(Self.seedKey)
        position = try spec.choice(Self.positionKey, default: .middleHalf)
        try spec.finish()
    }

    /// A delete or a height change needs an item to act on.
    package func validate(_ scenario: Scenario) throws(ScenarioError) {
        if scenario.itemCounts.contains(0), let operation = operationNames.first(where: { $0 != "insert" }) {
            throw scenario.workload.error(
                at: "operations",
                "\(JSONValue.quoted(operation)) needs at least one item, and the data has none; use \"operations\": [\"insert\"]")
        }
    }

    /// Each change inserts at most one item; two new items per section are drawn for each step.
    package var footprint: WorkloadFootprint { WorkloadFootprint(addedItems: steps, newItemsPerSection: 2 * steps) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> UpdateFixture<Operation> {
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
                case .move: change = Self.move(from: ItemPath(section: section, item: item), step: step, data: data, random: &random)
                case .moveSection:
                    change = .moveSection(from: section, to: Int(random.next() % UInt64(data.sectionCount)))
                case .reload: change = .reloadItems(section: section, at: item, items: [newItems[section][steps + step]])
                }
                try change.apply(to: &data)
                changes.append(change)
            }
            traces.append((operation, UpdateTrace(initial: initial, changes: changes)))
        }
        return traces
    }

    /// A move of the item at `from`: on odd steps, when there are several sections, to a position
    /// drawn in another section; otherwise to another position drawn in its own (onto itself when
    /// the section holds one item). Destinations name the data after the item's removal.
    static func move(from: ItemPath, step: Int, data: LayoutData, random: inout SplitMix64) -> LayoutChange {
        let sections = data.sectionCount
        if step % 2 == 1, sections > 1 {
            let other = (from.section + 1 + Int(random.next() % UInt64(sections - 1))) % sections
            let item = Int(random.next() % UInt64(data.itemCount(inSection: other) + 1))
            return .moveItem(from: from, to: ItemPath(section: other, item: item))
        }
        let item = Int(random.next() % UInt64(data.itemCount(inSection: from.section)))
        return .moveItem(from: from, to: ItemPath(section: from.section, item: item))
    }
}
