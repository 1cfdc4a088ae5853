import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

extension ReuseScrollWorkload {
    public static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(600), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (as `query`'s), one visible range each")
    public static let identifiersKey = WorkloadKey(
        "identifiers", .integer, default: .integer(3), bound: .between(1, 255),
        about: "reuse identifiers; each row draws one at random")
    public static let capacityKey = WorkloadKey(
        "capacity", .integer, default: .described("the most rows ever visible at once + 2"), bound: .between(1, 1_000_000),
        about: "free cells kept per identifier by `stacks`")
    public static let seedKey = WorkloadKey.seed("the rows' identifiers")
    public static let keys = [framesKey, identifiersKey, capacityKey, seedKey]
}
