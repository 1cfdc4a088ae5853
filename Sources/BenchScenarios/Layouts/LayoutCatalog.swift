import Foundation
import LayoutEngine
import BenchResults

/// Every layout kind a scenario's `layout.kind` can name: the built-in `list`, `flow` and
/// `waterfall` (whose keys are `ScenarioLayout`'s schema, `sections` mixes included), and the
/// kinds an executable registers through `LayoutBenchCLI.main(layouts:)` (docs/your-layout.md).
///
/// The built-in kinds register here like any other: their factory builds a `SectionedLayout` from
/// the scenario's styles, and the generic workloads (`GenericWorkload`: `layout-prepare`,
/// `layout-query`, `layout-append`, `layout-edit`, `layout-sticky-scroll`, `layout-reuse-scroll`,
/// `layout-resize`) run them through the same path as a user's layout.
///
/// Registration happens once, before the command line is parsed (children of `run` run the same
/// `main`, so they see the same kinds); reads after that are lock-protected but uncontended.
package enum LayoutCatalog {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kinds: [LayoutKind] = builtIns

    /// The built-in kinds, in the order `ScenarioLayout.kindNames` lists them.
    package static let builtIns: [LayoutKind] = ScenarioLayout.kindNames.map { name in
        LayoutKind(
            name: name,
            about: "the built-in SectionedLayout, \(name) sections (layout keys of docs/scenario-format.md, `sections` mixes included)",
            builtInSchema: true,
            workloads: GenericWorkload.allCases,
            strategies: [LayoutStrategy(
                name: name, about: "the engine's SectionedLayout with its default (binary) rect query",
                reproduces: "LayoutEngine's SectionedLayout, as the built-in workloads build it",
                // The most any generic workload keeps: under layout-edit one layout per operation of
                // its trace (six: insert, delete, height-change, move, move-section, reload), each of
                // the data the trace left; two prepared layouts under layout-prepare.
                bytesPerItem: 416)] + (name == "list" ? offsetsStrategies : []),
            sameGeometryAs: SameGeometry(kind: name, layout: nil),
            factory: { input in
                try SectionedLayout(
                    bounds: input.bounds, styles: input.scenarioLayout.styles, data: input.data,
                    pinOffset: input.scenarioLayout.pinOffset, selfSizingAnchor: input.scenarioLayout.selfSizingAnchor,
                    offsets: offsetsMode(ofStrategy: input.strategy))
            })
    }

    /// The built-in list's strategies that keep item offsets in an offsets structure
    /// (`SectionedLayout.offsetsMode`): `list-rebuild`, `list-suffix`, `list-fenwick`, `list-btree`,
    /// one per `RowOffsetsMode`. List sections only: a flow or waterfall section cannot be kept so.
    static let offsetsStrategies: [LayoutStrategy] = RowOffsetsMode.allCases.map { mode in
        LayoutStrategy(
            name: "list-\(mode.rawValue)",
            about: "the engine's SectionedLayout with its item offsets in the \(mode.rawValue) offsets structure: "
                + "a preferred size is one height update in it, and queries read it (list sections only)",
            reproduces: "a UIKit-style estimated-offset list (the offsets workload's \(mode.rawValue) structure) behind SectionedLayout",
            // What the generic workloads that run a list keep with the structure's rows beside the
            // frames (ModeFootprintTests); the btree's nodes keep the most.
            bytesPerItem: mode == .btree ? 480 : 300)
    }

    /// The offsets structure a built-in strategy names (`list-fenwick`), nil for the plain kinds.
    static func offsetsMode(ofStrategy strategy: String) -> RowOffsetsMode? {
        guard strategy.hasPrefix("list-") else { return nil }
        return RowOffsetsMode(rawValue: String(strategy.dropFirst("list-".count)))
    }

    /// Every registered kind: the built-in ones first, then the registered ones in order.
    package static var all: [LayoutKind] {
        lock.lock()
        defer { lock.unlock() }
        return kinds
    }

    /// The names `layout.kind` accepts.
    package static var names: [String] { all.map(\.name) }

    package static func kind(named name: String) -> LayoutKind? {
        all.first { $0.name == name }
    }

    /// The kind that registers the strategy `name`, and the strategy.
    package static func strategy(named name: String) -> (kind: LayoutKind, strategy: LayoutStrategy)? {
        for kind in all {
            if let strategy = kind.strategies.first(where: { $0.name == name }) { return (kind, strategy) }
        }
        return nil
    }

    /// Adds `newKinds` after checking each (names unique among kinds and among strategies, keys
    /// well formed, `sameGeometryAs` a built-in kind). Nothing is added when one is wrong.
    package static func register(_ newKinds: [LayoutKind]) throws(LayoutRegistrationError) {
        lock.lock()
        defer { lock.unlock() }
        var all = kinds
        for kind in newKinds {
            try kind.check(against: all)
            all.append(kind)
        }
        kinds = all
    }

    /// Registers `kind` unless a kind of that name is already registered (tests that share the
    /// process-wide catalog).
    static func registerIfAbsent(_ kind: LayoutKind) throws(LayoutRegistrationError) {
        if self.kind(named: kind.name) != nil { return }
        try register([kind])
    }
}

