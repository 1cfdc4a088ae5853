import Foundation
import BenchResults

/// Everything the harness knows, as `layout-bench list --json` prints it: every scenario of a
/// catalog, every workload with its operations and modes (and whether each is exact), its scenario
/// keys (from its `WorkloadKey`s) and what one sample of each operation times, and every
/// metric with the rule `compare` judges it by. The docs' tables, the CI check's list of heuristic
/// modes and the charts' titles are written from it or checked against it, so none drifts.
package struct CatalogListing: Codable, Sendable, Equatable {
    package static let schema = 1

    package struct ScenarioEntry: Codable, Sendable, Equatable {
        package var name: String
        package var file: String
        package var description: String
        package var workload: String
        /// The section kinds the layout uses, in order of first use (`list`, `flow+waterfall`).
        package var layout: String
        package var modes: [String]
        package var items: [Int]
    }

    package struct ModeEntry: Codable, Sendable, Equatable {
        package var name: String
        package var about: String
        package var reproduces: String
        package var exact: Bool
        /// The metric a heuristic reports its inexactness in; null for an exact mode.
        package var accuracyMetric: String?
        /// The bound on what the mode keeps per item that the footprint check adds up.
        package var bytesPerItem: Double

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(about, forKey: .about)
            try container.encode(reproduces, forKey: .reproduces)
            try container.encode(exact, forKey: .exact)
            try container.encode(accuracyMetric, forKey: .accuracyMetric)  // null, not left out
            try container.encode(bytesPerItem, forKey: .bytesPerItem)
        }
    }

    /// A key of the workload's `workload` object, from its `WorkloadKey`.
    package struct KeyEntry: Codable, Sendable, Equatable {
        package var name: String
        /// `integer`, `number`, `array of numbers` or `array of operation names`.
        package var type: String
        /// The value a left-out key takes: a number, or words when it depends on the scenario.
        package var `default`: String
        /// The values loading accepts, as its error messages phrase them.
        package var bounds: String
        package var about: String
    }

    /// What one sample of an operation times, and what it leaves out.
    package struct TimingEntry: Codable, Sendable, Equatable {
        package var operation: String
        package var timed: String
        package var untimed: String
    }

    package struct WorkloadEntry: Codable, Sendable, Equatable {
        package var kind: String
        package var about: String
        package var operations: [String]
        package var modes: [ModeEntry]
        package var keys: [KeyEntry]
        /// One entry per operation, in the order of `operations`.
        package var timing: [TimingEntry]
    }

    package struct MetricEntry: Codable, Sendable, Equatable {
        package var name: String
        package var unit: String
        package var better: String
        package var kind: String
        package var threshold: Double
        /// The smallest change per operation a count may claim (`Metric.placementFloor`; 0: none).
        package var floor: Double
        package var about: String
    }

    package var schema: Int
    package var scenarios: [ScenarioEntry]
    package var workloads: [WorkloadEntry]
    package var metrics: [MetricEntry]
    /// The columns of every CSV file the harness writes, by file ("samples", "summary",
    /// "profiles", "failures"; the command line adds compare's "compare" and "causes"): the one definition
    /// the Python readers take them from (scripts/results_schema.json, written by
    /// scripts/docs-tables).
    package var csv: [String: [String]]?

    /// The listing of `plans` (the scenarios, in catalog order) and of every workload and metric.
    package init(plans: [BenchmarkPlan], relativeTo directory: String? = nil) {
        schema = Self.schema
        scenarios = plans.map { plan in
            var kinds: [String] = []
            for section in plan.scenario.layout.sections where !kinds.contains(section.style.kind.name) {
                kinds.append(section.style.kind.name)
            }
            if plan.scenario.isRegisteredLayout { kinds = [plan.scenario.layoutKind] }
            var file = plan.scenario.file
            if let directory, file.hasPrefix(directory + "/") { file = String(file.dropFirst(directory.count + 1)) }
            return ScenarioEntry(
                name: plan.scenario.name, file: file, description: plan.scenario.description,
                workload: plan.scenario.workload.kind, layout: kinds.joined(separator: "+"),
                modes: plan.modeNames, items: plan.itemCounts)
        }
        workloads = WorkloadCatalog.all.map { Self.entry(for: $0) }
        csv = ["samples": CSVSchema.samplesHeader, "summary": CSVSchema.summaryHeader, "profiles": FunctionProfileRow.header,
               "failures": FailureRow.header]
        metrics = WorkloadCatalog.metrics.map { metric in
            MetricEntry(
                name: metric.name, unit: metric.unit, better: metric.direction.rawValue, kind: metric.kind.rawValue,
                threshold: metric.defaultThreshold, floor: metric.placementFloor, about: metric.about)
        }
    }

    private static func entry<W: Workload>(for workload: W.Type) -> WorkloadEntry {
        WorkloadEntry(
            kind: W.kind, about: W.about, operations: W.Operation.allCases.map(\.rawValue),
            modes: W.Mode.allCases.map { mode in
                ModeEntry(name: mode.rawValue, about: mode.about, reproduces: mode.reproduces, exact: mode.accuracyMetric == nil,
                          accuracyMetric: mode.accuracyMetric?.name, bytesPerItem: mode.bytesPerItem)
            },
            keys: W.keys.map { key in
                KeyEntry(name: key.name, type: key.type.rawValue, default: key.defaultText, bounds: key.boundText, about: key.about)
            },
            timing: W.Operation.allCases.map { TimingEntry(operation: $0.rawValue, timed: $0.timed, untimed: $0.untimed) })
    }

    /// The listing as pretty-printed JSON with sorted keys: the same catalog gives the same bytes.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
