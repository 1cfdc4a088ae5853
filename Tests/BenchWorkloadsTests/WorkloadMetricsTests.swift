import Testing
@testable import BenchResults
@testable import BenchWorkloads

/// Each workload declares its own metrics (`<Workload>Metrics.swift`); together with the
/// harness-wide ones they name every metric once, each with its rule.
@Suite struct WorkloadMetricsTests {
    @Test func everyMetricIsDeclaredOnceWithOneRule() {
        var byName: [String: Metric] = [:]
        for metric in Metric.harnessWide + WorkloadCatalog.all.flatMap({ $0.metrics }) {
            if let other = byName.updateValue(metric, forKey: metric.name) { #expect(other == metric, "\(metric.name)") }
            #expect(!metric.unit.isEmpty && !metric.about.isEmpty && metric.defaultThreshold > 0, "\(metric.name)")
            #expect(metric.possibleValues.lowerBound <= 0, "\(metric.name)")
        }
        #expect(WorkloadCatalog.metrics.map(\.name) == Array(Set(WorkloadCatalog.metrics.map(\.name))).sorted { a, b in
            WorkloadCatalog.metrics.firstIndex { $0.name == a }! < WorkloadCatalog.metrics.firstIndex { $0.name == b }!
        })
        #expect(WorkloadCatalog.metrics.count == byName.count)
        // A heuristic mode's accuracy metric is one its workload declares.
        #expect(QueryWorkload.metrics.contains(.recall) && HeightPassWorkload.metrics.contains(.wrongHeights))
    }

    /// The harness-wide metrics are BenchResults' own; no workload redeclares them.
    @Test func workloadsDeclareOnlyTheirOwn() {
        let harness = Set(Metric.harnessWide.map(\.name))
        for workload in WorkloadCatalog.all {
            #expect(workload.metrics.allSatisfy { !harness.contains($0.name) }, "\(workload.kind)")
        }
    }
}
