import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The workloads that run any registered layout kind.
package protocol GenericLayoutWorkload: Workload where Mode == LayoutStrategyMode {
    static var generic: GenericWorkload { get }
}

extension GenericLayoutWorkload {
    package static var kind: String { generic.rawValue }

    /// The strategies of the scenario's layout kind; beside a registered kind's, the built-in kinds
    /// of the scenario schema (`list`, `flow`, `waterfall`: `builtInSchema`), each built with its
    /// default keys on the same data, so one scenario compares a user's layout with the engine's
    /// (`"modes": ["chip-cloud", "flow"]`). A built-in kind registered with keys of its own is not
    /// among them: the other kind's factory would be handed its name.
    package static func allowedModes(for scenario: Scenario) -> [String] {
        guard let kind = LayoutCatalog.kind(named: scenario.layoutKind) else { return [] }
        let own = kind.strategies.map(\.name)
        return kind.builtInSchema ? own : own + LayoutCatalog.builtIns.filter(\.builtInSchema).map(\.name).filter { !own.contains($0) }
    }

    /// Refuses a layout kind that does not support this workload.
    package func validate(_ scenario: Scenario) throws(ScenarioError) {
        try validateKind(scenario)
    }

    /// Refuses an unknown layout kind, or one that does not support this workload.
    package func validateKind(_ scenario: Scenario) throws(ScenarioError) {
        guard let kind = LayoutCatalog.kind(named: scenario.layoutKind) else {
            throw ScenarioError(file: scenario.file, path: "layout.kind", message: "unknown layout kind \(JSONValue.quoted(scenario.layoutKind))")
        }
        guard kind.workloads.contains(Self.generic) else {
            throw scenario.workload.error(
                at: "kind",
                "layout kind \(JSONValue.quoted(kind.name)) does not support \(JSONValue.quoted(Self.kind)); it supports "
                    + kind.workloads.map { JSONValue.quoted($0.rawValue) }.joined(separator: ", ")
                    + (Self.generic.sendsBatches ? " (it does not declare that it takes batches of updates; docs/your-layout.md)" : "")
                    + (Self.generic.sendsPreferredAttributes
                        ? " (it does not declare that it applies preferred attributes; docs/your-layout.md)" : ""))
        }
    }
}
