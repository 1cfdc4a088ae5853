import BenchResults

// The generic workloads produce the metrics of the specific workloads they generalise, declared
// in those workloads' folders.

extension LayoutPrepareWorkload { package static let metrics: [Metric] = [] }
extension LayoutQueryWorkload { package static let metrics: [Metric] = [.elements] }
extension LayoutAppendWorkload { package static let metrics: [Metric] = [] }
extension LayoutEditWorkload { package static let metrics: [Metric] = [] }
extension LayoutStickyScrollWorkload { package static let metrics: [Metric] = [.elements] }
extension LayoutReuseScrollWorkload { package static let metrics: [Metric] = [.elements] + Metric.reuseMetrics }
extension LayoutResizeWorkload { package static let metrics: [Metric] = [.elements] }
extension LayoutSelfSizingWorkload { package static let metrics: [Metric] = [.anchorJump, .sizeChurn] + Metric.instructionSplit }
