@testable import BenchStatistics
import Foundation
import Testing

@Suite struct RunToRunIntervalTests {
    @Test func degenerateInputs() {
        #expect(RunToRunInterval.interval([]).low.isNaN)
        #expect(RunToRunInterval.interval([[], []]).high.isNaN)
        #expect(RunToRunInterval.interval([[3, 3], [3]]) == Bootstrap.Interval(low: 3, high: 3))
        // One repetition: the plain bootstrap of its samples (it cannot see run-to-run variation).
        let one: [Double] = [5, 1, 4, 2, 3, 9, 7]
        #expect(RunToRunInterval.interval([one]) == Bootstrap.medianInterval(one))
    }

    /// Five repetitions at levels 100, 104, 97, 102, 99: the pooled median ± t(0.975, 4) · s · √(2/5)
    /// on the log scale, worked out separately (s of the log levels = 0.026882, t = 2.7764):
    /// 95.389 to 104.834 (the t quantile is an approximation, within 0.5% at 4 degrees of freedom).
    @Test func worksOutTheFormula() {
        let repetitions: [[Double]] = [[100], [104], [97], [102], [99]]
        let interval = RunToRunInterval.interval(repetitions)
        #expect(abs(interval.low - 95.389) < 0.03, "\(interval)")
        #expect(abs(interval.high - 104.834) < 0.03, "\(interval)")
    }

    /// Zeros (an operation that allocates nothing in some repetitions) use the linear scale.
    @Test func nonPositiveValuesUseTheLinearScale() {
        let interval = RunToRunInterval.interval([[0, 0, 0], [2, 2, 2], [1, 1, 1]])
        #expect(interval.low < 1 && interval.high > 1)
        #expect(abs((1 - interval.low) - (interval.high - 1)) < 1e-9)
    }

    /// Simulated pairs of runs (5 repetitions each, a random slow or fast spell per repetition,
    /// 40 noisy samples in each): another run's median falls inside the 95% interval about 95% of
    /// the time. The interval of the median itself (no √2) or the bootstrap would hold it about 83%.
    @Test func holdsAnotherRunsMedianAsOftenAsItClaims() {
        var random = SplitMix64(seed: 23)
        func normal() -> Double {
            let u = Swift.max(random.nextDouble(), 1e-300), v = random.nextDouble()
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        func run() -> [[Double]] {
            (0..<5).map { _ in
                let level = 100 * exp(0.1 * normal())
                return (0..<40).map { _ in level * exp(0.02 * normal()) }
            }
        }
        let pairs = 600
        var covered = 0
        for _ in 0..<pairs {
            let interval = RunToRunInterval.interval(run())
            let other = Quantile.median(Array(run().joined()))
            if interval.low <= other && other <= interval.high { covered += 1 }
        }
        let coverage = Double(covered) / Double(pairs)
        #expect(coverage > 0.91 && coverage < 0.985, "another run's median inside \(coverage)")
    }
}
