import ArgumentParser
import BenchPlatform
import BenchResults
import BenchWorkloads
import BenchCompare

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two runs: per row the ratio of medians, its interval, a p-value and a verdict.",
        discussion: """
            BASE and HEAD are results directories (or their samples.csv.gz or samples.csv). Rows are paired by scenario × mode \
            × items × operation × metric. Time measured in several repetitions (fresh processes) per side is \
            judged on the repetitions' midmeans (the geometric mean of the middle half of a process's samples; \
            the medians where a sample of the row is 0): paired by repetition number when both sides carry the same \
            numbers (scripts/compare-commits runs a scenario group of both commits seconds apart under one \
            number), else unpaired; a t interval of the log ratio (from ten pairs, of its 20% trimmed mean: \
            Yuen's test, so that a process that ran at another speed is set aside). With θ the threshold: `regressed` when the \
            ratio is at least 1 + ¾θ and the whole 99% interval (--change-confidence) lies above 1 + θ/2, \
            `improved` likewise below (both only from --change-repetitions processes a side, 5 by default), `unchanged` when \
            the 95% interval lies within 1 ± θ, `noisy` when it is too wide to decide. A row whose \
            processes spread more than θ allows is judged at --spread-factor times that spread (the \
            `threshold` column); from more than five processes a side, at √(5/n) of it, what averaging n \
            processes leaves. With one repetition a side, a bootstrap interval of the ratio of medians and \
            the Mann–Whitney U test decide. Per-process metrics (peak_rss, alloc_bytes: values that move \
            between processes of one binary) are judged by their processes like time, exactly where every \
            sample of both sides is one value, and never as a change from one process a side. Counted \
            metrics (allocs, instructions, recall, ...) are compared exactly, within their threshold; a count \
            of the cache simulation also claims no change below a floor per operation, as far as heap placement \
            moves it. The table's `judged:` lines (compare.csv's `judged`) say which rows were judged how.

            Default thresholds: time 5%, peak_rss 10%, alloc_bytes 5%, instructions 0.5%, estimated_cycles 1% \
            (and at least 35 an operation), l1_misses and ll_misses 2% (and at least 1), other counted metrics 0.1%.
            Exit status: 0 nothing regressed, 2 a regression, 3 too noisy to decide, 4 improvements only, \
            1 bad input.

            Examples:
              layout-bench compare results/base results/head
              layout-bench compare base/samples.csv.gz head/samples.csv.gz --threshold time=3% --out diff.csv
              layout-bench compare A B --threshold instructions=0 --all
            """)

    @Argument(help: "The base results directory or its samples file.")
    var base: String

    @Argument(help: "The head results directory or its samples file.")
    var head: String

    @Option(name: .customLong("threshold"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "METRIC=PERCENT, or PERCENT for time (repeatable), e.g. time=3% or instructions=0.5%.", valueName: "threshold"))
    var thresholds: [String] = []

    @Option(name: .customLong("metric"), help: "Compare only this metric (repeatable), e.g. --metric instructions.")
    var metrics: [String] = []

    @Option(parsing: .unconditional, help: "Significance level of the Mann–Whitney U test.")
    var alpha: Double = 0.05

    @Option(name: .customLong("spread-factor"), parsing: .unconditional, help: ArgumentHelp(
        "Judge a timed row at no less than K times the spread of its processes (0: the threshold as given).", valueName: "K"))
    var spreadFactor: Double = 3

    @Option(name: .customLong("change-confidence"), parsing: .unconditional, help: ArgumentHelp(
        "The confidence of the interval that must clear 1 ± θ/2 before a timed row is called regressed or improved.", valueName: "C"))
    var changeConfidence: Double = 0.99

    @Option(name: .customLong("change-repetitions"), parsing: .unconditional, help: ArgumentHelp(
        "The fewest repetitions a side from which a row judged by its processes is called regressed or improved (fewer: noisy; compare-commits asks 8).",
        valueName: "N"))
    var changeRepetitions: Int = RowComparison.defaultRepetitionsForChange

    @Option(help: "Write the table as CSV to FILE (atomically), and beside it causes.csv: the functions behind each regression of the exact track, when both runs have profiles.")
    var out: String?

    @Flag(help: "Also show the unchanged rows.")
    var all = false

    func validate() throws {
        // A malformed --threshold is a usage error (exit 64), found before anything is read.
        do { _ = try parsedThresholds() } catch { throw ValidationError(error.message) }
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must lie between 0 and 1, e.g. 0.05") }
        guard changeConfidence >= 0.5, changeConfidence < 1 else {
            throw ValidationError("--change-confidence must lie between 0.5 and 1, e.g. 0.99")
        }
        guard spreadFactor >= 0, spreadFactor <= 100 else { throw ValidationError("--spread-factor must lie between 0 and 100, e.g. 3") }
        guard changeRepetitions >= 2, changeRepetitions <= 1_000_000 else {
            throw ValidationError("--change-repetitions must lie between 2 and 1000000, e.g. 5")
        }
    }

    /// The `--threshold` options, each `METRIC=PERCENT` or `PERCENT`.
    func parsedThresholds() throws(CompareError) -> ThresholdOverrides {
        var overrides = ThresholdOverrides()
        for threshold in thresholds { try overrides.add(threshold) }
        return overrides
    }

    func run() throws {
        let status: Int32 = try reportingErrors {
            let overrides = try parsedThresholds()
            let (baseSet, headSet) = try ResultSet.load(base: base, head: head)
            // A threshold of a metric neither this version knows nor either side holds judges
            // nothing: a typo (`tiem=5`) would be lost and time judged at its default.
            let present = Set(baseSet.series.keys.map(\.metric)).union(headSet.series.keys.map(\.metric))
            let described = headSet.described.merging(baseSet.described) { head, _ in head }
            if let unknown = overrides.byMetric.keys.sorted().first(where: { Metric.named($0, in: described) == nil && !present.contains($0) }) {
                let known = WorkloadCatalog.metrics.map(\.name).joined(separator: ", ")
                throw ValidationError("--threshold: no metric \(JSONValue.quoted(DisplayText.bounded(unknown))) in this version or in the results compared (known: \(known))")
            }
            for notice in baseSet.notices + headSet.notices { printWarning(notice) }
            let report = try ComparisonReport(
                base: baseSet, head: headSet,
                options: .init(alpha: alpha, thresholds: overrides, metrics: Set(metrics), spreadFactor: spreadFactor,
                               changeConfidence: changeConfidence, repetitionsForChange: changeRepetitions))
            if let out {
                // The table and its causes.csv appear together or not at all.
                let files = ComparisonTable.files(report, csvPath: out)
                try AtomicFile.write(files, option: "--out")
            }
            try StandardOutput.write(ComparisonTable.text(report, showUnchanged: all))
            return report.exitStatus
        }
        if status != 0 { throw ExitCode(status) }
    }
}
