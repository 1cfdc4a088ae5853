import BenchResults

// The generic workloads produce the metrics of the specific workloads they generalise, declared
// in those workloads' folders.

extension LayoutPrepareWorkload { public static let metrics: [Metric] = [] }
extension LayoutQueryWorkload { public static let metrics: [Metric] = [.elements] }
extension LayoutAppendWorkload { public static let metrics: [Metric] = [] }
extension LayoutEditWorkload { public static let metrics: [Metric] = [] }
extension LayoutStickyScrollWorkload { public static let metrics: [Metric] = [.elements] }
extension LayoutReuseScrollWorkload { public static let metrics: [Metric] = [.elements] + Metric.reuseMetrics }
extension LayoutResizeWorkload { public static let metrics: [Metric] = [.elements] }
extension LayoutSelfSizingWorkload { public static let metrics: [Metric] = [.anchorJump, .sizeChurn] + Metric.instructionSplit }
