import LayoutEngine
import LayoutReference
import BenchScenarios

/// `layout-edit`: the changes of `edit` (same keys, same traces, operations `insert`, `delete`,
/// `height-change`, `move`, `move-section`, `reload`), each sent as a batch of one to any
/// registered layout kind that takes batches.
package struct LayoutEditWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = EditWorkload.Operation

    package static let generic = GenericWorkload.edit
    package static let about = "any layout kind that takes batches: edit's inserts, deletes, height changes, moves, section moves and reloads, each a batch through invalidate(with:) and prepare()"
    package static let keys = EditWorkload.keys

    var edit: EditWorkload

    package init(spec: JSONReader) throws(ScenarioError) {
        edit = try EditWorkload(spec: spec)
    }

    package var operations: [Operation] { edit.operations }

    package func validate(_ scenario: Scenario) throws(ScenarioError) {
        try validateKind(scenario)
        try edit.validate(scenario)
    }

    package var footprint: WorkloadFootprint {
        var footprint = edit.footprint
        footprint.keptAnswerFrames = LayoutBuild.checkFrames
        return footprint
    }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutBatchFixture<Operation> {
        try LayoutBatchFixture(build: LayoutBuild(scenario: scenario, items: items), traces: edit.traces(scenario: scenario, items: items))
    }
}