/// A registration `LayoutCatalog.register` refuses.
package struct LayoutRegistrationError: Error, CustomStringConvertible {
    package var kind: String
    package var message: String
    package var description: String { "layout kind \(JSONValue.quoted(kind)): \(message)" }
}

/// The generic workloads, which run any registered layout kind (`LayoutKind.workloads` says which
/// a kind supports; a scenario asking for another is refused at load).
public enum GenericWorkload: String, CaseIterable, Sendable, Hashable {
    /// `layout-prepare`: a fresh layout's `prepare()` (factory outside the timing) and a relayout
    /// (`invalidate(with: .everything)` then `prepare()` on the same object).
    case prepare = "layout-prepare"
    /// `layout-query`: the scroll trace through `elements(in:into:)`.
    case query = "layout-query"
    /// `layout-append`: `append`'s pages, each as a batch (`prepare(forCollectionViewUpdates:)`) then `prepare()`.
    case append = "layout-append"
    /// `layout-edit`: `edit`'s inserts, deletes and height changes, each as a batch then `prepare()`.
    case edit = "layout-edit"
    /// `layout-sticky-scroll`: `sticky-scroll`'s trace, each step a bounds change as UIKit drives
    /// it (`shouldInvalidate(forBoundsChange:)`, `invalidationContext(forBoundsChange:)`,
    /// `invalidate(with:)`, `prepare()`) and the viewport's `elements(in:into:)`.
    case stickyScroll = "layout-sticky-scroll"
    /// `layout-reuse-scroll`: `reuse-scroll`'s trace, each step a bounds change, the viewport's
    /// query, and a cell dequeued or enqueued by reuse identifier for each element that entered or left.
    case reuseScroll = "layout-reuse-scroll"
    /// `layout-resize`: a trace of viewport widths (rotations, iPad split-view widths), each step a
    /// bounds change of a new width as UIKit drives it, then the new viewport's `elements(in:into:)`.
    case resize = "layout-resize"

    /// `layout-self-sizing`: items start at estimated sizes and each reports its true size through
    /// preferred attributes when it first enters the viewport, along a scroll trace, as UIKit's
    /// self-sizing cells do.
    case selfSizing = "layout-self-sizing"

    /// Whether the workload sends the layout batches of updates (`prepare(forCollectionViewUpdates:)`),
    /// which a kind must apply to its own data.
    package var sendsBatches: Bool { self == .append || self == .edit }

    /// Whether the workload sends preferred attributes
    /// (`shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)`), whose
    /// sizes a kind must apply to its own data.
    package var sendsPreferredAttributes: Bool { self == .selfSizing }

    /// What a kind supports when it says nothing: every workload that sends it nothing to apply
    /// to its data (no batch, no preferred attributes).
    @usableFromInline package static let withoutBatches: [GenericWorkload] = allCases.filter { !$0.sendsBatches && !$0.sendsPreferredAttributes }
}

