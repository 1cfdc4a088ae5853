import BenchScenarios

extension StickyScrollWorkload {
    package static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(400), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "bounds changes in the trace: a pull past the top, drags, flings and scrubber jumps, a jump to the top")
    package static let keys = [stepsKey]
}
