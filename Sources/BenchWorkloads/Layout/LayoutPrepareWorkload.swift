import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-prepare`: per strategy, `prepare` (a fresh layout from the kind's factory, created
/// outside the timing, then its first `prepare()`) and `relayout` (`invalidate(with: .everything)`
/// and `prepare()` again on the same object).
package struct LayoutPrepareWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// A fresh layout's first `prepare()`.
        case prepare
        /// `invalidate(with: .everything)` and `prepare()` on a prepared layout.
        case relayout

        package var timed: String {
            switch self {
            case .prepare: return "one `prepare()` of a fresh layout from the kind's factory"
            case .relayout: return "one `prepare()` of a layout invalidated with `.everything`"
            }
        }
        package var untimed: String {
            switch self {
            case .prepare: return "creating the layout from the kind's factory, freeing the previous one"
            case .relayout: return "`invalidate(with: .everything)`; the fresh layout's first prepare"
            }
        }
    }

    package static let generic = GenericWorkload.prepare
    package static let about = "any registered layout kind: a fresh layout's prepare, and invalidate-everything plus prepare (relayout)"
    package static let keys: [WorkloadKey] = []

    package init(spec: JSONReader) throws(ScenarioError) {
        try spec.finish()
    }

    package var operations: [Operation] { [.prepare, .relayout] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: LayoutBuild.checkFrames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutPrepareFixture {
        try LayoutPrepareFixture(build: LayoutBuild(scenario: scenario, items: items))
    }
}
