import BenchStatistics

/// An exact row (`Metric.Kind.exact`) reduced to what it counts: its total over the steps of the
/// trace both sides counted, and the steps where the two sides' counts differ.
///
/// A row of counts holds one value per step of its trace in step order (samples 1, 2, …: an
/// operation of a consuming trace, a region of callgrind, a pass of a batchable trace's allocation
/// count), and a count repeats exactly for the same code and input. Its steps are not samples of
/// one distribution: an `insert` trace's steps cost what each insert costs, and a build that adds
/// 1% to every step moves no rank test over steps that differ twentyfold. So the row is judged by
/// its total (`ratio` = head total / base total), and identical counts give a ratio of exactly 1.
/// A side may count fewer steps than the other (time covered a shorter prefix of a slow trace, a
/// pass cut short by the budget): the totals are over the first `steps` of every repetition, the
/// steps both sides counted. A side's total is the median of its repetitions' totals (exact counts
/// repeat: every repetition has the same one).
package struct ExactTotals: Sendable, Equatable {
    /// One step whose counts differ: its number (from 1) and each side's count.
    package struct Step: Sendable, Equatable {
        package var number: Int
        package var base: Double
        package var head: Double
    }

    /// The steps both sides counted: the fewest any repetition of either side holds.
    package var steps: Int
    package var base: Double
    package var head: Double
    /// How many of the `steps` differ between the two sides' first repetitions.
    package var differingSteps: Int
    /// The first `shownSteps` of them, for compare.txt.
    package var moved: [Step]

    /// Steps named per row in compare.txt.
    package static let shownSteps = 3

    /// Nil when a side has no values.
    package init?(base: [[Double]], head: [[Double]]) {
        let sides = [base.filter { !$0.isEmpty }, head.filter { !$0.isEmpty }]
        guard !sides[0].isEmpty, !sides[1].isEmpty else { return nil }
        let counted = sides.joined().map(\.count).min()!
        // Summed in step order on both sides: identical counts give identical totals.
        let totals = sides.map { repetitions in Quantile.median(repetitions.map { $0.prefix(counted).reduce(0, +) }) }
        steps = counted
        self.base = totals[0]
        self.head = totals[1]
        var differing = 0
        var moved: [Step] = []
        for (index, (b, h)) in zip(sides[0][0].prefix(counted), sides[1][0].prefix(counted)).enumerated() where b != h {
            differing += 1
            if moved.count < Self.shownSteps { moved.append(Step(number: index + 1, base: b, head: h)) }
        }
        differingSteps = differing
        self.moved = moved
    }

    /// The mean count per step of each side: the total over `steps`.
    package var baseMean: Double { base / Double(steps) }
    package var headMean: Double { head / Double(steps) }
}
