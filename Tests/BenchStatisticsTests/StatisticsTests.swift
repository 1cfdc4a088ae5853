@testable import BenchStatistics
import Testing

@Suite struct StatisticsTests {
    // Expected values from numpy 1.x: np.percentile(x, q) (linear), np.median(np.abs(x - np.median(x))).
    @Test func summaryOfSmallArray() {
        let x: [Double] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3]
        let s = Summary(x, seed: 42)
        #expect(s.count == 10)
        #expect(s.min == 1)
        #expect(s.p25 == 2.25)
        #expect(s.median == 3.5)
        #expect(s.p75 == 5)
        #expect(abs(s.p90 - 6.3) < 1e-12)
        #expect(abs(s.p99 - 8.73) < 1e-12)
        #expect(s.max == 9)
        #expect(abs(s.mean - 3.9) < 1e-12)
        #expect(s.mad == 1.5)
        #expect(s.ciLow <= s.median && s.median <= s.ciHigh)
        #expect(s.ciLow >= s.min && s.ciHigh <= s.max)
    }

    @Test func evenCountAndTies() {
        let s = Summary([10.5, 2.25, 7, 7])
        #expect(s.p25 == 5.8125)
        #expect(s.median == 7)
        #expect(s.p75 == 7.875)
        #expect(abs(s.p90 - 9.45) < 1e-12)
        #expect(abs(s.p99 - 10.395) < 1e-12)
        #expect(s.mad == 1.75)
    }

    @Test func degenerateInputs() {
        let one = Summary([5])
        #expect(one.median == 5 && one.p99 == 5 && one.mad == 0 && one.ciLow == 5 && one.ciHigh == 5)
        let none = Summary([])
        #expect(none.count == 0 && none.median.isNaN && none.ciLow.isNaN)
    }

    @Test func quickselectMedianMatchesSort() {
        var generator = SplitMix64(seed: 9)
        for n in [1, 2, 3, 4, 5, 10, 33, 100, 101] {
            var values = (0..<n).map { _ in Double(generator.next(below: 20)) }
            let expected = Quantile.median(values)
            #expect(Quantile.medianInPlace(&values, count: n) == expected)
        }
    }

    @Test func splitMix64ReferenceValues() {
        // Vigna's splitmix64.c with x = 0: the first outputs.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func bootstrapIsDeterministicAndCoversTheMedian() {
        var generator = SplitMix64(seed: 1)
        let values = (0..<200).map { _ in 100 + Double(generator.next(below: 1000)) / 100 }
        let a = Bootstrap.medianInterval(values, seed: 7)
        let b = Bootstrap.medianInterval(values, seed: 7)
        let c = Bootstrap.medianInterval(values, seed: 8)
        #expect(a == b)
        #expect(a != c)
        let median = Quantile.median(values)
        #expect(a.contains(median))
        #expect(a.high - a.low < 2)  // spread of the data is 10
        #expect(Summary(values, seed: 7) == Summary(values, seed: 7))
    }

    @Test func ratioOfMedians() {
        var generator = SplitMix64(seed: 3)
        let base = (0..<100).map { _ in 100 + Double(generator.next(below: 100)) / 10 }
        let head = base.map { $0 * 1.5 }
        let interval = Bootstrap.medianRatioInterval(base: base, head: head, seed: 11)
        #expect(interval.contains(1.5))
        #expect(interval.low > 1.3 && interval.high < 1.7)
        let same = Bootstrap.medianRatioInterval(base: base, head: base, seed: 11)
        #expect(same.contains(1))
    }

    // Expected p-values from scipy: mannwhitneyu(a, b, alternative="two-sided", method="asymptotic").
    @Test func mannWhitneyMatchesScipy() {
        let a = [1.1, 2.2, 2.2, 3.3, 4.4, 5.5, 5.5, 6.6, 7.7, 8.8, 9.9, 10.0]
        let b = [2.2, 3.3, 5.5, 7.0, 8.8, 9.9, 11.0, 12.1, 13.2, 13.2, 14.3, 15.4, 16.5, 17.6]
        #expect(MannWhitney.u(a, b) == 32.5)
        #expect(abs(MannWhitney.pValue(a, b) - 0.008574863990512932) < 1e-12)
        #expect(abs(MannWhitney.pValue(b, a) - 0.008574863990512932) < 1e-12)
        #expect(abs(MannWhitney.pValue([1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]) - 0.00811311726556578) < 1e-12)
        #expect(MannWhitney.pValue([1, 1, 1], [1, 1]) == 1)
        #expect(MannWhitney.pValue([], [1]) == 1)
    }
}
