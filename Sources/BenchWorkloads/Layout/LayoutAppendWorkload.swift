import LayoutEngine
import LayoutReference
import BenchScenarios

/// `layout-append`: the pages of `append` (same keys, same trace, operation `append`), each sent
/// to any registered layout kind that takes batches as `invalidate(with: .dataSourceCounts)` + `prepare(forCollectionViewUpdates: [page])` and
/// `prepare()`, one page per timed operation.
package struct LayoutAppendWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = AppendWorkload.Operation

    package static let generic = GenericWorkload.append
    package static let about = "any layout kind that takes batches: append's load-more pages, each a batch through invalidate(with:) and prepare()"
    package static let keys = AppendWorkload.keys

    var append: AppendWorkload

    package init(spec: JSONReader) throws(ScenarioError) {
        append = try AppendWorkload(spec: spec)
    }

    package var operations: [Operation] { append.operations }

    package var footprint: WorkloadFootprint {
        var footprint = append.footprint
        footprint.keptAnswerFrames = LayoutBuild.checkFrames
        return footprint
    }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutBatchFixture<Operation> {
        try LayoutBatchFixture(build: LayoutBuild(scenario: scenario, items: items), traces: append.traces(scenario: scenario, items: items))
    }
}
