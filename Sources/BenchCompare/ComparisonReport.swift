import Foundation
import BenchResults

/// `compare BASE HEAD`: every series present on both sides judged (`RowComparison`), the series
/// present on one side only, the geometric mean of the ratios per scenario and metric, warnings
/// (different machines or builds, a workload that changed), and the exit status of docs/command-line.md.
package struct ComparisonReport: Sendable {
    /// A series that cannot be paired: absent on one side, or `unsupported` there.
    package struct OneSided: Sendable, Equatable {
        package enum Side: String, Sendable { case base, head }
        package var key: RowKey
        /// The side that has samples.
        package var presentIn: Side
        /// "missing" or "unsupported" (on the other side).
        package var reason: String
    }

    /// A scenario × mode × items group whose mode failed on a side (failures.csv): verdict
    /// `failed`, worst of all, whatever the other side did — a failed mode has no numbers to judge,
    /// and a gate must not pass a run that broke it (nor one whose base broke it: that comparison
    /// says nothing of the group either). Its rows on either side are left out of the judged and
    /// the one-sided rows.
    package struct Failed: Sendable, Equatable {
        package var group: FailedGroup
        /// Each side's failure; nil where the group did not fail.
        package var base: FailureRow?
        package var head: FailureRow?
        /// Whether the side that did not fail has rows of the group (it verified there), per side.
        package var inBase: Bool
        package var inHead: Bool

        /// `failed-in-base`, `failed-in-head` or `failed-in-both` (compare.csv's `judged`).
        package var judged: String {
            base != nil && head != nil ? "failed-in-both" : base != nil ? "failed-in-base" : "failed-in-head"
        }

        /// What happened on each side: "failed in head, verified in base".
        package var sides: String {
            if base != nil && head != nil { return "failed in base and in head" }
            let (failedSide, other, present) = base != nil ? ("base", "head", inHead) : ("head", "base", inBase)
            return "failed in \(failedSide), " + (present ? "verified in \(other)" : "not run in \(other)")
        }

        package var workload: String { (head ?? base)?.workload ?? "" }
    }

    /// exp(mean(log ratio)) over a scenario's judged rows of one metric with a finite, positive ratio.
    package struct GeometricMean: Sendable, Equatable {
        package var scenario: String
        package var metric: String
        package var ratio: Double
        package var rows: Int
    }

    package var base: ResultSet
    package var head: ResultSet
    package var options: RowComparison.Options
    /// Worst first (see `ComparisonTable.order`).
    package var rows: [RowComparison]
    /// The groups that failed on a side, by group (see `Failed`).
    package var failed: [Failed]
    package var oneSided: [OneSided]
    package var geometricMeans: [GeometricMean]
    package var warnings: [String]
    /// Per regressed row of the exact track, the functions whose instructions moved most (when
    /// both runs have profiles).
    package var causes: [RowKey: [RegressionCause]]
    /// The load factor of the two runs (`NoiseBound.loadFactor`): what the recorded load can
    /// stretch a time by.
    package var loadFactor: Double

    package init(base: ResultSet, head: ResultSet, options: RowComparison.Options = .init()) throws(CompareError) {
        self.base = base
        self.head = head
        // How each metric is judged: as the results describe it (the head's run.json, else the
        // base's), else as this binary does (`Metric.named`).
        var options = options
        let described = head.described.merging(base.described) { head, _ in head }
        options.thresholds.described = described
        self.options = options
        var rows: [RowComparison] = []
        var oneSided: [OneSided] = []
        var warnings = RunCompatibility.warnings(base: base, head: head)
        for (name, baseMetric) in base.described.sorted(by: { $0.key < $1.key }) {
            if let headMetric = head.described[name], !headMetric.judgedAlike(baseMetric) {
                warnings.append("\(name) is judged differently by the two runs' harnesses (base: \(baseMetric.rule), head: \(headMetric.rule)); "
                    + "judged as the head's describes it")
            }
        }
        var changedWork: [String] = []
        let failed = Self.failedGroups(base: base, head: head)
        let failedGroups = Set(failed.map(\.group))
        let keys = Set(base.series.keys).union(head.series.keys).sorted()
            .filter { options.metrics.isEmpty || options.metrics.contains($0.metric) }
            .filter { !failedGroups.contains(FailedGroup(scenario: $0.scenario, mode: $0.mode, items: $0.items)) }
        // Each file holds one unit per series (the metric's, for a metric this version knows);
        // a metric it does not know may still come in other units from the two runs.
        for key in keys {
            guard let b = base.series[key], let h = head.series[key], b.unit != h.unit else { continue }
            throw CompareError(file: head.samplesPath, message: "line \(h.line): unit: \(key.label) is in '\(h.unit)' here and in '\(b.unit)' "
                + "in \(base.samplesPath) (line \(b.line)); values in different units are not compared")
        }
        let load = NoiseBound.loadFactor(base: base.metadata, head: head.metadata)
        let judged = Self.judgeInParallel(keys: keys, base: base, head: head, options: options, load: load)
        for key in keys {
            let b = base.series[key], h = head.series[key]
            switch (b, h) {
            case let (b?, h?) where judged[key] != nil:
                var row = judged[key]!
                if row.judgement == .exact, let prefixes = TracePrefixes.differing(
                    key: key, counting: Metric.named(key.metric, in: described)?.counted ?? .samples, base: base.metadata?.coverage, head: head.metadata?.coverage,
                    baseValues: Self.fewestValues(b), headValues: Self.fewestValues(h)) {
                    row.leaveUnjudged(prefixes)
                }
                if row.policy.direction == .neither {
                    if abs(row.ratio - 1) > row.policy.threshold || row.ratio.isNaN {
                        changedWork.append("\(key.scenario) \(key.mode) \(key.items) \(key.operation): \(key.metric) "
                            + "\(ComparisonTable.format(row.baseMedian, unit: row.unit)) → \(ComparisonTable.format(row.headMedian, unit: row.unit))")
                    }
                    continue
                }
                rows.append(row)
            case let (b?, h?):
                if b.count == 0 && h.count == 0 { continue }  // unsupported on both sides: nothing to say
                oneSided.append(OneSided(key: key, presentIn: b.count > 0 ? .base : .head, reason: "unsupported"))
            case let (b?, nil):
                if b.count > 0 { oneSided.append(OneSided(key: key, presentIn: .base, reason: "missing")) }
            case let (nil, h?):
                if h.count > 0 { oneSided.append(OneSided(key: key, presentIn: .head, reason: "missing")) }
            case (nil, nil):
                break
            }
        }
        guard !rows.isEmpty || !failed.isEmpty else {
            var error = CompareError(file: "", message: "\(base.samplesPath) and \(head.samplesPath) have no scenario × mode × items × operation × metric in common; nothing to compare")
            error.isNothingInCommon = true
            throw error
        }
        let unknown = Set(rows.filter { !$0.policy.isKnown }.map(\.key.metric)).sorted()
        if !unknown.isEmpty {
            warnings.append("metrics this version does not know, judged like time (statistical, lower is better, "
                + "\(Int(Metric.time.defaultThreshold * 100))%): " + unknown.joined(separator: ", "))
        }
        if !changedWork.isEmpty {
            warnings.append("the work itself differs (\(changedWork.count) series): the runs measured different scenarios "
                + "or query answers, so those rows' times are not comparable; first: " + changedWork.prefix(3).joined(separator: "; "))
        }
        if rows.contains(where: { $0.policy.kind == .statistical && ($0.baseRepetitions < 2 || $0.headRepetitions < 2) }) {
            warnings.append("one repetition per side: the intervals cover the noise within one process only, and a whole "
                + "process can run a few percent faster or slower than another; for a verdict that holds, give each side "
                + "several repetitions (scripts/compare-commits runs the two binaries interleaved, several rounds)")
        }
        // Two runs apart in time, one of them on a busy machine: a timed change between them cannot
        // be told from the load (a quick A/A at load 4 and 11 read feed-heights-fd 3× slower), and
        // nothing pairs the two. Such a change is left `noisy`, unless it lies beyond anything the
        // load can explain (`NoiseBound`); a driver's rounds (compare-commits' duets, paired,
        // load.own_processes) see the load alike on both sides and keep their verdicts.
        let unpairedBusy = RunCompatibility.busySides(base: base, head: head)
        if !unpairedBusy.isEmpty {
            var withheld = 0
            for index in rows.indices where rows[index].verdict == .regressed || rows[index].verdict == .improved {
                guard rows[index].judgement == .processes || rows[index].judgement == .samples, !rows[index].beyondNoise else { continue }
                rows[index].verdict = .noisy
                rows[index].changeWithheld = true
                withheld += 1
            }
            if withheld > 0 {
                warnings.append("\(unpairedBusy.joined(separator: " and ")) ran on a busy machine and the two runs are not paired "
                    + "rounds of one comparison: \(withheld) timed change\(withheld == 1 ? "" : "s") cannot be told from the load and "
                    + "\(withheld == 1 ? "is" : "are") left noisy (compare on a quiet machine, or with scripts/compare-commits)")
            }
        }
        // The changes called although a rule withholds changes of their kind: too few repetitions
        // a side, or unpaired runs on a busy machine.
        let beyond = rows.filter { row in
            row.beyondNoise && (!unpairedBusy.isEmpty
                || (row.judgement == .processes && Swift.min(row.baseRepetitions, row.headRepetitions) < options.repetitionsForChange))
        }
        if let first = beyond.first {
            warnings.append("\(beyond.count) timed change\(beyond.count == 1 ? " lies" : "s lie") beyond anything the recorded load "
                + "(a load factor of \(RunCompatibility.formatted(load))) and the spread of one build's processes can explain, "
                + "and \(beyond.count == 1 ? "is" : "are") called whatever the repetitions a side or the load (first: \(first.key.label), "
                + "ratio \(ComparisonTable.ratioText(first.ratio)), its interval wholly beyond \(RunCompatibility.formatted(first.noiseBound))×)")
        }
        let awaiting = rows.filter { $0.awaitsRepetitions && !$0.changeWithheld }.count
        if awaiting > 0 {
            warnings.append("\(awaiting) row\(awaiting == 1 ? " looks" : "s look") changed but \(awaiting == 1 ? "has" : "have") fewer than "
                + "\(options.repetitionsForChange) repetitions a side, the fewest a change is claimed from: left noisy "
                + "(scripts/compare-commits runs the row's group until it has them)")
        }
        self.rows = rows.sorted(by: ComparisonTable.order)
        self.failed = failed
        self.oneSided = oneSided
        self.warnings = warnings
        self.geometricMeans = Self.geometricMeans(rows)
        self.causes = RegressionCause.find(rows: self.rows, base: base.profiles, head: head.profiles)
        self.loadFactor = load
    }

    /// The rows present on both sides, judged on every core: the bootstrap of a whole suite's
    /// rows (about 2,000 series of up to thousands of samples each) is most of `compare`'s time.
    /// Each row is seeded by its key, so the result does not depend on the order or the cores.
    static func judgeInParallel(
        keys: [RowKey], base: ResultSet, head: ResultSet, options: RowComparison.Options, load: Double
    ) -> [RowKey: RowComparison] {
        let pairs: [(RowKey, SeriesSamples, SeriesSamples)] = keys.compactMap { key in
            guard let b = base.series[key], let h = head.series[key], b.count > 0, h.count > 0 else { return nil }
            return (key, b, h)
        }
        // Each worker writes only its own indices.
        struct Slots: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<RowComparison?> }
        let slots = Slots(buffer: .allocate(capacity: pairs.count))
        slots.buffer.initialize(repeating: nil)
        defer { slots.buffer.deallocate() }
        let workers = Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, pairs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < pairs.count {
                let (key, b, h) = pairs[index]
                slots.buffer[index] = RowComparison(key: key, base: b, head: h, options: options, load: load)
                index += workers
            }
        }
        var rows: [RowKey: RowComparison] = [:]
        for (index, pair) in pairs.enumerated() { rows[pair.0] = slots.buffer[index] }
        return rows
    }

    /// The fewest values any repetition of a side holds (those with none left out).
    static func fewestValues(_ series: SeriesSamples) -> Int {
        series.repetitions.map(\.count).filter { $0 > 0 }.min() ?? 0
    }

    /// The counts left unjudged because the two sides counted different prefixes of their trace.
    package var unjudged: [RowComparison] { rows.filter { $0.judgement == .differentPrefixes } }

    /// 2 when a group failed or a row regressed, else 3 when a row was too noisy to decide, else 4
    /// when rows improved, else 0 (docs/command-line.md). A count left unjudged (`unjudged`) has no
    /// verdict and moves none of it.
    package var exitStatus: Int32 {
        let verdicts = Set(rows.compactMap(\.verdict))
        if !failed.isEmpty || verdicts.contains(.regressed) { return 2 }
        if verdicts.contains(.noisy) { return 3 }
        if verdicts.contains(.improved) { return 4 }
        return 0
    }

    package func count(_ verdict: Verdict) -> Int {
        verdict == .failed ? failed.count : rows.filter { $0.verdict == verdict }.count
    }

    /// Every group that failed on either side, in order of group.
    static func failedGroups(base: ResultSet, head: ResultSet) -> [Failed] {
        let baseFailures = Dictionary(base.failures.map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        let headFailures = Dictionary(head.failures.map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        let groups = Set(baseFailures.keys).union(headFailures.keys)
        guard !groups.isEmpty else { return [] }
        func present(_ side: ResultSet) -> Set<FailedGroup> {
            Set(side.series.filter { $0.value.count > 0 }.keys.map { FailedGroup(scenario: $0.scenario, mode: $0.mode, items: $0.items) })
        }
        let inBase = present(base), inHead = present(head)
        return groups.sorted().map { group in
            Failed(group: group, base: baseFailures[group], head: headFailures[group],
                   inBase: inBase.contains(group), inHead: inHead.contains(group))
        }
    }

    static func geometricMeans(_ rows: [RowComparison]) -> [GeometricMean] {
        var sums: [String: (scenario: String, metric: String, logSum: Double, count: Int)] = [:]
        for row in rows where row.ratio.isFinite && row.ratio > 0 && row.judgement != .differentPrefixes {
            let id = row.key.scenario + "\u{1F}" + row.key.metric
            var entry = sums[id] ?? (row.key.scenario, row.key.metric, 0, 0)
            entry.logSum += log(row.ratio)
            entry.count += 1
            sums[id] = entry
        }
        return sums.values
            .map { GeometricMean(scenario: $0.scenario, metric: $0.metric, ratio: exp($0.logSum / Double($0.count)), rows: $0.count) }
            .sorted { ($0.scenario, $0.metric) < ($1.scenario, $1.metric) }
    }
}

