import ArgumentParser
import BenchPlatform
import BenchResults

extension ResultsExport.Format: ExpressibleByArgument {}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a run's summary in the JSON that continuous-benchmarking services read.",
        discussion: """
            RUN is a results directory (or its summary.csv). Formats: bmf (Bencher Metric Format: \
            medians with their intervals as lower_value and upper_value; time as Bencher's latency \
            measure), github-smaller and github-bigger (github-action-benchmark's customSmallerIsBetter \
            and customBiggerIsBetter tools, each with only the metrics whose better direction it \
            states). Rows the machine could not measure are left out. See docs/command-line.md.

            Examples:
              layout-bench export results/20261124T204132Z-649a5d8 --format bmf --out bmf.json
              layout-bench export results/latest --format github-smaller --metric time --metric allocs
            """)

    @Argument(help: "A results directory or its summary.csv.")
    var results: String

    @Option(help: "bmf, github-smaller or github-bigger.")
    var format: ResultsExport.Format

    @Option(name: .customLong("metric"), help: "Only this metric (repeatable).")
    var metrics: [String] = []

    @Option(help: "Write to FILE (atomically) instead of standard output.")
    var out: String?

    func run() throws {
        try reportingErrors {
            let text = try ResultsExport.json(RunSummaryFile.load(results), format: format, metrics: Set(metrics))
            if let out { try AtomicFile.write(text, to: out, option: "--out") } else { try StandardOutput.write(text) }
        }
    }
}
