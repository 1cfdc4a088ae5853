import LayoutEngine
import BenchScenarios

extension HeightPassWorkload {
    package static let scrollFramesKey = WorkloadKey(
        "scrollFrames", .integer, default: .integer(120), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (`scroll-pass`)")
    package static let batchesKey = WorkloadKey(
        "batches", .integer, default: .integer(40), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "random batch updates in one trace (`batch-update`, `cache-update`)")
    package static let changesKey = WorkloadKey(
        "changes", .integer, default: .integer(10), bound: .between(1, Double(ScenarioLimits.maxBatch)),
        about: "item changes (deletes, reloads, moves, inserts) in one batch; every 8th batch deletes and inserts two sections instead")
    package static let rotatedWidthKey = WorkloadKey(
        "rotatedWidth", .number, default: .described("the viewport's height (a rotation)"), bound: .between(1, ScenarioLimits.maxSize),
        about: "the table's width after `width-change`")
    package static let precacheRowsKey = WorkloadKey(
        "precacheRows", .integer, default: .integer(PrecacheBudget.defaultRows), bound: .between(1, Double(ScenarioLimits.maxBatch)),
        about: "rows one precache step measures (the same rows under callgrind as in time)")
    package static let precacheBudgetKey = WorkloadKey(
        "precacheBudgetMicroseconds", .integer, default: .described("none: `precacheRows` applies"), bound: .between(1, 10_000_000),
        about: "instead of `precacheRows`: the wall-clock budget of one precache step, as the engine's precache takes it in an app")
    package static let precacheStepsKey = WorkloadKey(
        "precacheSteps", .integer, default: .integer(10), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "precache steps in one trace (then it starts again from a cold table)")
    package static let threadsKey = WorkloadKey(
        "threads", .integers, default: .described("[1, 2]"), bound: .between(1, Double(ParallelPrecache.maxThreads)), maxCount: 8,
        about: "the thread counts `precache-mt` is timed at, ascending; `speedup` is relative to the first")
    package static let seedKey = WorkloadKey.seed("the rows' texts and the batches")
    /// `precache-mt` runs only where a scenario lists it: it times a whole cold pass once per thread count.
    package static let operationsKey = WorkloadKey(
        "operations", .operations, default: .described("every operation but `precache-mt`, in the listed order"),
        about: "the operations to time, each named once")
    package static let keys = [
        scrollFramesKey, batchesKey, changesKey, rotatedWidthKey, precacheRowsKey, precacheBudgetKey, precacheStepsKey,
        threadsKey, seedKey, operationsKey,
    ]
}

/// What one `precache-step` measures: a number of rows (the benchmark's default, the same work
/// under callgrind as in time), or the engine's wall-clock budget (faithful to an app, but under
/// callgrind's slowdown it covers fewer rows than in time).
package enum PrecacheBudget: Sendable, Equatable {
    case rows(Int)
    case microseconds(Int)

    /// Rows per step by default: about what a short idle slice of the main thread measures.
    package static let defaultRows = 400
}
