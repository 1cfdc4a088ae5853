import Foundation
import BenchResults
import BenchPlatform

/// The two renderings of a `ComparisonReport`: a table for people (worst first, units spelled out)
/// and a CSV for scripts and `scripts/plot`.
package enum ComparisonTable {
    package static let csvHeader = [
        "scenario", "workload", "mode", "items", "operation", "metric", "unit",
        "base_samples", "head_samples", "base_repetitions", "head_repetitions",
        "base_median", "head_median", "ratio", "ci_low", "ci_high", "p_value", "threshold", "verdict", "judged",
    ]

    /// Worst first: by verdict (regressed, noisy, improved, unchanged), then the largest change
    /// for the worse first, then by key.
    static func order(_ a: RowComparison, _ b: RowComparison) -> Bool {
        let va = a.verdict ?? .unchanged, vb = b.verdict ?? .unchanged
        if va != vb { return va < vb }
        let wa = worseness(a), wb = worseness(b)
        if wa != wb { return wa > wb }
        return a.key < b.key
    }

    /// log of the ratio, signed so that positive is worse.
    static func worseness(_ row: RowComparison) -> Double {
        guard row.ratio.isFinite, row.ratio > 0 else { return row.ratio.isNaN ? 0 : (row.ratio > 0 ? .infinity : -.infinity) }
        let value = log(row.ratio)
        return row.policy.direction == .higherIsBetter ? -value : value
    }

    /// The CSV: judged rows worst first, then the one-sided rows (verdict `only-in-base` or
    /// `only-in-head`, statistics empty).
    /// The files `compare --out PATH` writes, together or not at all: the table as CSV at `path`
    /// and, beside it, causes.csv when the exact track found causes of regressions.
    package static func files(_ report: ComparisonReport, csvPath path: String) -> [(path: String, text: String)] {
        var files = [(path: path, text: csv(report))]
        if !report.causes.isEmpty {
            let causes = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("causes.csv")
            files.append((causes, RegressionCause.csv(report.causes)))
        }
        return files
    }

    package static func csv(_ report: ComparisonReport) -> String {
        var writer = CSVWriter(header: csvHeader)
        // The failed groups first (verdict `failed`, judged `failed-in-SIDE`, statistics empty).
        for entry in report.failed {
            let failure = entry.head ?? entry.base
            writer.append([
                entry.group.scenario, entry.workload, entry.group.mode, String(entry.group.items), failure?.operation ?? "", "", "",
                "", "", "", "", "", "", "", "", "", "", "", Verdict.failed.rawValue, entry.judged,
            ])
        }
        for row in report.rows {
            writer.append([
                row.key.scenario, row.workload, row.key.mode, String(row.key.items), row.key.operation, row.key.metric,
                row.unit, String(row.baseSamples), String(row.headSamples), String(row.baseRepetitions),
                String(row.headRepetitions), CSVWriter.format(row.baseMedian), CSVWriter.format(row.headMedian),
                CSVWriter.format(row.ratio), CSVWriter.format(row.interval.low), CSVWriter.format(row.interval.high),
                row.pValue.isNaN ? "" : CSVWriter.format(row.pValue), CSVWriter.format(row.threshold),
                verdictText(row), row.judgement.rawValue,
            ])
        }
        for entry in report.oneSided {
            let samples = (entry.presentIn == .base ? report.base : report.head).series[entry.key]
            writer.append([
                entry.key.scenario, samples?.workload ?? "", entry.key.mode, String(entry.key.items), entry.key.operation,
                entry.key.metric, samples?.unit ?? "", "", "", "", "", "", "", "", "", "", "", "",
                "only-in-\(entry.presentIn.rawValue)", "",
            ])
        }
        return writer.text
    }

    /// The table: warnings, the rows (all, or all but `unchanged`), the one-sided rows, the
    /// geometric means and a count of each verdict. Read by people, so names from the results
    /// come out escaped (`DisplayText`), wherever the text goes (stdout, compare.txt).
    package static func text(_ report: ComparisonReport, showUnchanged: Bool) -> String {
        var out = ""
        let baseName = report.base.commits.joined(separator: "+"), headName = report.head.commits.joined(separator: "+")
        out += "base: \(report.base.samplesPath) (commit \(baseName))\nhead: \(report.head.samplesPath) (commit \(headName))\n"
        for warning in report.warnings { out += "warning: \(warning)\n" }
        let shown = report.rows.filter { showUnchanged || $0.verdict != .unchanged }
        let policies = Dictionary(report.rows.map { ($0.key.metric, $0.policy) }, uniquingKeysWith: { a, _ in a })
        let thresholds = policies.mapValues(\.threshold)
        out += "\nratio = head median / base median (> 1: head larger); \(percent(report.options.confidence)) interval: "
            + "time in several repetitions a side by a t interval of the per-repetition medians' log ratio (paired "
            + "by repetition number where both sides number them alike; from 10 pairs, Yuen's 20% trimmed mean) and p "
            + "from the same t-test; otherwise "
            + "a bootstrap over repetitions and samples and p from Mann–Whitney U; alpha \(report.options.alpha); "
            + "a timed change is claimed when its \(percent(report.options.changeConfidence)) interval clears 1 ± θ/2; "
            + "a count (judged exactly): ratio = head total / base total over the steps both sides counted, base and head "
            + "its mean per step\n"
        out += "thresholds: " + thresholds.keys.sorted().map { metric in
            let floor = policies[metric]!.floor
            return "\(metric) \(percent(thresholds[metric]!))" + (floor > 0 ? " and \(ComparisonTable.fixed(floor, decimals: 0)) an operation" : "")
        }.joined(separator: ", ") + "\n"
        let widened = report.rows.filter { $0.threshold > $0.policy.threshold }
        if !widened.isEmpty, let widest = widened.max(by: { $0.threshold < $1.threshold }) {
            out += "\(widened.count) rows spread between their processes by more than their threshold allows and are "
                + "judged at \(ComparisonTable.fixed(report.options.spreadFactor, decimals: 1))× that spread (column θ; "
                + "widest: \(widest.key.label) at \(percent(widest.threshold)))"
                + (report.options.spreadRepetitions > 0
                    ? "; a row from n > \(report.options.spreadRepetitions) processes a side averages them, its spread taken at √(\(report.options.spreadRepetitions)/n)"
                    : "") + "\n"
        }
        out += judgementText(report)
        out += failedText(report)
        out += "\n"
        if !shown.isEmpty || !report.failed.isEmpty {
            var table: [[String]] = [["verdict", "scenario", "mode", "items", "operation", "metric", "base", "head", "ratio", "interval", "p", "θ"]]
            for entry in report.failed {
                func side(_ failure: FailureRow?, _ present: Bool) -> String { failure != nil ? "failed" : present ? "verified" : "not run" }
                table.append([
                    Verdict.failed.rawValue, entry.group.scenario, entry.group.mode, String(entry.group.items),
                    (entry.head ?? entry.base)?.operation ?? "", "", side(entry.base, entry.inBase), side(entry.head, entry.inHead),
                    "", "", "", "",
                ])
            }
            for row in shown {
                table.append([
                    verdictText(row), row.key.scenario, row.key.mode, String(row.key.items), row.key.operation,
                    row.key.metric, format(row.baseMedian, unit: row.unit), format(row.headMedian, unit: row.unit),
                    ratioText(row.ratio), "[" + ratioText(row.interval.low) + ", " + ratioText(row.interval.high) + "]",
                    row.pValue.isNaN ? "exact" : pText(row.pValue), percent(row.threshold),
                ])
            }
            out += aligned(table, rightAligned: [3, 6, 7, 8, 9, 10, 11])
        }
        let hidden = report.rows.count - shown.count
        if hidden > 0 { out += "(\(hidden) unchanged rows not shown; --all shows them)\n" }
        out += movedStepsText(report)
        out += unjudgedText(report)
        if !report.causes.isEmpty {
            out += "\nwhere the instructions went (per operation; the \(RegressionCause.limit) functions whose own instructions moved most):\n"
            for key in report.causes.keys.sorted() {
                out += "  \(key.label):\n"
                var table: [[String]] = [["function", "self base", "self head", "self Δ", "inclusive Δ"]]
                for cause in report.causes[key]! {
                    table.append([cause.function, count(cause.baseSelf), count(cause.headSelf),
                                  signed(cause.selfDelta), signed(cause.inclusiveDelta)])
                }
                out += aligned(table, rightAligned: [1, 2, 3, 4]).split(separator: "\n").map { "    " + $0 + "\n" }.joined()
            }
        } else if report.rows.contains(where: { $0.verdict == .regressed && RegressionCause.explainedMetrics.contains($0.key.metric) }),
                  report.base.profiles.isEmpty || report.head.profiles.isEmpty {
            out += "\n(no profiles.csv.gz on both sides: runs of this version with --instructions name the functions behind a regression)\n"
        }
        if !report.oneSided.isEmpty {
            out += "\non one side only (\(report.oneSided.count)):\n"
            for entry in report.oneSided {
                let other = entry.presentIn == .base ? "head" : "base"
                out += "  \(entry.key.label): only in \(entry.presentIn.rawValue) (\(entry.reason) in \(other))\n"
            }
        }
        // Time always; another metric only where its mean moved beyond its threshold.
        let means = report.geometricMeans.filter { mean in
            mean.metric == Metric.time.name
                || abs(mean.ratio - 1) > (thresholds[mean.metric] ?? report.options.thresholds.policy(for: mean.metric).threshold)
        }
        if !means.isEmpty {
            out += "\ngeometric mean of the ratios per scenario (time, and other metrics that moved):\n"
            var table: [[String]] = [["scenario", "metric", "rows", "ratio"]]
            for mean in means {
                table.append([mean.scenario, mean.metric, String(mean.rows), ratioText(mean.ratio)])
            }
            out += aligned(table, rightAligned: [2, 3]).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        }
        out += "\n" + Verdict.allCases.map { "\(report.count($0)) \($0.rawValue)" }.joined(separator: ", ")
            + ", \(report.oneSided.count) on one side only"
            + (report.unjudged.isEmpty ? "" : ", \(report.unjudged.count) \(notJudged) (different prefixes of the trace)") + "\n"
        return DisplayText.escaped(out)
    }

    /// The groups that failed on a side, first of all: each with what happened on both sides and
    /// the failure's own line (empty when none failed).
    static func failedText(_ report: ComparisonReport) -> String {
        guard !report.failed.isEmpty else { return "" }
        var out = "failed (\(report.failed.count)): a mode that failed on a side has nothing to judge; its group is not "
            + "compared (failures.csv beside the samples says what went wrong):\n"
        for entry in report.failed {
            out += "  \(entry.group.label): \(entry.sides)\n"
            for (name, failure) in [("base", entry.base), ("head", entry.head)] {
                if let failure { out += "    \(name): \(failure.summary)\n" }
            }
        }
        return out
    }

    /// Which rule judged which rows, per metric (compare.csv's `judged` says it per row): e.g.
    /// "alloc_bytes: 57 rows by their processes (…: reuse-scroll set-scan 1000 scroll-step, …), 194 exactly".
    static func judgementText(_ report: ComparisonReport) -> String {
        var byMetric: [String: [RowComparison.Judgement: [RowComparison]]] = [:]
        for row in report.rows { byMetric[row.key.metric, default: [:]][row.judgement, default: []].append(row) }
        let phrases: [RowComparison.Judgement: String] = [
            .processes: "by their processes (each process's midmean, its median where a sample is 0; a change from \(report.options.repetitionsForChange) repetitions a side)",
            .samples: "by their samples (one repetition on a side)",
            .exact: "exactly (by their totals over the steps both sides counted)",
            .oneProcess: "by one process on a side (never regressed: unchanged within the threshold, else noisy)",
            .none: "not judged",
            .differentPrefixes: "not judged exactly (means over different prefixes of a batchable trace; named below the table)",
        ]
        var out = "judged:\n"
        for metric in byMetric.keys.sorted() {
            let groups = byMetric[metric]!
            let parts = RowComparison.Judgement.allCases.compactMap { judgement -> String? in
                guard let rows = groups[judgement], !rows.isEmpty else { return nil }
                var text = "\(rows.count) row\(rows.count == 1 ? "" : "s") \(phrases[judgement]!)"
                // Which rows of a count (alloc_bytes) were judged by their processes is named; time
                // and peak_rss are always.
                if rows[0].policy.kind == .perProcess && judgement != .exact && metric != Metric.peakRSS.name {
                    let labels = rows.map { "\($0.key.scenario) \($0.key.mode) \($0.key.items) \($0.key.operation)" }.sorted()
                    text += ": " + labels.prefix(8).joined(separator: ", ") + (labels.count > 8 ? ", … (compare.csv's judged)" : "")
                }
                return text
            }
            out += "  \(metric): " + parts.joined(separator: "; ") + "\n"
        }
        return out
    }

    /// The verdict column of a row: its verdict, or `not-judged` for a count over different
    /// prefixes of its trace (the only judged row without one).
    static func verdictText(_ row: RowComparison) -> String {
        row.verdict?.rawValue ?? (row.judgement == .differentPrefixes ? notJudged : "")
    }

    static let notJudged = "not-judged"

    /// Per count over different prefixes of its trace, why it has no verdict: "allocs of
    /// cell-measure-feed-text fresh-engine 1000 measure over 64 vs 32 operations: …".
    static func unjudgedText(_ report: ComparisonReport) -> String {
        let rows = report.unjudged
        guard !rows.isEmpty else { return "" }
        var out = "\nnot judged exactly (\(rows.count)): counts of a batchable operation are means per operation over the "
            + "prefix of its trace each run covered (run.json's coverage), so two prefixes are two different sets of operations:\n"
        for row in rows {
            let prefixes = row.prefixes!
            out += "  \(row.key.metric) of \(row.key.scenario) \(row.key.mode) \(row.key.items) \(row.key.operation) over "
                + "\(prefixes.baseWords) vs \(prefixes.headWords) operations: different prefixes of the trace, not judged exactly "
                + "(\(format(row.baseMedian, unit: row.unit)) → \(format(row.headMedian, unit: row.unit)))\n"
        }
        return out
    }

    /// Per count judged `regressed` or `improved`, the steps where it moved: how many of the
    /// steps both sides counted differ, and the first of them with both counts (of each side's
    /// first repetition).
    static func movedStepsText(_ report: ComparisonReport) -> String {
        let moved = report.rows.filter { ($0.verdict == .regressed || $0.verdict == .improved) && $0.totals != nil }
        guard !moved.isEmpty else { return "" }
        var out = "\nwhere the counts moved (steps both sides counted, each side's first repetition):\n"
        for row in moved {
            let totals = row.totals!
            out += "  \(row.key.label): total \(format(totals.base, unit: row.unit)) → \(format(totals.head, unit: row.unit)) over "
                + "\(totals.steps) step\(totals.steps == 1 ? "" : "s"); "
            if totals.differingSteps == 0 {
                out += "no step of the first repetitions differs (the repetitions' totals do)\n"
                continue
            }
            out += "\(totals.differingSteps) differ"
            out += totals.moved.map { "; step \($0.number) \(format($0.base, unit: row.unit)) → \(format($0.head, unit: row.unit))" }.joined()
            out += totals.differingSteps > totals.moved.count ? "; …\n" : "\n"
        }
        return out
    }

    // MARK: Formatting

    /// A value with its unit scaled for reading: 1.23 µs, 4.5 MB, 1,234 (counts), 0.984 (fractions).
    package static func format(_ value: Double, unit: String) -> String {
        guard value.isFinite else { return CSVWriter.format(value) }
        switch unit {
        case "ns":
            let steps: [(Double, String)] = [(1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1, "ns")]
            for (scale, name) in steps where abs(value) >= scale || scale == 1 {
                return significant(value / scale) + " " + name
            }
        case "bytes":
            let steps: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB"), (1, "B")]
            for (scale, name) in steps where abs(value) >= scale || scale == 1 {
                return significant(value / scale) + " " + name
            }
        case "fraction":
            return significant(value)
        default:
            break
        }
        return significant(value)
    }

    /// Three significant digits at most, plain notation ("1.23", "12.3", "123", "12345", "0.00123");
    /// past 9e18 and for infinities and NaN as `CSVWriter.format` writes them ("1e+300", "inf").
    static func significant(_ value: Double) -> String {
        guard value.isFinite else { return CSVWriter.format(value) }
        if value == 0 { return "0" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        let magnitude = Int(log10(abs(value)).rounded(.down))
        let decimals = max(0, 2 - magnitude)
        return fixed(value, decimals: decimals)
    }

    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return CSVWriter.format(value) }
        var digits = String(Int64(scaled))
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (value < 0 && scaled != 0 ? "-" : "") + digits
    }

    static func ratioText(_ ratio: Double) -> String {
        guard ratio.isFinite else { return ratio.isNaN ? "n/a" : (ratio > 0 ? "inf" : "-inf") }
        return fixed(ratio, decimals: ratio >= 100 ? 0 : 3)
    }

    static func pText(_ p: Double) -> String { p < 0.0001 ? "<0.0001" : fixed(p, decimals: 4) }

    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : significant(value)) + "%"
    }

    static func aligned(_ table: [[String]], rightAligned: Set<Int>) -> String {
        var widths = [Int](repeating: 0, count: table.first?.count ?? 0)
        for row in table { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in table {
            var line = ""
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                line += (i == 0 ? "" : "  ") + (rightAligned.contains(i) ? pad + cell : cell + pad)
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}

private func count(_ value: Double) -> String {
    abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
}

private func signed(_ value: Double) -> String {
    (value > 0 ? "+" : "") + count(value)
}
