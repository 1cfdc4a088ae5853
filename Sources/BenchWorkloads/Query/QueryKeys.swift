import BenchScenarios

extension QueryWorkload {
    package static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(600), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (drags, flings, a scrubber pass, a jump to the top), one query each")
    package static let keys = [framesKey]
}
