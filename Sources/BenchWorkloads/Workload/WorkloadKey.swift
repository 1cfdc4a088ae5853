import BenchResults
import BenchScenarios

/// One key of a workload's `workload` object in a scenario file: its name, type, default, bound
/// and meaning.
///
/// A workload lists its keys in `static let keys` and its `init(spec:)` reads each one through
/// this value (`spec.int(Self.frames)`, `spec.optionalInt(Self.capacity)`, …), so the default and
/// the bound that loading enforces are the ones `layout-bench list --json` prints and
/// docs/scenario-format.md shows. `CatalogListingTests` checks that the keys a workload reads are
/// exactly the ones it lists.
package struct WorkloadKey: Sendable, Equatable {
    package enum ValueType: String, Sendable {
        case integer
        case number
        case numbers = "array of numbers"
        case integers = "array of integers"
        case operations = "array of operation names"
        /// One of `choices`.
        case name
    }

    /// The value a left-out key takes.
    package enum Default: Sendable, Equatable {
        /// A fixed integer.
        case integer(Int)
        /// Depends on the scenario or on other keys: said in words.
        case described(String)
    }

    package let name: String
    package let type: ValueType
    package let defaultValue: Default
    /// The range of the value (of each entry, for an array).
    package let bound: NumberBound
    /// For an array: the most entries it may have (at least one).
    package let maxCount: Int?
    /// What the key means, for the docs.
    package let about: String
    /// For a `.name` key: the names it may take.
    package let choices: [String]

    package init(_ name: String, _ type: ValueType, default defaultValue: Default, bound: NumberBound = .any,
                maxCount: Int? = nil, about: String) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.bound = bound
        self.maxCount = maxCount
        self.about = about
        choices = []
    }

    /// A key naming one case of `E` (a strategy or an order), `defaultValue` when left out.
    package init<E: RawRepresentable<String> & CaseIterable>(_ name: String, choosing defaultValue: E, about: String) {
        self.name = name
        type = .name
        self.defaultValue = .described(JSONValue.quoted(defaultValue.rawValue))
        bound = .any
        maxCount = nil
        self.about = about
        choices = E.allCases.map(\.rawValue)
    }

    /// The `operations` key of a workload with several operations.
    package static let operations = WorkloadKey(
        "operations", .operations, default: .described("every operation, in the listed order"),
        about: "the operations to time, each named once")

    /// The `seed` key of a workload that draws its trace at random.
    package static func seed(_ draws: String) -> WorkloadKey {
        WorkloadKey("seed", .integer, default: .integer(1), bound: .atLeast(0), about: "the seed of \(draws)")
    }

    /// The default as the docs show it: the number, or the words.
    package var defaultText: String {
        switch defaultValue {
        case .integer(let value): return String(value)
        case .described(let words): return words
        }
    }

    /// The bound as loading phrases it in its error messages.
    package var boundText: String {
        switch type {
        case .integer: return bound.expected(integer: true)
        case .number: return bound.expected(integer: false)
        case .numbers: return "1 to \(maxCount ?? 1) entries, each \(bound.expected(integer: false))"
        case .integers: return "1 to \(maxCount ?? 1) entries in ascending order, each \(bound.expected(integer: true))"
        case .operations: return "at least one of the workload's operations, each once"
        case .name: return "one of " + choices.map { JSONValue.quoted($0) }.joined(separator: ", ")
        }
    }
}

extension JSONReader {
    /// An integer key with a fixed default, within its bound.
    package func int(_ key: WorkloadKey) throws(ScenarioError) -> Int {
        guard case .integer(let value) = key.defaultValue else { preconditionFailure("\(key.name) has no fixed default") }
        return try optionalInt(key.name, default: value, key.bound)
    }

    /// A `.name` key: one case of `E`, its default when left out.
    package func choice<E: RawRepresentable<String> & CaseIterable>(_ key: WorkloadKey, default value: E) throws(ScenarioError) -> E {
        try optionalEnum(key.name, default: value)
    }

    /// An integer key whose default depends on the scenario: nil when left out.
    package func optionalInt(_ key: WorkloadKey) throws(ScenarioError) -> Int? {
        try optionalInt(key.name, key.bound)
    }

    /// A number key whose default depends on the scenario: nil when left out.
    package func optionalDouble(_ key: WorkloadKey) throws(ScenarioError) -> Double? {
        try optionalDouble(key.name, key.bound)
    }
}
