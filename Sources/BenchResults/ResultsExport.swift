import Foundation

/// A run in the JSON that continuous-benchmarking services read, so that a project keeps its
/// history, thresholds and alerts in the service it already uses (`scripts/history` is the
/// offline, single-machine version):
///
/// - `bmf`: Bencher Metric Format. An object of benchmarks, each an object of measures, each
///   `{"value": median, "lower_value": ci_low, "upper_value": ci_high}` (the bounds when the run
///   has an interval). `time` goes to Bencher's built-in `latency` measure (nanoseconds, as
///   here); every other metric to a measure named by its kebab-case name (`alloc-bytes`).
/// - `github-smaller` / `github-bigger`: the array that github-action-benchmark's
///   `customSmallerIsBetter` / `customBiggerIsBetter` tools read, `{"name", "unit", "value",
///   "range", "extra"}` per benchmark and metric. Each takes only the metrics whose better
///   direction it states (costs for the first, `recall` for the second), so that an alert never
///   fires the wrong way; metrics that describe the work (`elements`) go to neither.
///
/// A benchmark is named `scenario/mode/items/operation` (peak_rss, a per-process value, has no
/// mode or operation: `scenario/items`).
///
/// A run in which a mode failed (summary.csv's `failed` rows) is not exported: the services keep
/// what they are sent as the next point of each series, and a failed mode's missing points would
/// read as a good run's. It is an error naming the failed groups, and nothing is written.
package enum ResultsExport {
    package enum Format: String, CaseIterable, Sendable {
        case bmf
        case githubSmaller = "github-smaller"
        case githubBigger = "github-bigger"
    }

    /// The JSON text (ending in a newline), or an error when no entry is left to export (the
    /// services refuse an empty list).
    package static func json(
        _ run: RunSummaryFile, format: Format, metrics: Set<String> = []
    ) throws(CompareError) -> String {
        if let first = run.failed.first {
            let more = run.failed.count > 1 ? " and \(run.failed.count - 1) more group\(run.failed.count == 2 ? "" : "s")" : ""
            throw CompareError(file: run.path, message: "line \(first.line): \(first.group.label)\(more) failed in this run "
                + "(failures.csv beside it says what went wrong); a run with a failed mode is not exported, as its missing rows "
                + "would read as a good run's")
        }
        let entries = run.entries.filter { entry in
            guard metrics.isEmpty || metrics.contains(entry.metric) else { return false }
            switch format {
            case .bmf: return true
            case .githubSmaller: return Metric.named(entry.metric, in: run.described)?.direction == .lowerIsBetter
            case .githubBigger: return Metric.named(entry.metric, in: run.described)?.direction == .higherIsBetter
            }
        }
        guard !entries.isEmpty else {
            let filter = metrics.isEmpty ? "" : " among --metric \(metrics.sorted().joined(separator: ", "))"
            throw CompareError(file: run.path, message: "no numeric rows\(filter) to export as \(format.rawValue)")
        }
        // Each entry under its own name: a service keeps one series per name, and a JSON object
        // with a key twice is read differently by different parsers.
        var names: [String: RunSummaryFile.Entry] = [:]
        for entry in entries {
            let name: String
            switch format {
            case .bmf: name = "benchmark '\(benchmarkName(entry))', measure '\(measure(entry.metric))'"
            case .githubSmaller, .githubBigger: name = "'\(benchmarkName(entry)) \(entry.metric)'"
            }
            if let earlier = names.updateValue(entry, forKey: name) {
                throw CompareError(file: run.path, message: "lines \(earlier.line) and \(entry.line) both export as \(name)")
            }
        }
        switch format {
        case .bmf: return bmf(entries)
        case .githubSmaller, .githubBigger: return github(entries, run: run)
        }
    }

    package static func benchmarkName(_ entry: RunSummaryFile.Entry) -> String {
        entry.mode.isEmpty ? "\(entry.scenario)/\(entry.items)" : "\(entry.scenario)/\(entry.mode)/\(entry.items)/\(entry.operation)"
    }

    /// The Bencher measure of a metric.
    package static func measure(_ metric: String) -> String {
        metric == Metric.time.name ? "latency" : metric.replacingUnderscores()
    }

    static func bmf(_ entries: [RunSummaryFile.Entry]) -> String {
        var order: [String] = []
        var measures: [String: [String]] = [:]
        for entry in entries {
            let name = benchmarkName(entry)
            if measures[name] == nil { order.append(name) }
            var fields = ["\"value\": \(number(entry.median))"]
            if let low = entry.ciLow, let high = entry.ciHigh {
                fields += ["\"lower_value\": \(number(low))", "\"upper_value\": \(number(high))"]
            }
            measures[name, default: []].append("    \(quoted(measure(entry.metric))): {\(fields.joined(separator: ", "))}")
        }
        let benchmarks = order.map { "  \(quoted($0)): {\n" + measures[$0]!.joined(separator: ",\n") + "\n  }" }
        return "{\n" + benchmarks.joined(separator: ",\n") + "\n}\n"
    }

    static func github(_ entries: [RunSummaryFile.Entry], run: RunSummaryFile) -> String {
        let objects = entries.map { entry -> String in
            var fields = [
                "\"name\": \(quoted(benchmarkName(entry) + " " + entry.metric))",
                "\"unit\": \(quoted(entry.unit))",
                "\"value\": \(number(entry.median))",
            ]
            var extra = "median of \(entry.samples) samples"
            if let low = entry.ciLow, let high = entry.ciHigh {
                fields.append("\"range\": \(quoted("± " + shortNumber((high - low) / 2)))")
                extra += "; interval [\(shortNumber(low)), \(shortNumber(high))]"
            }
            extra += "; run \(run.runID)"
            fields.append("\"extra\": \(quoted(extra))")
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// A JSON number with every digit (the entries are finite).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    static func shortNumber(_ value: Double) -> String {
        abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.3g", value)
    }

    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}

private extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
