import BenchResults

/// The metrics of a waterfall's stability under appends (`LaneStability`).
extension Metric {
    package static let laneChanges = Metric("lane_changes", unit: "count", .lowerIsBetter, .exact,
                                           about: "already-placed waterfall items a change moved to another column")
    package static let movedVisible = Metric("moved_visible", unit: "count", .lowerIsBetter, .exact,
                                            about: "items visible in the change's viewport that moved more than 0.5 pt on screen")
    package static let columnSpread = Metric(
        "column_spread", unit: "pt", .lowerIsBetter, .exact,
        about: "tallest minus shortest column bottom of the changed waterfall section after a change (packing)")

    /// What `LaneStability` counts of a waterfall change.
    static let laneStabilityMetrics: [Metric] = [.laneChanges, .movedVisible, .columnSpread]
}

extension AppendWorkload {
    package static let metrics: [Metric] = Metric.laneStabilityMetrics
}
