/// Every workload the harness knows, by its `workload.kind` name.
public enum WorkloadCatalog {
    /// Add a new workload type here (and its scenarios); nothing else needs to change.
    public static let all: [any Workload.Type] = [
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

    public static func type(named kind: String) -> (any Workload.Type)? {
        all.first { $0.kind == kind }
    }
}
