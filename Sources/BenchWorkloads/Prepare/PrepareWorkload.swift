import BenchScenarios

/// `prepare`: a layout of the whole content (frames plus the query index). `default` prepares a
/// new layout object — its arrays come fresh from the allocator, and for large layouts from the
/// kernel, page faults included; its `alloc_bytes` divided by the item count is the memory a layout
/// costs per item. `relayout` invalidates everything on a prepared layout and prepares it again,
/// reusing its storage, as after `reloadData` or a width change.
package struct PrepareWorkload: Workload {
    package static let kind = "prepare"
    package static let about = "initial layout of the whole content (first prepare after reloadData)"
    package static let keys: [WorkloadKey] = []

    package init(spec: JSONReader) throws(ScenarioError) {
        try spec.finish()
    }

    package var operations: [Operation] { [.prepare] }

    package func validate(_ scenario: Scenario) throws(ScenarioError) {}

    package var footprint: WorkloadFootprint { .none }

    package func makeFixture(scenario: Scenario, items: Int) throws -> PrepareFixture {
        try PrepareFixture(scenario: scenario, items: items)
    }
}
