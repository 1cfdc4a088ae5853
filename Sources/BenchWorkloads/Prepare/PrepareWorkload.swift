import LayoutEngine
import BenchResults
import BenchScenarios

/// `prepare`: a layout of the whole content (frames plus the query index). `default` prepares a
/// new layout object — its arrays come fresh from the allocator, and for large layouts from the
/// kernel, page faults included; its `alloc_bytes` divided by the item count is the memory a layout
/// costs per item. `relayout` invalidates everything on a prepared layout and prepares it again,
/// reusing its storage, as after `reloadData` or a width change.
public struct PrepareWorkload: Workload {
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
