import BenchPlatform

/// What a metric is, and everything a reader needs to judge it: its name in the CSV, its unit,
/// which direction is better, whether it is measured with noise or counted exactly, and the change
/// that counts as a regression.
///
/// BenchResults holds the description, not the list: the few metrics every workload has (time,
/// allocations, callgrind's counts, peak memory) are declared once in `HarnessMetrics.swift`, and
/// each workload declares its own beside it, in its folder (`<Workload>Metrics.swift`), as a
/// static constant that its `Workload.metrics` lists. A run writes the description of every metric
/// it can write into run.json (`metrics`), and every reader downstream — summary.csv, `compare`,
/// `export`, the docs tables — takes it from there or from the declaration, never from a list of
/// names: a metric carries its polarity.
package struct Metric: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which direction of change is an improvement.
    package enum Direction: String, Sendable, Equatable, Hashable, Codable {
        case lowerIsBetter = "lower"
        case higherIsBetter = "higher"
        /// Neither: the metric describes the work itself (what a query returned, what a trace
        /// shows). A difference is reported as "the runs measured different work", not judged.
        case neither
    }

    /// How a difference between two runs is decided.
    package enum Kind: String, Sendable, Equatable, Hashable, Codable {
        /// Noisy measurements (timed): Mann–Whitney U and a bootstrap interval of the ratio of medians.
        case statistical
        /// Counts that repeat exactly for the same code and input: their totals over the steps both
        /// sides counted decide (`ExactTotals`).
        case exact
        /// A value that depends on the process that measured it, not only on the code: `peak_rss`
        /// (one value per process, moved by the kernel's page accounting) and `alloc_bytes` (read
        /// around timed samples, whose batches and coverage of the trace follow each process's
        /// timing). Judged on the repetitions like time (a change only from
        /// `RowComparison.Options.repetitionsForChange` repetitions a side, at a threshold widened to the
        /// processes' spread); exactly when every sample on both sides is one value; with one process
        /// on a side never `regressed` or `improved`, as one process says nothing of the next.
        case perProcess = "per-process"
    }

    /// Which operations of a trace one value covers, when a run times only a prefix of the trace
    /// (`OperationCoverage`): what `compare` needs to tell whether two runs' values describe the
    /// same operations (`TracePrefixes`).
    package enum Counting: String, Sendable, Equatable, Hashable, Codable {
        /// Read around the timed samples, or observed by the workload over its trace: not a count
        /// over the covered prefix (time, `alloc_bytes`, a workload's own observations).
        case samples
        /// Counted in untimed passes over the covered prefix (`allocs`).
        case prefix
        /// Counted by the callgrind child, over at most `OperationCoverage.callgrindLimit`
        /// operations of the covered prefix (callgrind's counts, and a workload's split of them).
        case callgrind
    }

    /// The CSV's `metric` column.
    package var name: String
    /// The CSV's `unit` column.
    package var unit: String
    /// Which direction is better. Costs are lower-is-better; what describes the work (elements
    /// returned, the trace's own counts) is neither.
    package var direction: Direction
    /// How a difference is decided: timed metrics statistically, counts exactly.
    package var kind: Kind
    /// The relative change beyond which a row is regressed or improved (0.05 = 5%).
    package var defaultThreshold: Double
    /// The smallest change per operation, in the metric's unit, that a count may claim, whatever
    /// its relative size (0: none; callgrind's cache simulation, `HarnessMetrics.swift`).
    package var placementFloor: Double
    /// The smallest value the metric can take (0 for every cost and count; `-infinity` for a signed
    /// one). A results file holding a value outside `possibleValues` is refused, at its line, by
    /// `compare` and `export` (docs/csv.md).
    package var lowest: Double
    /// The largest value the metric can take (1 for a fraction).
    package var highest: Double
    /// What one value means, for `layout-bench list` and the docs.
    package var about: String
    /// Which operations of a trace one value covers (`counted` in run.json; a description written
    /// before it was recorded takes this binary's declaration of the metric's name, else `samples`).
    package var counted: Counting

    /// `threshold`: the relative change that counts (0.001 for an exact count: one stray event in
    /// a thousand never fails a comparison, and a change from 0 to anything always does; 0.05 for
    /// time). `lowest`/`highest`: the values it can take (a cost or count: 0 and up).
    package init(_ name: String, unit: String, _ direction: Direction, _ kind: Kind, threshold: Double? = nil,
                floor: Double = 0, lowest: Double = 0, highest: Double = .greatestFiniteMagnitude, counted: Counting = .samples,
                about: String) {
        self.name = name
        self.unit = unit
        self.direction = direction
        self.kind = kind
        self.defaultThreshold = threshold ?? (kind == .exact ? 0.001 : 0.05)
        self.placementFloor = floor
        self.lowest = lowest
        self.highest = highest
        self.counted = counted
        self.about = about
    }

    private enum CodingKeys: String, CodingKey {
        case name, unit, direction, kind, defaultThreshold, placementFloor, lowest, highest, about, counted
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        unit = try container.decode(String.self, forKey: .unit)
        direction = try container.decode(Direction.self, forKey: .direction)
        kind = try container.decode(Kind.self, forKey: .kind)
        defaultThreshold = try container.decode(Double.self, forKey: .defaultThreshold)
        placementFloor = try container.decode(Double.self, forKey: .placementFloor)
        lowest = try container.decode(Double.self, forKey: .lowest)
        highest = try container.decode(Double.self, forKey: .highest)
        about = try container.decode(String.self, forKey: .about)
        counted = try container.decodeIfPresent(Counting.self, forKey: .counted) ?? Self.named(name)?.counted ?? .samples
    }

    /// The values the metric can take.
    package var possibleValues: ClosedRange<Double> { lowest...highest }

    /// A signed metric's `lowest`: any finite value.
    package static let anyValue = -Double.greatestFiniteMagnitude

    package var description: String { name }

    /// `name`, under the word code written against the enum this type replaced reads it by (the
    /// drivers' `Metric.time.rawValue`).
    package var rawValue: String { name }

    /// True when `other` is judged the same way (unit, direction, kind, threshold, floor, values):
    /// its words may differ.
    package func judgedAlike(_ other: Metric) -> Bool {
        var same = other
        same.about = about
        return same == self
    }

    /// The rule in words, for a warning: "lower, exact, 0.1%".
    package var rule: String {
        "\(unit), \(direction.rawValue), \(kind.rawValue), \(CSVWriter.format(defaultThreshold * 100))%"
    }

    /// The description of `name`: the one `described` holds (a results file's own, run.json's
    /// `metrics`), else the harness-wide metric of that name, else the one this binary's
    /// workloads declare (`installed`); nil for a metric nobody describes.
    package static func named(_ name: String, in described: [String: Metric] = [:]) -> Metric? {
        described[name] ?? harnessWideByName[name] ?? installed[name]
    }

    /// Descriptions keyed by name (the first of each name).
    package static func byName(_ metrics: [Metric]) -> [String: Metric] {
        Dictionary(metrics.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static let harnessWideByName = byName(harnessWide)

    /// The metrics this binary's workloads declare, installed once at start
    /// (`WorkloadCatalog.installMetrics()`, which `LayoutBenchCLI.main` calls): what a results
    /// file written before run.json carried `metrics` is read and judged by.
    package static var installed: [String: Metric] { installedMetrics.withLock { $0 } }

    package static func install(_ metrics: [Metric]) {
        let named = byName(metrics)
        installedMetrics.withLock { $0.merge(named) { current, _ in current } }
    }

    private static let installedMetrics = Locked<[String: Metric]>([:])
}
