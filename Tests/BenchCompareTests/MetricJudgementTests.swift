import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
import BenchWorkloads

/// Every metric the harness writes is judged by its own rule (`Metric`): a change beyond its
/// tolerance is regressed or improved, never noisy, unless it is statistical and truly noisy.
@Suite struct MetricJudgementTests {
    /// One row of `metric` per repetition and sample, all equal to `value`.
    static func constant(_ metric: Metric, _ value: Double, mode: String = "index-path", repetitions: Int = 3) -> [[String]] {
        var rows: [[String]] = []
        for repetition in 1...repetitions {
            for sample in 1...5 {
                rows.append(["2", "run", "abc1234", "feed-heights", "height-pass", mode, "1000", "batch-update",
                             String(repetition), String(sample), metric.rawValue, metric.unit, CSVWriter.format(value)])
            }
        }
        return rows
    }

    @Test(arguments: WorkloadCatalog.metrics)
    func aChangeBeyondTheToleranceIsDecided(metric: Metric) throws {
        let base = metric == .recall ? 0.5 : 100.0  // a fraction lies within 0…1
        let worse = metric.direction == .higherIsBetter ? base * 0.5 : base * 2
        let better = metric.direction == .higherIsBetter ? base * 2 : base * 0.5
        // An unchanged time row beside it, so the two runs always share a row.
        let time = metric == .time ? [] : Self.constant(.time, 1000)
        let regression = try ResultsFixtures.report(time + Self.constant(metric, base), time + Self.constant(metric, worse))
        let improvement = try ResultsFixtures.report(time + Self.constant(metric, base), time + Self.constant(metric, better))
        switch metric.direction {
        case .neither:
            // Describes the work: not a row, but a warning that the runs measured different work.
            #expect(regression.rows.allSatisfy { $0.key.metric != metric.rawValue })
            #expect(regression.warnings.contains { $0.contains("the work itself differs") })
        case .lowerIsBetter, .higherIsBetter:
            let row = try #require(regression.rows.first { $0.key.metric == metric.rawValue })
            #expect(row.verdict == .regressed, "\(metric.rawValue)")
            #expect(regression.exitStatus == 2)
            #expect(improvement.rows.first { $0.key.metric == metric.rawValue }?.verdict == .improved, "\(metric.rawValue)")
            #expect(improvement.exitStatus == 4)
            let same = try ResultsFixtures.report(time + Self.constant(metric, base), time + Self.constant(metric, base))
            #expect(same.rows.allSatisfy { $0.verdict == .unchanged })
            #expect(same.exitStatus == 0)
        }
    }

    /// The case: a height cache that gets 5 heights wrong per batch where it got none.
    @Test func wrongHeightsFromZeroIsARegression() throws {
        let report = try ResultsFixtures.report(Self.constant(.wrongHeights, 0), Self.constant(.wrongHeights, 5))
        let row = try #require(report.rows.first)
        #expect(row.verdict == .regressed)
        #expect(report.exitStatus == 2)
        let back = try ResultsFixtures.report(Self.constant(.wrongHeights, 5), Self.constant(.wrongHeights, 0))
        #expect(back.rows.first?.verdict == .improved)
    }

    /// Every count is exact, time statistical, peak_rss and alloc_bytes per process; every metric has a unit,
    /// a summary and a positive threshold.
    @Test func everyMetricStatesItsRule() {
        WorkloadCatalog.installMetrics()
        for metric in WorkloadCatalog.metrics {
            #expect(!metric.unit.isEmpty && !metric.about.isEmpty && metric.defaultThreshold > 0)
            if metric.unit == "count" { #expect(metric.kind == .exact, "\(metric.rawValue)") }
        }
        #expect(Metric.time.kind == .statistical)
        #expect(Metric.peakRSS.kind == .perProcess)
        #expect(Metric.allocBytes.kind == .perProcess)
        #expect(MetricPolicy.standard(for: "wrong_heights").kind == .exact)
        #expect(!MetricPolicy.standard(for: "no_such_metric").isKnown)
    }

    /// A/A for peak_rss: one value per process that moves by a few percent from process to
    /// process is unchanged, not noisy (an A/A compare must exit 0).
    @Test func peakRSSAcrossProcessesOfTheSameBinaryIsUnchanged() throws {
        func peaks(_ values: [Double]) -> [[String]] {
            values.enumerated().map { index, value in
                ["2", "run", "abc1234", "s", "query", "", "1000", "", String(index + 1), "1", "peak_rss", "bytes",
                 CSVWriter.format(value)]
            }
        }
        let base = peaks([100e6, 113e6, 95e6, 104e6, 99e6])
        let head = peaks([108e6, 92e6, 101e6, 97e6, 111e6])
        let report = try ResultsFixtures.report(base, head)
        #expect(report.rows.first?.verdict == .unchanged)
        #expect(report.exitStatus == 0)
        // A real growth in every process, well beyond what the processes spread, is a regression.
        let grown = try ResultsFixtures.report(base, peaks([160e6, 158e6, 165e6, 161e6, 159e6]))
        #expect(grown.rows.first?.verdict == .regressed)
    }

    /// A metric this version does not know is judged like time and named in a warning.
    @Test func unknownMetricIsWarned() throws {
        var base = Self.constant(.time, 100), head = Self.constant(.time, 100)
        for index in base.indices { base[index][10] = "future_metric" }
        for index in head.indices { head[index][10] = "future_metric" }
        let report = try ResultsFixtures.report(base, head)
        #expect(report.warnings.contains { $0.contains("future_metric") })
    }
}