/// One strategy of a layout kind: a mode of the generic workloads, named in scenario files and
/// the CSV by `name`.
public struct LayoutStrategy: Sendable, Hashable {
    public var name: String
    /// One sentence: what the strategy does.
    package var about: String
    /// The library and technique it reproduces.
    package var reproduces: String
    /// The bytes per item the strategy keeps once prepared, as declared by its author (the
    /// footprint check adds it up; the harness does not measure it).
    package var bytesPerItem: Double

    public init(name: String, about: String, reproduces: String = "", bytesPerItem: Double = 256) {
        self.name = name
        self.about = about
        self.reproduces = reproduces
        self.bytesPerItem = bytesPerItem
    }
}

/// "Same geometry as the built-in `kind` with these layout keys": a layout that declares it is
/// also checked, frame by frame, against `LayoutReference`'s geometry of that built-in layout.
public struct SameGeometry: Sendable {
    /// `list`, `flow` or `waterfall`.
    package var kind: String
    /// The built-in layout's keys (as in a scenario's `layout` object, nested objects by dotted
    /// names: `"insets.left"`), from the layout's input; nil for the built-in kinds themselves.
    package var layout: (@Sendable (LayoutInput) throws -> [String: LayoutKeyValue])?

    package init(kind: String, layout: (@Sendable (LayoutInput) throws -> [String: LayoutKeyValue])?) {
        self.kind = kind
        self.layout = layout
    }

    /// Same geometry as the built-in `kind` laid out with the keys `layout` returns.
    public static func builtIn(
        _ kind: String, layout: @escaping @Sendable (LayoutInput) throws -> [String: LayoutKeyValue]
    ) -> SameGeometry {
        SameGeometry(kind: kind, layout: layout)
    }
}

/// A key a layout kind reads from the scenario's `layout` object, with its default and bounds;
/// checked when the scenario loads.
public struct LayoutKey: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// Any finite number within the closed range.
        case number(default: Double, range: ClosedRange<Double>)
        /// An integer within the closed range.
        case integer(default: Int, range: ClosedRange<Int>)
        case bool(default: Bool)
        /// One of `allowed`.
        case string(default: String, allowed: [String])
    }

    package var name: String
    package var kind: Kind
    package var about: String

    package init(name: String, kind: Kind, about: String = "") {
        self.name = name
        self.kind = kind
        self.about = about
    }

    public static func number(_ name: String, default value: Double, in range: ClosedRange<Double>, about: String = "") -> LayoutKey {
        LayoutKey(name: name, kind: .number(default: value, range: range), about: about)
    }

    public static func integer(_ name: String, default value: Int, in range: ClosedRange<Int>, about: String = "") -> LayoutKey {
        LayoutKey(name: name, kind: .integer(default: value, range: range), about: about)
    }

    public static func bool(_ name: String, default value: Bool, about: String = "") -> LayoutKey {
        LayoutKey(name: name, kind: .bool(default: value), about: about)
    }

    public static func string(_ name: String, default value: String, oneOf allowed: [String], about: String = "") -> LayoutKey {
        LayoutKey(name: name, kind: .string(default: value, allowed: allowed), about: about)
    }

    var defaultValue: LayoutKeyValue {
        switch kind {
        case .number(let value, _): return .number(value)
        case .integer(let value, _): return .integer(value)
        case .bool(let value): return .bool(value)
        case .string(let value, _): return .string(value)
        }
    }

    /// Reads the key's value from `node` (type and bounds checked; errors name the path).
    func read(_ node: JSONNode) throws(ScenarioError) -> LayoutKeyValue {
        switch kind {
        case .number(_, let range): return .number(try node.double(.between(range.lowerBound, range.upperBound)))
        case .integer(_, let range): return .integer(try node.int(.between(Double(range.lowerBound), Double(range.upperBound))))
        case .bool: return .bool(try node.bool())
        case .string(_, let allowed): return .string(try node.oneOf(allowed))
        }
    }

    /// Why the declaration cannot be used, or nil.
    var problem: String? {
        if name.isEmpty || name == "kind" { return "a key cannot be named \(JSONValue.quoted(name))" }
        switch kind {
        case .number(let value, let range):
            if !range.lowerBound.isFinite || !range.upperBound.isFinite { return "key \(name): the bounds must be finite" }
            if !range.contains(value) { return "key \(name): the default \(value) is outside \(range)" }
        case .integer(let value, let range):
            if !range.contains(value) { return "key \(name): the default \(value) is outside \(range)" }
        case .bool: break
        case .string(let value, let allowed):
            if !allowed.contains(value) { return "key \(name): the default \(JSONValue.quoted(value)) is not among its values" }
        }
        return nil
    }
}

