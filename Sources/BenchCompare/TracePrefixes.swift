import BenchResults

/// The prefixes of an operation's trace that two runs counted an exact row over, when they differ
/// so that the row cannot be judged as a count (docs/methodology.md, "Counts over different
/// prefixes of a trace").
///
/// An operation too slow to cover its whole trace within the budget is timed, and its allocations
/// and instructions counted, over the first k operations (run.json's `coverage`), and k follows each
/// run's speed. A consuming operation counts one value per operation: `ExactTotals` sums both sides
/// over the operations both counted, whatever k was. A batchable one counts a mean per operation
/// over each pass of its prefix (and callgrind a mean over one): two runs that covered 64 and 32
/// operations compare means over different operations, and two runs of one binary read 62.265625
/// and 62.53125 `allocs` per operation (docs/experiments/2026-12-02-exact-track-against-the-issue-50-base.md).
/// Such a row is left unjudged (`RowComparison.Judgement.differentPrefixes`), never `regressed`.
///
/// A side without an entry for the operation covered its whole trace. A side whose run.json does
/// not record `coverage` (none, or written before it) tells nothing, and the row is judged as ever.
/// An entry without `steps` (runs before it was recorded) is taken for counts per operation when the
/// row holds at least as many values a side as the smaller prefix has operations (a consuming trace
/// counts every covered operation; a batchable one a value per pass, at most five) and that prefix
/// is longer than five operations, else for passes.
package struct TracePrefixes: Sendable, Equatable {
    /// Each side's prefixes, in operations, ascending: one in a plain run, several where merged
    /// rounds covered different ones (`scripts/compare-commits`).
    package var base: [Int]
    package var head: [Int]
    /// Operations in one pass of the whole trace, when an entry says it.
    package var traceLength: Int?

    /// The prefixes of `key`'s row when they make it no count to judge exactly: nil when both sides
    /// counted the same operations, when the row's values are one per operation (`ExactTotals`
    /// aligns those), for a metric not counted over the prefix, or when a side does not record
    /// its coverage. `counting`: what one value of the metric covers, as its description declares
    /// (`Metric.counted`). `baseValues` and `headValues`: the fewest values any repetition of a side holds.
    package static func differing(
        key: RowKey, counting: Metric.Counting, base: [OperationCoverage]?, head: [OperationCoverage]?, baseValues: Int, headValues: Int
    ) -> TracePrefixes? {
        guard counting != .samples, let base, let head else { return nil }
        func entries(_ side: [OperationCoverage]) -> [OperationCoverage] {
            side.filter { $0.scenario == key.scenario && $0.mode == key.mode && $0.items == key.items && $0.operation == key.operation }
        }
        let baseEntries = entries(base), headEntries = entries(head)
        guard !baseEntries.isEmpty || !headEntries.isEmpty else { return nil }
        let all = headEntries + baseEntries
        let traceLength = all.map(\.traceLength).max()
        let limit = counting == .callgrind ? OperationCoverage.callgrindLimit : Int.max
        // The operations the row's counts cover: the prefix (the whole trace without an entry), at
        // most what the callgrind pass counts.
        func counted(_ entries: [OperationCoverage]) -> [Int] {
            let prefixes = entries.isEmpty ? [traceLength!] : entries.map(\.operations)
            return Array(Set(prefixes.map { Swift.min($0, limit) })).sorted()
        }
        let prefixes = TracePrefixes(base: Set(entries(base).map(\.operations)).sorted(),
                                     head: Set(entries(head).map(\.operations)).sorted(), traceLength: traceLength)
        let baseCounted = counted(baseEntries), headCounted = counted(headEntries)
        if baseCounted.count == 1 && baseCounted == headCounted { return nil }
        let values = Swift.min(baseValues, headValues)
        let perOperation: Bool
        switch all.compactMap(\.steps).first {
        // One value a side is a mean over the prefix (the instruction split of a consuming operation).
        case .operations?: perOperation = values > 1
        case .passes?: perOperation = false
        // Old runs: a batchable trace counts at most `allocationPasses` values, so a prefix that
        // short tells nothing and is taken for passes.
        case nil:
            let shorter = (baseCounted + headCounted).min()!
            perOperation = values >= shorter && shorter > OperationCoverage.allocationPasses
        }
        return perOperation ? nil : prefixes
    }

    /// A side's prefixes in words: "64", "the whole trace (2000)", "32 and 64".
    package static func words(_ prefixes: [Int], traceLength: Int?) -> String {
        if prefixes.isEmpty { return traceLength.map { "the whole trace (\($0))" } ?? "the whole trace" }
        return prefixes.map(String.init).joined(separator: " and ")
    }

    package var baseWords: String { Self.words(base, traceLength: traceLength) }
    package var headWords: String { Self.words(head, traceLength: traceLength) }
}
