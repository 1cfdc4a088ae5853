import LayoutEngine

extension LayoutSnapshot {
    /// The snapshot of one of the plan's modes at `items` items, from its workload.
    package init(plan: BenchmarkPlan, mode: any WorkloadMode, items: Int) throws {
        self = try plan.workload.makeGroup(scenario: plan.scenario, items: items).snapshot(mode: mode)
        if styles.isEmpty {
            styles = plan.scenario.makeStyles()
            pinOffset = plan.scenario.layout.pinOffset
        }
    }
}