/// A value of a layout key, as the scenario (and the child process's request) carries it.
public enum LayoutKeyValue: Codable, Hashable, Sendable {
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case string(String)

    package var json: JSONValue {
        switch self {
        case .number(let value):
            let integer = value.rounded() == value && abs(value) < 1e15 ? Int(value) : nil
            return .number(JSONNumber(value: value, integer: integer, isIntegerLiteral: false, literal: "\(value)"))
        case .integer(let value):
            return .number(JSONNumber(value: Double(value), integer: value, isIntegerLiteral: true, literal: String(value)))
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(value)
        }
    }
}

/// The layout a scenario selects: its kind's name and, for a registered kind, the value of every
/// key it reads (defaults filled in). Part of `Scenario`, so the child process gets it.
package struct LayoutSelection: Codable, Hashable, Sendable {
    package var kind: String
    package var values: [String: LayoutKeyValue]

    package init(kind: String, values: [String: LayoutKeyValue] = [:]) {
        self.kind = kind
        self.values = values
    }
}

/// What a layout kind's factory gets: the viewport, the data, the strategy (mode) to build and the
/// values of its keys.
public struct LayoutInput: Sendable {
    /// The viewport at offset zero; its width is the content width.
    public var bounds: Rect
    /// The items, section by section.
    public var data: LayoutData
    /// The strategy to build: one of the kind's `strategies` (its name when it registers none).
    public var strategy: String
    /// The kind's name.
    package var kind: String
    /// Every key of the kind, with the scenario's value or its default.
    package var values: [String: LayoutKeyValue]
    /// The built-in kinds' styles (for a registered kind, one default list style).
    var scenarioLayout: ScenarioLayout

    package init(bounds: Rect, data: LayoutData, strategy: String, selection: LayoutSelection, scenarioLayout: ScenarioLayout) {
        self.bounds = bounds
        self.data = data
        self.strategy = strategy
        self.kind = selection.kind
        self.values = selection.values
        self.scenarioLayout = scenarioLayout
    }

    /// The items as sections of sizes.
    public var sections: [[ItemSize]] {
        (0..<data.sectionCount).map { s in (0..<data.itemCount(inSection: s)).map { data.size(section: s, item: $0) } }
    }

    public func number(_ key: String) throws(LayoutInputError) -> Double {
        switch values[key] {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: throw LayoutInputError(kind: kind, key: key, expected: "a number")
        }
    }

    public func integer(_ key: String) throws(LayoutInputError) -> Int {
        guard case .integer(let value) = values[key] else { throw LayoutInputError(kind: kind, key: key, expected: "an integer") }
        return value
    }

    public func bool(_ key: String) throws(LayoutInputError) -> Bool {
        guard case .bool(let value) = values[key] else { throw LayoutInputError(kind: kind, key: key, expected: "a bool") }
        return value
    }

    public func string(_ key: String) throws(LayoutInputError) -> String {
        guard case .string(let value) = values[key] else { throw LayoutInputError(kind: kind, key: key, expected: "a string") }
        return value
    }
}

/// A factory asked for a key its kind does not declare, or with another type.
public struct LayoutInputError: Error, CustomStringConvertible {
    package var kind: String
    package var key: String
    package var expected: String
    public var description: String { "layout kind \(kind) reads key '\(key)' as \(expected), but declares no such key of that type" }
}

