import LayoutEngine
import BenchScenarios

extension OffsetsWorkload {
    package static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(400), bound: .between(1, 100_000),
        about: "frames of the scroll session whose rows are measured as they appear")
    package static let estimatesKey = WorkloadKey(
        "estimates", .numbers, default: .described("[44]"), bound: .size, maxCount: 255,
        about: "the estimated row heights, one per reuse identifier; rows draw their identifier at random")
    package static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(100), bound: .between(1, 10_000),
        about: "changes in each insert, delete and load-older trace")
    package static let pageKey = WorkloadKey(
        "page", .integer, default: .integer(20), bound: .between(1, 1_000), about: "rows in one older page (`load-older`)")
    package static let seedKey = WorkloadKey.seed("the session, the changes and the rows' identifiers")
    package static let anchorKey = WorkloadKey(
        "anchor", choosing: ScrollAnchorMode.exact,
        about: "the scroll-anchoring rule every structure applies: `none` (UITableView), `exact`, `tanstack` (TanStack Virtual), `flutter` (Flutter's SliverList)")
    package static let stormKey = WorkloadKey(
        "storm", choosing: StormOrder.reverse,
        about: "`resize-storm`: every row resized in reverse order (`reverse`), or row `stormRow` resized `stormResizes` times (`repeat`)")
    package static let stormRowKey = WorkloadKey(
        "stormRow", .integer, default: .integer(0), bound: .between(0, Double(ScenarioLimits.maxItems - 1)),
        about: "the row a `repeat` storm resizes; less than every item count")
    package static let stormResizesKey = WorkloadKey(
        "stormResizes", .integer, default: .integer(100), bound: .between(1, 1_000_000),
        about: "resizes of a `repeat` storm")
    /// `resize-storm` runs only where a scenario lists it: its `reverse` storm resizes every row,
    /// and each resize costs the reference and the O(n) structures every row (`validate`).
    package static let operationsKey = WorkloadKey(
        "operations", .operations, default: .described("every operation but `resize-storm`, in the listed order"),
        about: "the operations to time, each named once")
    package static let keys = [framesKey, estimatesKey, stepsKey, pageKey, anchorKey, stormKey, stormRowKey, stormResizesKey,
                              operationsKey, seedKey]
}
