@testable import BenchStatistics
import Foundation
import Testing

@Suite struct HierarchicalBootstrapTests {
    @Test func quantilesMatchTables() {
        #expect(abs(HierarchicalBootstrap.normalQuantile(0.975) - 1.959964) < 1e-6)
        #expect(abs(HierarchicalBootstrap.normalQuantile(0.001) + 3.090232) < 1e-6)
        // Student t, 97.5 %: 12.706 (1), 4.303 (2), 3.182 (3), 2.571 (5), 2.228 (10), 2.042 (30).
        for (nu, t) in [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423)] {
            let q = HierarchicalBootstrap.studentQuantile(0.975, degreesOfFreedom: nu)
            #expect(abs(q - t) / t < 0.01, "t(0.975, \(nu)) = \(q), expected \(t)")
        }
    }

    /// Repetitions whose levels differ: the ratio's interval spans the spread of the levels, which
    /// the plain bootstrap of the pooled samples does not.
    @Test func betweenRepetitionVariationWidensTheRatioInterval() {
        var random = SplitMix64(seed: 7)
        let levels: [Double] = [100, 104, 97, 102, 99]
        func side() -> [[Double]] { levels.map { level in (0..<300).map { _ in level + random.nextDouble(in: -0.5, 0.5) } } }
        let base = side(), head = side()
        let hierarchical = HierarchicalBootstrap.medianRatioInterval(base: base, head: head)
        let pooled = HierarchicalBootstrap.medianRatioInterval(base: [Array(base.joined())], head: [Array(head.joined())])
        #expect(hierarchical.high - hierarchical.low > 4 * (pooled.high - pooled.low))
    }

    /// Simulated A/A comparisons of 5 repetitions a side, each with a random level: the 95% interval
    /// of the ratio contains 1 in at least 90% of them (98% here; 97% even without the expansion,
    /// since two resampled sides already widen a ratio). A bootstrap of pooled samples, blind to the
    /// levels, holds it 26% of the time.
    @Test func coverageOfAnEqualRatio() {
        var random = SplitMix64(seed: 11)
        func normal() -> Double {
            let u = Swift.max(random.nextDouble(), 1e-300), v = random.nextDouble()
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        func side() -> [[Double]] {
            (0..<5).map { _ in
                let level = 100 + normal()
                return (0..<40).map { _ in level + 0.2 * normal() }
            }
        }
        var covered = 0
        let runs = 120
        for run in 0..<runs {
            let interval = HierarchicalBootstrap.medianRatioInterval(base: side(), head: side(), resamples: 400, seed: UInt64(run))
            if interval.contains(1) { covered += 1 }
        }
        let coverage = Double(covered) / Double(runs)
        #expect(coverage > 0.9 && coverage <= 1, "coverage \(coverage)")
    }
}
