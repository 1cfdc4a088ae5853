import BenchStatistics
import BenchResults

/// The largest factor between two runs' times that the machine's load and the processes of one
/// build can explain (docs/methodology.md#compare): a timed change whose interval lies wholly
/// beyond it is called `regressed` or `improved` whatever the rules that withhold small changes
/// say (too few repetitions a side, two unpaired runs on a busy machine). A query that went from
/// 718 ns to 89.7 µs, ratio 134 [110, 164], is no spell of the machine, and leaving it `noisy`
/// lets a broken layout through a gate.
///
/// The bound is `margin` × F × max(`processFactor`, 1 + θ):
/// - F, the load factor: the busier side's load average over its cores, at least 1. A process
///   that shares C cores with L runnable tasks gets at least C / L of a core, so the load stretches
///   its times by at most L / C; the quieter side at best ran unstretched, so no ratio the load
///   makes lies beyond F either way. (Two full runs of one build at load averages 4.4 and 11.5 on
///   2 cores read `feed-heights-fd` 2–3× slower: within the 5.75 of the busier.)
/// - max(`processFactor`, 1 + θ): what the processes of one build differ by with no load to
///   blame. Processes of one build have run at half speed (a `scroll-pass` of 70 ns among
///   processes of 33), and a row whose own processes spread wider is judged at a θ widened to that
///   spread (`RowComparison`), which takes over when larger.
/// - `margin`: a load average is a one-minute average read when a run starts and ends; the load
///   between may have peaked above both readings.
package enum NoiseBound {
    /// The most the processes of one build have been seen to differ by (a process at half speed).
    package static let processFactor = 2.0
    /// The room left for a load that peaked between the readings of run.json.
    package static let margin = 2.0

    /// F of the type's documentation for two runs: the busier side's load average (the larger of
    /// its readings at start and end) over its cores, at least 1; 1 for a side without run.json.
    package static func loadFactor(base: RunMetadata?, head: RunMetadata?) -> Double {
        [base, head].reduce(1) { factor, metadata in
            guard let metadata else { return factor }
            let cores = Double(Swift.max(metadata.machine.activeCores, 1))
            let busiest = ([metadata.load.start.first] + [metadata.load.end?.first]).compactMap { $0 }.max() ?? 0
            // run.json is read, not trusted: a load that is no number explains nothing.
            return busiest.isFinite ? Swift.max(factor, busiest / cores) : factor
        }
    }

    /// The bound, a factor ≥ 1, for a row judged at `threshold` on a machine of load factor `load`.
    package static func factor(load: Double, threshold: Double) -> Double {
        margin * Swift.max(load, 1) * Swift.max(processFactor, 1 + threshold)
    }

    /// `regressed` when the whole interval lies above `bound` in the metric's worse direction,
    /// `improved` when it lies below 1 / `bound`, else nil.
    static func verdict(interval: Bootstrap.Interval, direction: MetricPolicy.Direction, bound: Double) -> Verdict? {
        guard let worse = RowComparison.worse(direction) else { return nil }
        let a = worse(interval.low), b = worse(interval.high)
        guard !a.isNaN, !b.isNaN else { return nil }
        if Swift.min(a, b) > bound { return .regressed }
        if Swift.max(a, b) < 1 / bound { return .improved }
        return nil
    }
}
