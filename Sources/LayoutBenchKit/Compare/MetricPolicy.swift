/// How `compare` judges one metric: which direction is better, whether it is measured with noise
/// (decided by a test and a confidence interval) or counted exactly (decided by the medians), and the
/// relative change that counts as a regression or an improvement.
public struct MetricPolicy: Sendable, Equatable {
    public enum Direction: Sendable, Equatable {
        case lowerIsBetter
        case higherIsBetter
        /// Neither direction is better (`elements`: what a query returned). Such rows are not judged;
        /// a difference is reported as a warning, because it means the two runs measured different work.
        case neither
    }

    public enum Kind: Sendable, Equatable {
        /// Noisy measurements (time, peak_rss): Mann–Whitney U and a bootstrap interval of the ratio.
        case statistical
        /// Counts that repeat exactly (allocations, bytes, instructions, recall): the medians decide.
        case exact
    }

    public var direction: Direction
    public var kind: Kind
    /// Relative change beyond which a row is regressed or improved (0.05 = 5%).
    public var threshold: Double

    public init(direction: Direction, kind: Kind, threshold: Double) {
        self.direction = direction
        self.kind = kind
        self.threshold = threshold
    }

    /// The tolerance of the exact metrics: 0.1%, so that a different build path or one stray
    /// allocation in a thousand never fails a comparison, and one real extra allocation per
    /// operation always does.
    public static let exactTolerance = 0.001

    /// The tolerance of instruction counts: 0.5%. Two builds of unchanged code can differ by a few
    /// dozen instructions per operation (code placement, inlining decisions): 0.13% was seen between
    /// two commits on an untouched mode.
    public static let instructionTolerance = 0.005
    /// The tolerance of `alloc_bytes`: 5%. They are read around timed samples and divided by the
    /// sample's batch, which each run calibrates anew, so an operation whose storage grows now and
    /// then (amortised) shows a few percent more or less per operation from run to run: 46.4 against
    /// 47.1 bytes, 1.5%, between two runs of the same binary. `allocs`, counted over whole untimed
    /// passes, stay exact within 0.1% and catch one extra allocation per operation.
    public static let allocatedBytesTolerance = 0.05

    /// The defaults: time 5% (package-benchmark's and asv's default); peak_rss 10% (one value per
    /// process, moved by the kernel's page accounting); instructions within 0.5%; alloc_bytes within 5%;
    /// the other counted metrics exact within 0.1%;
    /// recall higher-is-better; elements not judged. An unknown metric is treated like time.
    public static func standard(for metric: String) -> MetricPolicy {
        switch metric {
        case Metric.time.rawValue:
            return MetricPolicy(direction: .lowerIsBetter, kind: .statistical, threshold: 0.05)
        case Metric.peakRSS.rawValue:
            return MetricPolicy(direction: .lowerIsBetter, kind: .statistical, threshold: 0.10)
        case Metric.instructions.rawValue:
            return MetricPolicy(direction: .lowerIsBetter, kind: .exact, threshold: instructionTolerance)
        case Metric.allocBytes.rawValue:
            return MetricPolicy(direction: .lowerIsBetter, kind: .exact, threshold: allocatedBytesTolerance)
        case Metric.allocs.rawValue, Metric.measurements.rawValue, Metric.cellsCreated.rawValue:
            return MetricPolicy(direction: .lowerIsBetter, kind: .exact, threshold: exactTolerance)
        case Metric.recall.rawValue:
            return MetricPolicy(direction: .higherIsBetter, kind: .exact, threshold: exactTolerance)
        case Metric.elements.rawValue:
            return MetricPolicy(direction: .neither, kind: .exact, threshold: exactTolerance)
        default:
            return MetricPolicy(direction: .lowerIsBetter, kind: .statistical, threshold: 0.05)
        }
    }
}

/// Per-metric thresholds given on the command line (`--threshold time=3%`, `--threshold 3%` for
/// time, `--threshold instructions=0`).
public struct ThresholdOverrides: Sendable, Equatable {
    public var byMetric: [String: Double] = [:]

    public init(byMetric: [String: Double] = [:]) { self.byMetric = byMetric }

    /// Parses `METRIC=PCT` or `PCT` (time). PCT is a percentage with or without `%` ("3%", "3",
    /// "0.5%"), from 0 up to 1000.
    public mutating func add(_ text: String) throws(CompareError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let metric = parts.count == 2 ? parts[0].trimmed : Metric.time.rawValue
        var percent = (parts.count == 2 ? parts[1] : parts[0]).trimmed
        if percent.hasSuffix("%") { percent.removeLast() }
        guard !metric.isEmpty, let value = Double(percent), value.isFinite, value >= 0, value <= 1000 else {
            throw CompareError(file: "", message: "--threshold: expected METRIC=PERCENT or PERCENT (e.g. time=3% or 3%), got '\(text)'")
        }
        byMetric[metric] = value / 100
    }

    public func policy(for metric: String) -> MetricPolicy {
        var policy = MetricPolicy.standard(for: metric)
        if let threshold = byMetric[metric] { policy.threshold = threshold }
        return policy
    }
}

extension String {
    var trimmed: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
