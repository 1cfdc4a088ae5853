import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// A mode of the generic workloads: a strategy of a registered layout kind (`LayoutCatalog`).
/// Its words and footprint are the registration's; every strategy is exact (verified by
/// `LayoutContract`, and against the reference geometry when its kind declares `sameGeometryAs`).
package struct LayoutStrategyMode: WorkloadMode {
    package let rawValue: String

    package init?(rawValue: String) {
        guard LayoutCatalog.strategy(named: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Every strategy of every registered kind, in registration order.
    package static var allCases: [LayoutStrategyMode] {
        LayoutCatalog.all.flatMap { kind in kind.strategies.compactMap { LayoutStrategyMode(rawValue: $0.name) } }
    }

    private var registration: LayoutStrategy? { LayoutCatalog.strategy(named: rawValue)?.strategy }
    /// The kind that registers this strategy.
    package var kind: LayoutKind? { LayoutCatalog.strategy(named: rawValue)?.kind }

    package var about: String {
        let kind = kind.map { "layout kind \($0.name): " } ?? ""
        return kind + (registration?.about ?? "")
    }
    package var reproduces: String { registration?.reproduces ?? "" }
    /// Every registered layout is held to the exact contract.
    package var accuracyMetric: Metric? { nil }
    /// As declared by the registration, not measured.
    package var bytesPerItem: Double { registration?.bytesPerItem ?? 256 }
}
