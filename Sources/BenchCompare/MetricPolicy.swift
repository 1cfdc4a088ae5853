import BenchResults

/// How `compare` judges one metric: which direction is better, whether it is measured with noise
/// (decided by a test and a confidence interval) or counted exactly (decided by the medians), and the
/// relative change that counts as a regression or an improvement.
package struct MetricPolicy: Sendable, Equatable {
    package typealias Direction = Metric.Direction
    package typealias Kind = Metric.Kind

    package var direction: Direction
    package var kind: Kind
    /// Relative change beyond which a row is regressed or improved (0.05 = 5%).
    package var threshold: Double
    /// The smallest absolute change a count may claim (`Metric.placementFloor`; 0: none).
    package var floor: Double = 0
    /// False for a metric nobody describes (neither run's run.json, nor this binary: `Metric.named`):
    /// it is judged like time, and `compare` says so.
    package var isKnown: Bool

    package init(direction: Direction, kind: Kind, threshold: Double, isKnown: Bool = true) {
        self.direction = direction
        self.kind = kind
        self.threshold = threshold
        self.isKnown = isKnown
    }

    /// The metric's own policy, from its description (`described`: the results' own, else this
    /// binary's, `Metric.named`); an unknown name is judged like time, flagged `isKnown == false`.
    package static func standard(for metric: String, described: [String: Metric] = [:]) -> MetricPolicy {
        guard let known = Metric.named(metric, in: described) else {
            return MetricPolicy(direction: .lowerIsBetter, kind: .statistical, threshold: Metric.time.defaultThreshold, isKnown: false)
        }
        var policy = MetricPolicy(direction: known.direction, kind: known.kind, threshold: known.defaultThreshold)
        policy.floor = known.placementFloor
        return policy
    }
}

/// Per-metric thresholds given on the command line (`--threshold time=3%`, `--threshold 3%` for
/// time, `--threshold instructions=0`).
package struct ThresholdOverrides: Sendable, Equatable {
    package var byMetric: [String: Double] = [:]
    /// The descriptions of the metrics being judged, as the results describe them (run.json's
    /// `metrics`: the head's, else the base's), which `ComparisonReport` sets.
    package var described: [String: Metric] = [:]

    package init(byMetric: [String: Double] = [:]) { self.byMetric = byMetric }

    /// Parses `METRIC=PCT` or `PCT` (time). PCT is a percentage with or without `%` ("3%", "3",
    /// "0.5%"), from 0 up to 1000.
    package mutating func add(_ text: String) throws(CompareError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let metric = parts.count == 2 ? parts[0].trimmed : Metric.time.name
        var percent = (parts.count == 2 ? parts[1] : parts[0]).trimmed
        if percent.hasSuffix("%") { percent.removeLast() }
        guard !metric.isEmpty, let value = Double(percent), value.isFinite, value >= 0, value <= 1000 else {
            throw CompareError(file: "", message: "--threshold: expected METRIC=PERCENT or PERCENT (e.g. time=3% or 3%), got '\(text)'")
        }
        byMetric[metric] = value / 100
    }

    package func policy(for metric: String) -> MetricPolicy {
        var policy = MetricPolicy.standard(for: metric, described: described)
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
