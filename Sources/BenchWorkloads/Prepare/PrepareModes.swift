import BenchResults

extension PrepareWorkload {
    package enum Mode: String, WorkloadMode {
        case `default`
        case relayout

        /// Every strategy is exact.
        package var accuracyMetric: Metric? { nil }

        /// What the mode keeps per item at most: the prepared layout (`ModeFootprintTests`).
        package var bytesPerItem: Double { 80 }

        package var about: String {
            switch self {
            case .default: return "a new layout object: lay out every section and build the binary query index (fresh memory)"
            case .relayout: return "invalidate everything and prepare the same layout again, reusing its storage (reloadData)"
            }
        }

        package var reproduces: String {
            switch self {
            case .default: return "a layout object's first prepare (reloadData)"
            case .relayout: return "invalidateLayout, then prepare on the same object"
            }
        }
    }
}
