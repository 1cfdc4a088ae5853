import Foundation
import Testing
@testable import LayoutBenchKit

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

    @Test func degenerateInputs() {
        #expect(HierarchicalBootstrap.medianInterval([]).low.isNaN)
        #expect(HierarchicalBootstrap.medianInterval([[], []]).high.isNaN)
        #expect(HierarchicalBootstrap.medianInterval([[3, 3], [3]]) == Bootstrap.Interval(low: 3, high: 3))
        // One repetition: the plain bootstrap of its samples.
        let one: [Double] = [5, 1, 4, 2, 3, 9, 7]
        #expect(HierarchicalBootstrap.medianInterval([one]) == Bootstrap.medianInterval(one))
    }

    /// Repetitions whose levels differ: the interval spans the spread of the levels, which the
    /// plain bootstrap of the pooled samples (the old interval) does not.
    @Test func betweenRepetitionVariationWidensTheInterval() {
        var random = SplitMix64(seed: 7)
        let levels: [Double] = [100, 104, 97, 102, 99]
        let repetitions = levels.map { level in (0..<300).map { _ in level + random.nextDouble(in: -0.5, 0.5) } }
        let hierarchical = HierarchicalBootstrap.medianInterval(repetitions)
        let pooled = Bootstrap.medianInterval(Array(repetitions.joined()))
        #expect(hierarchical.high - hierarchical.low > 4 * (pooled.high - pooled.low))
        #expect(hierarchical.low < 99.5 && hierarchical.high > 101.5, "\(hierarchical)")
    }

    /// Simulated runs of 5 repetitions with a random level each: the 95 % interval contains the
    /// true median in about 95 % of the runs (the plain percentile bootstrap of 5 groups would
    /// give about 85 %).
    @Test func coverageOfTheTrueMedian() {
        var random = SplitMix64(seed: 11)
        func normal() -> Double {
            let u = Swift.max(random.nextDouble(), 1e-300), v = random.nextDouble()
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        var covered = 0
        let runs = 120
        for run in 0..<runs {
            let repetitions = (0..<5).map { _ in
                let level = 100 + normal()
                return (0..<40).map { _ in level + 0.2 * normal() }
            }
            if HierarchicalBootstrap.medianInterval(repetitions, resamples: 400, seed: UInt64(run)).contains(100) { covered += 1 }
        }
        let coverage = Double(covered) / Double(runs)
        #expect(coverage > 0.86 && coverage <= 1, "coverage \(coverage)")
    }
}
