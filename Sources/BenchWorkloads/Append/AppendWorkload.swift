import LayoutEngine
import BenchScenarios

/// `append`: "load more" — pages of `batch` new items appended to the last section, `steps`
/// pages in a row, each page one timed operation. Modes are the update strategies.
package struct AppendWorkload: Workload {
    package typealias Mode = WaterfallUpdateMode
    package static let kind = "append"
    package static let about = "load-more pages appended to the last section, one page per operation"

    package var batch: Int
    package var steps: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        batch = try spec.int(Self.batchKey)
        steps = try spec.int(Self.stepsKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.append] }

    package func validate(_ scenario: Scenario) throws(ScenarioError) {}

    /// Every page is appended: `batch × steps` items, drawn for every section.
    package var footprint: WorkloadFootprint {
        WorkloadFootprint(addedItems: batch * steps, addedItemsPath: batch > steps ? "workload.batch" : "workload.steps",
                          newItemsPerSection: batch * steps)
    }

    package func makeFixture(scenario: Scenario, items: Int) throws -> UpdateFixture<Operation> {
        UpdateFixture(scenario: scenario, items: items, traces: try traces(scenario: scenario, items: items))
    }

    /// The pages appended, per operation (`layout-append` replays the same).
    func traces(scenario: Scenario, items: Int) throws -> [(Operation, UpdateTrace)] {
        let initial = try scenario.makeData(items: items)
        let section = initial.sectionCount - 1
        let pages = try scenario.makeExtraItems(count: batch * steps, stream: 1)[section]
        let changes = (0..<steps).map { page in
            LayoutChange.appendItems(section: section, items: Array(pages[(page * batch)..<((page + 1) * batch)]))
        }
        return [(.append, UpdateTrace(initial: initial, changes: changes))]
    }
}
