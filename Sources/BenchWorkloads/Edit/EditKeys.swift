import BenchScenarios

extension EditWorkload {
    package static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(50), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "changes in the trace of each operation")
    package static let seedKey = WorkloadKey.seed("the positions changed")
    package static let positionKey = WorkloadKey(
        "position", choosing: EditPosition.middleHalf,
        about: "where each change lands: an item drawn from the middle half (`middle-half`), or always item 0 (`first`), n/2 (`middle`) or n−1 (`last`) of the current n items (Chromium's grid-lanes relayout test resizes the first)")
    package static let keys = [stepsKey, positionKey, WorkloadKey.operations, seedKey]

    /// Where the changes of the trace land.
    package enum EditPosition: String, CaseIterable, Sendable {
        case middleHalf = "middle-half"
        case first
        case middle
        case last
    }
}
