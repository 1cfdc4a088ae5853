import BenchResults

/// Where a regression's instructions went: for a row that the exact track marks `regressed`
/// (`instructions` or `estimated_cycles`), the functions whose instructions per operation moved
/// most between the two runs' profiles (`profiles.csv.gz`, written by `run --instructions`).
package struct RegressionCause: Sendable, Equatable {
    package var key: RowKey
    package var function: String
    package var baseSelf: Double
    package var headSelf: Double
    package var baseInclusive: Double
    package var headInclusive: Double

    package var selfDelta: Double { headSelf - baseSelf }
    package var inclusiveDelta: Double { headInclusive - baseInclusive }

    /// The metrics whose regressions the instruction profile explains.
    package static let explainedMetrics: Set<String> = [Metric.instructions.name, Metric.estimatedCycles.name]
    /// Functions named per regressed row.
    package static let limit = 5

    /// Per regressed row, the `limit` functions with the largest change of their own instructions
    /// (ties by inclusive change). A function kept in one profile only (each keeps its most
    /// expensive functions) counts as 0 on the other side.
    package static func find(rows: [RowComparison], base: [FunctionProfileRow], head: [FunctionProfileRow]) -> [RowKey: [RegressionCause]] {
        struct Operation: Hashable { var scenario: String, mode: String, items: Int, operation: String }
        func grouped(_ profile: [FunctionProfileRow]) -> [Operation: [String: FunctionProfileRow]] {
            var result: [Operation: [String: FunctionProfileRow]] = [:]
            for row in profile {
                result[Operation(scenario: row.scenario, mode: row.mode, items: row.items, operation: row.operation), default: [:]][row.function] = row
            }
            return result
        }
        let baseByOperation = grouped(base), headByOperation = grouped(head)
        var causes: [RowKey: [RegressionCause]] = [:]
        for row in rows where row.verdict == .regressed && explainedMetrics.contains(row.key.metric) {
            let operation = Operation(scenario: row.key.scenario, mode: row.key.mode, items: row.key.items, operation: row.key.operation)
            guard let before = baseByOperation[operation], let after = headByOperation[operation] else { continue }
            let functions = Set(before.keys).union(after.keys)
            let all = functions.map { function in
                RegressionCause(
                    key: row.key, function: function,
                    baseSelf: before[function]?.selfInstructions ?? 0, headSelf: after[function]?.selfInstructions ?? 0,
                    baseInclusive: before[function]?.inclusiveInstructions ?? 0, headInclusive: after[function]?.inclusiveInstructions ?? 0)
            }
            let ranked = all.sorted {
                (abs($0.selfDelta), abs($0.inclusiveDelta), $1.function) > (abs($1.selfDelta), abs($1.inclusiveDelta), $0.function)
            }
            let top = ranked.prefix(limit).filter { $0.selfDelta != 0 || $0.inclusiveDelta != 0 }
            if !top.isEmpty { causes[row.key] = Array(top) }
        }
        return causes
    }

    package static let csvHeader = [
        "scenario", "mode", "items", "operation", "metric", "function",
        "base_self", "head_self", "self_delta", "base_inclusive", "head_inclusive", "inclusive_delta",
    ]

    package static func csv(_ causes: [RowKey: [RegressionCause]]) -> String {
        var writer = CSVWriter(header: csvHeader)
        for key in causes.keys.sorted() {
            for cause in causes[key]! {
                writer.append([key.scenario, key.mode, String(key.items), key.operation, key.metric, cause.function]
                    + [cause.baseSelf, cause.headSelf, cause.selfDelta, cause.baseInclusive, cause.headInclusive, cause.inclusiveDelta]
                        .map(CSVWriter.format))
            }
        }
        return writer.text
    }
}
