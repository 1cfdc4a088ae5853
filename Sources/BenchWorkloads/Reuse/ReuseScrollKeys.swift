import BenchScenarios

extension ReuseScrollWorkload {
    package static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(600), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (as `query`'s), one visible range each")
    package static let identifiersKey = WorkloadKey(
        "identifiers", .integer, default: .integer(3), bound: .between(1, 255),
        about: "reuse identifiers; each row draws one at random")
    package static let capacityKey = WorkloadKey(
        "capacity", .integer, default: .described("the most rows ever visible at once + 2"), bound: .between(1, 1_000_000),
        about: "free cells kept per identifier by `stacks`")
    package static let seedKey = WorkloadKey.seed("the rows' identifiers")
    package static let keys = [framesKey, identifiersKey, capacityKey, seedKey]
}
