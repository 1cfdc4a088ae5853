import BenchScenarios

extension CellMeasureWorkload {
    package static let maxWidths = 64

    package static let widthsKey = WorkloadKey(
        "widths", .numbers, default: .described("the viewport's width"), bound: .positiveSize, maxCount: maxWidths,
        about: "the row widths the trace rotates through")
    package static let rotateEveryKey = WorkloadKey(
        "rotateEvery", .integer, default: .described("the item count: every row once"), bound: .between(1, Double(ScenarioLimits.maxItems)),
        about: "measurements between width changes")
    package static let verifyMeasurementsKey = WorkloadKey(
        "verifyMeasurements", .integer, default: .integer(1000), bound: .between(1, 1_000_000),
        about: "measurements checked against the LP reference, spread evenly along the trace (all when it is no longer)")
    package static let keys = [widthsKey, rotateEveryKey, verifyMeasurementsKey, WorkloadKey.operations]
}