/// A layout kind: its name in `layout.kind`, its keys, the generic workloads it supports, its
/// strategies (the modes of those workloads) and the factory that builds it.
public struct LayoutKind: Sendable {
    package var name: String
    package var about: String
    package var keys: [LayoutKey]
    /// The generic workloads the kind can run (a scenario asking for another is refused at load).
    /// By default those that send no batch: a kind lists `.append` and `.edit` only when its
    /// `prepare(forCollectionViewUpdates:)` applies the batch to its data.
    package var workloads: [GenericWorkload]
    /// The modes; a kind that registers none has one, named after the kind.
    package var strategies: [LayoutStrategy]
    package var sameGeometryAs: SameGeometry?
    package var factory: @Sendable (LayoutInput) throws -> any CollectionLayout
    /// The built-in kinds read `ScenarioLayout`'s schema rather than `keys`.
    package var builtInSchema: Bool

    public init(
        name: String, about: String, keys: [LayoutKey] = [], workloads: [GenericWorkload] = GenericWorkload.withoutBatches,
        strategies: [LayoutStrategy] = [], bytesPerItem: Double = 256, sameGeometryAs: SameGeometry? = nil,
        factory: @escaping @Sendable (LayoutInput) throws -> any CollectionLayout
    ) {
        self.init(
            name: name, about: about, builtInSchema: false, keys: keys, workloads: workloads,
            strategies: strategies.isEmpty
                ? [LayoutStrategy(name: name, about: about, reproduces: "registered layout kind \(name)", bytesPerItem: bytesPerItem)]
                : strategies,
            sameGeometryAs: sameGeometryAs, factory: factory)
    }

    package init(
        name: String, about: String, builtInSchema: Bool, keys: [LayoutKey] = [], workloads: [GenericWorkload],
        strategies: [LayoutStrategy], sameGeometryAs: SameGeometry?,
        factory: @escaping @Sendable (LayoutInput) throws -> any CollectionLayout
    ) {
        self.name = name
        self.about = about
        self.builtInSchema = builtInSchema
        self.keys = keys
        self.workloads = workloads
        self.strategies = strategies
        self.sameGeometryAs = sameGeometryAs
        self.factory = factory
    }

    /// Refuses a registration that scenarios could not use.
    func check(against registered: [LayoutKind]) throws(LayoutRegistrationError) {
        func fail(_ message: String) -> LayoutRegistrationError { LayoutRegistrationError(kind: name, message: message) }
        if name.isEmpty { throw fail("the name is empty") }
        if registered.contains(where: { $0.name == name }) { throw fail("a layout kind of this name is already registered") }
        if workloads.isEmpty { throw fail("supports no workload; list at least one of " + GenericWorkload.allCases.map(\.rawValue).joined(separator: ", ")) }
        var seenKeys = Set<String>()
        for key in keys {
            if let problem = key.problem { throw fail(problem) }
            if !seenKeys.insert(key.name).inserted { throw fail("key \(key.name) is declared twice") }
        }
        var seenStrategies = Set<String>()
        for strategy in strategies {
            if strategy.name.isEmpty { throw fail("a strategy has an empty name") }
            if !seenStrategies.insert(strategy.name).inserted { throw fail("strategy \(strategy.name) is declared twice") }
            if let other = registered.first(where: { $0.strategies.contains { $0.name == strategy.name } }) {
                throw fail("strategy \(strategy.name) is already a mode of layout kind \(other.name)")
            }
            if !(strategy.bytesPerItem >= 0) { throw fail("strategy \(strategy.name): bytesPerItem must be >= 0") }
        }
        if let same = sameGeometryAs, !ScenarioLayout.kindNames.contains(same.kind) {
            throw fail("sameGeometryAs names \(JSONValue.quoted(same.kind)), not a built-in kind (" + ScenarioLayout.kindNames.joined(separator: ", ") + ")")
        }
    }

    /// Reads the kind's keys from the scenario's `layout` object (`kind` already read): unknown
    /// keys, wrong types and values out of bounds are errors naming `layout.<key>`.
    func readValues(_ reader: JSONReader) throws(ScenarioError) -> [String: LayoutKeyValue] {
        var values: [String: LayoutKeyValue] = [:]
        for key in keys {
            values[key.name] = try reader.optional(key.name).map { (node) throws(ScenarioError) in try key.read(node) } ?? key.defaultValue
        }
        try reader.finish()
        return values
    }
}
