import BenchStatistics
import BenchResults
import BenchCompare
import BenchWorkloads

/// Synthetic samples.csv rows whose truth is known, for the compare, results and runner tests.
package enum ResultsFixtures {
    /// samples.csv text: `repetitions` runs of `count` samples each, value = center × noise, where the
    /// noise is uniform in ±`spread` (relative) and each repetition is shifted by up to ±`shift`.
    package static func samples(
        scenario: String = "s", mode: String = "m", metric: String = "time", unit: String = "ns",
        center: Double, spread: Double, shift: Double = 0, repetitions: Int = 5, count: Int = 60, seed: UInt64
    ) -> [[String]] {
        var generator = SplitMix64(seed: seed)
        func uniform() -> Double { Double(generator.next() >> 11) / Double(1 << 53) * 2 - 1 }
        var rows: [[String]] = []
        for repetition in 1...repetitions {
            let offset = 1 + shift * uniform()
            for sample in 1...count {
                let value = center * offset * (1 + spread * uniform())
                rows.append(["1", "run", "abc1234", scenario, "query", mode, "1000", "query", String(repetition),
                             String(sample), metric, unit, CSVWriter.format(value)])
            }
        }
        return rows
    }

    package static func csv(_ rows: [[String]]) -> String {
        var writer = CSVWriter(header: CSVSchema.samplesHeader)
        for row in rows { writer.append(row) }
        return writer.text
    }

    /// Installs the metrics this binary's workloads declare, as `layout-bench` does at start, for
    /// a test that reads results carrying no run.json: without it such a test passes or fails by
    /// whether another test of the process installed them first.
    package static func installDeclaredMetrics() { WorkloadCatalog.installMetrics() }

    /// Compares rows that carry no run.json, so judged as this binary's workloads declare their
    /// metrics (`WorkloadCatalog.installMetrics`), as `layout-bench compare` judges such results.
    package static func report(_ base: [[String]], _ head: [[String]], options: RowComparison.Options = .init()) throws -> ComparisonReport {
        WorkloadCatalog.installMetrics()
        return try ComparisonReport(base: try ResultSet.parse(csv(base), file: "base.csv"),
                             head: try ResultSet.parse(csv(head), file: "head.csv"), options: options)
    }
}
