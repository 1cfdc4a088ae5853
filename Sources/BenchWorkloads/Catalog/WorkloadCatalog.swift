import BenchResults
/// Every workload the harness knows, by its `workload.kind` name.
package enum WorkloadCatalog {
    /// Add a new workload type here (and its scenarios); nothing else needs to change.
    package static let all: [any Workload.Type] = [
        PrepareWorkload.self,
        QueryWorkload.self,
        AppendWorkload.self,
        EditWorkload.self,
        StickyScrollWorkload.self,
        OffsetsWorkload.self,
        ReuseScrollWorkload.self,
        HeightPassWorkload.self,
        CellMeasureWorkload.self,
        // The generic workloads: any layout kind of `LayoutCatalog`, built-in or registered.
        LayoutPrepareWorkload.self,
        LayoutQueryWorkload.self,
        LayoutAppendWorkload.self,
        LayoutEditWorkload.self,
        LayoutStickyScrollWorkload.self,
        LayoutReuseScrollWorkload.self,
        LayoutResizeWorkload.self,

        LayoutSelfSizingWorkload.self,
    ]

    /// Every metric a run of this binary can write: the harness-wide ones, then each workload's
    /// own in catalog order, each name once.
    package static var metrics: [Metric] {
        var seen = Set<String>()
        return (Metric.harnessWide + all.flatMap { $0.metrics }).filter { seen.insert($0.name).inserted }
    }

    /// Makes this binary's declarations what a results file that carries none is read and
    /// judged by (`Metric.named`): results written before run.json recorded `metrics`.
    package static func installMetrics() { Metric.install(metrics) }

    package static func type(named kind: String) -> (any Workload.Type)? {
        all.first { $0.kind == kind }
    }
}
