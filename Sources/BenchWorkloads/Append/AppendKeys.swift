import BenchScenarios

extension AppendWorkload {
    package static let batchKey = WorkloadKey(
        "batch", .integer, default: .integer(100), bound: .between(1, Double(ScenarioLimits.maxBatch)),
        about: "items in one appended page")
    package static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(50), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "pages appended one after the other in one pass of the trace")
    package static let keys = [batchKey, stepsKey]
}
