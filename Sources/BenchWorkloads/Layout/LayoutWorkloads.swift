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

/// The workloads that run any registered layout kind.
package protocol GenericLayoutWorkload: Workload where Mode == LayoutStrategyMode {
    static var generic: GenericWorkload { get }
}

extension GenericLayoutWorkload {
    package static var kind: String { generic.rawValue }

    /// The strategies of the scenario's layout kind; beside a registered kind's, the built-in kinds
    /// (`list`, `flow`, `waterfall`), each built with its default keys on the same data, so one
    /// scenario compares a user's layout with the engine's (`"modes": ["chip-cloud", "flow"]`).
    package static func allowedModes(for scenario: Scenario) -> [String] {
        guard let kind = LayoutCatalog.kind(named: scenario.layoutKind) else { return [] }
        let own = kind.strategies.map(\.name)
        return kind.builtInSchema ? own : own + LayoutCatalog.builtIns.map(\.name).filter { !own.contains($0) }
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

/// `layout-prepare`: per strategy, `prepare` (a fresh layout from the kind's factory, created
/// outside the timing, then its first `prepare()`) and `relayout` (`invalidate(with: .everything)`
/// and `prepare()` again on the same object).
package struct LayoutPrepareWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// A fresh layout's first `prepare()`.
        case prepare
        /// `invalidate(with: .everything)` and `prepare()` on a prepared layout.
        case relayout

        package var timed: String {
            switch self {
            case .prepare: return "one `prepare()` of a fresh layout from the kind's factory"
            case .relayout: return "one `prepare()` of a layout invalidated with `.everything`"
            }
        }
        package var untimed: String {
            switch self {
            case .prepare: return "creating the layout from the kind's factory, freeing the previous one"
            case .relayout: return "`invalidate(with: .everything)`; the fresh layout's first prepare"
            }
        }
    }

    package static let generic = GenericWorkload.prepare
    package static let about = "any registered layout kind: a fresh layout's prepare, and invalidate-everything plus prepare (relayout)"
    package static let keys: [WorkloadKey] = []

    package init(spec: JSONReader) throws(ScenarioError) {
        try spec.finish()
    }

    package var operations: [Operation] { [.prepare, .relayout] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: LayoutBuild.checkFrames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutPrepareFixture {
        try LayoutPrepareFixture(build: LayoutBuild(scenario: scenario, items: items))
    }
}

package final class LayoutPrepareFixture: WorkloadFixture {
    package typealias Operation = LayoutPrepareWorkload.Operation
    let build: LayoutBuild

    init(build: LayoutBuild) { self.build = build }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        if verify {
            var layout = try build.make(mode)
            try build.prepare(&layout, mode: mode, step: "prepare")
            let fresh = try build.verify(layout, mode: mode, rects: build.checkRects(contentHeight: layout.contentSize.height), after: "prepare")
            layout.invalidate(with: .everything)
            try build.prepare(&layout, mode: mode, step: "relayout")
            let relaid = try build.verify(layout, mode: mode, rects: build.checkRects(contentHeight: layout.contentSize.height), after: "relayout")
            if let violation = LayoutContract.firstDifference(
                of: relaid, from: fresh.map { ReferenceElement(id: $0.id, frame: $0.frame) }, check: "relayout-equals-fresh", step: "relayout") {
                throw build.failure(mode, violation)
            }
        }
        let make = { [build] () throws -> any CollectionLayout in try build.make(mode) }
        return ModeMeasurement(operations: [
            TimedOperation(.prepare, .consuming(LayoutPrepareOperation(make: make, relayout: false))),
            TimedOperation(.relayout, .consuming(LayoutPrepareOperation(make: make, relayout: true))),
        ])
    }

    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        return build.snapshot(of: layout)
    }
}

/// `layout-query`: per strategy, the scroll trace (`ScrollTrace`, as `query` replays it) through
/// the prepared layout's `elements(in:into:)`, one viewport rect per operation, with no bounds
/// change between frames.
package struct LayoutQueryWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One viewport-sized `elements(in:into:)`.
        case query

        package var timed: String {
            "one viewport rect of `query`'s scroll trace through `elements(in:into:)`, in order, wrapping at its end, "
                + "with no bounds change; a sample is a batch of consecutive frames, divided"
        }
        package var untimed: String { "the layout's first prepare, the answer buffer's first growth (warm-up)" }
    }

    package static let generic = GenericWorkload.query
    package static let about = "any registered layout kind: viewport rect queries along the scroll trace of `query`, through elements(in:into:)"
    package static let keys = [QueryWorkload.framesKey]

    /// Frames in the scroll trace.
    package var frames: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(QueryWorkload.framesKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.query] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: frames + LayoutBuild.checkFrames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutQueryFixture {
        try LayoutQueryFixture(build: LayoutBuild(scenario: scenario, items: items), frames: frames)
    }
}

package final class LayoutQueryFixture: WorkloadFixture {
    package typealias Operation = LayoutQueryWorkload.Operation
    let build: LayoutBuild
    let frames: Int

    init(build: LayoutBuild, frames: Int) {
        self.build = build
        self.frames = frames
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        let viewport = build.scenario.viewport
        let trace = ScrollTrace(contentHeight: layout.contentSize.height, viewportHeight: viewport.height, frames: frames)
        let rects = trace.rects(viewport: viewport)
        var elements: [Double] = []
        if verify {
            let checked = ReferenceGeometry.checkedQueryFrames(count: rects.count, items: build.items).map { ("trace frame \($0)", rects[$0]) }
            _ = try build.verify(layout, mode: mode, rects: checked + build.checkRects(contentHeight: layout.contentSize.height), after: "prepare")
            var buffer: [LayoutAttributes] = []
            for rect in rects {
                layout.elements(in: rect, into: &buffer)
                elements.append(Double(buffer.count))
            }
        }
        return ModeMeasurement(
            operations: [TimedOperation(.query, .batchable(makeQueryOperation(layout, rects: rects)))],
            observations: verify ? [Observation(.query, .elements, elements)] : [])
    }

    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        return build.snapshot(of: layout)
    }
}

/// What the generic workloads share at one item count: the data, the kind, building a strategy
/// and verifying it.
final class LayoutBuild {
    let scenario: Scenario
    let items: Int
    let data: LayoutData
    let kind: LayoutKind
    let selection: LayoutSelection

    /// Random rects each verification adds to the trace's (`checkRects`), beside the special ones.
    static let randomRects = 48
    /// All the rects `checkRects` returns.
    static let checkFrames = randomRects + 8

    init(scenario: Scenario, items: Int) throws {
        self.scenario = scenario
        self.items = items
        data = try scenario.makeData(items: items)
        selection = scenario.layoutSelection ?? LayoutSelection(kind: scenario.layoutKind)
        guard let kind = LayoutCatalog.kind(named: selection.kind) else {
            throw ScenarioError(file: scenario.file, path: "layout.kind", message: "unknown layout kind \(JSONValue.quoted(selection.kind))")
        }
        self.kind = kind
    }

    /// The kind that builds `mode`: the scenario's, or the built-in kind a registered kind's
    /// scenario names beside its own strategies (`allowedModes(for:)`).
    func kind(of mode: LayoutStrategyMode) -> LayoutKind {
        guard !kind.builtInSchema, let builtIn = mode.kind, builtIn.builtInSchema else { return kind }
        return builtIn
    }

    /// The built-in layout a mode of another kind's scenario builds: one section of its kind with
    /// the default keys of docs/scenario-format.md; nil for the scenario's own strategies.
    func builtInLayout(of mode: LayoutStrategyMode, contentWidth: Double? = nil) throws -> ScenarioLayout? {
        let kind = kind(of: mode)
        guard kind.name != self.kind.name else { return nil }
        let node = JSONNode(.object([JSONMember(key: "kind", value: .string(kind.name))]), file: scenario.file, path: "layout")
        return try ScenarioLayout.parse(node, contentWidth: contentWidth ?? scenario.viewport.width)
    }

    func input(_ mode: LayoutStrategyMode, data: LayoutData? = nil, bounds: Rect? = nil) throws -> LayoutInput {
        let bounds = bounds ?? scenario.viewport
        let builtIn = try builtInLayout(of: mode, contentWidth: bounds.width)
        return LayoutInput(
            bounds: bounds, data: data ?? self.data, strategy: mode.rawValue,
            selection: builtIn == nil ? selection : LayoutSelection(kind: kind(of: mode).name),
            scenarioLayout: builtIn ?? scenario.layout)
    }

    /// A new layout of the strategy (of `data`, by default the scenario's; in `bounds`, by default
    /// the scenario's viewport); a factory that throws fails the mode.
    func make(_ mode: LayoutStrategyMode, data: LayoutData? = nil, bounds: Rect? = nil) throws -> any CollectionLayout {
        do {
            return try kind(of: mode).factory(input(mode, data: data, bounds: bounds))
        } catch {
            throw failure(mode, LayoutContract.Violation(check: "factory", step: "build", element: nil, detail: "the factory threw: \(error)"))
        }
    }

    func prepare(_ layout: inout any CollectionLayout, mode: LayoutStrategyMode, step: String) throws {
        do {
            try layout.prepare()
        } catch {
            throw failure(mode, LayoutContract.Violation(check: "prepare", step: step, element: nil, detail: "prepare() threw: \(error)"))
        }
    }

    /// The verification error of `violation` by the strategy `mode`.
    func failure(_ mode: LayoutStrategyMode, _ violation: LayoutContract.Violation) -> VerificationError {
        VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: "layout \(kind(of: mode).name) (mode \(mode.rawValue)): \(violation)")
    }

    /// Checks `layout` by `LayoutContract` on `rects`, and against the reference geometry when its
    /// kind declares `sameGeometryAs`; returns its elements.
    func verify(
        _ layout: any CollectionLayout, mode: LayoutStrategyMode, data: LayoutData? = nil, rects: [(String, Rect)], after step: String
    ) throws -> [LayoutAttributes] {
        let data = data ?? self.data
        let bounds = scenario.viewport
        if let violation = LayoutContract.firstViolation(of: layout, data: data, bounds: bounds, rects: rects.map { (step: $0.0, rect: $0.1) }, prepareStep: step) {
            throw failure(mode, violation)
        }
        let elements: [LayoutAttributes]
        do {
            elements = try LayoutContract.elements(of: layout, data: data, bounds: bounds, step: step)
        } catch {
            throw failure(mode, error)
        }
        if let same = kind(of: mode).sameGeometryAs {
            let reference: ReferenceLayout
            do {
                let styles = try geometryLayout(same, mode: mode).styles
                reference = try ReferenceLayout(data: data, styles: styles, viewportWidth: bounds.width)
            } catch {
                throw failure(mode, LayoutContract.Violation(
                    check: "same-geometry", step: step, element: nil, detail: "the built-in \(same.kind) layout it declares cannot be built: \(error)"))
            }
            // Pinned elements move with the bounds; the reference gives natural frames only.
            let natural = elements.filter { !$0.isPinned }
            let expected = reference.allElements().filter { element in !elements.contains { $0.id == element.id && $0.isPinned } }
            if let violation = LayoutContract.firstDifference(
                of: natural, from: expected, check: "same-geometry (as built-in \(same.kind))", step: step) {
                throw failure(mode, violation)
            }
        }
        return elements
    }

    /// The built-in layout `same` declares, parsed as a scenario's `layout` would be.
    func geometryLayout(_ same: SameGeometry, mode: LayoutStrategyMode) throws -> ScenarioLayout {
        guard let keys = same.layout else { return try builtInLayout(of: mode) ?? scenario.layout }
        var members: [JSONMember] = [JSONMember(key: "kind", value: .string(same.kind))]
        for (key, value) in try keys(input(mode)).sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                if let i = members.firstIndex(where: { $0.key == parts[0] }), case .object(var inner) = members[i].value {
                    inner.append(JSONMember(key: parts[1], value: value.json))
                    members[i].value = .object(inner)
                } else {
                    members.append(JSONMember(key: parts[0], value: .object([JSONMember(key: parts[1], value: value.json)])))
                }
            } else {
                members.append(JSONMember(key: key, value: value.json))
            }
        }
        let node = JSONNode(.object(members), file: "sameGeometryAs of layout kind \(kind(of: mode).name)", path: "layout")
        return try ScenarioLayout.parse(node, contentWidth: scenario.viewport.width)
    }

    /// The rects every verification adds: an empty one, a zero-height one, one covering
    /// everything, one with a negative origin, thin bands, and `randomRects` seeded random ones.
    func checkRects(contentHeight: Double) -> [(String, Rect)] {
        let width = scenario.viewport.width, height = max(contentHeight, 1)
        var rects: [(String, Rect)] = [
            ("the empty rect", Rect(x: 10, y: 10, width: 0, height: 0)),
            ("a zero-height rect", Rect(x: 0, y: height / 2, width: width, height: 0)),
            ("a huge rect", Rect(x: -1e6, y: -1e6, width: width + 2e6, height: height + 2e6)),
            ("a negative-origin rect", Rect(x: -50, y: -300, width: width, height: 600)),
            ("a rect above the content", Rect(x: 0, y: -1000, width: width, height: 1000)),
            ("a rect below the content", Rect(x: 0, y: height, width: width, height: 1000)),
            ("a 1-pt band", Rect(x: 0, y: height / 3, width: width, height: 1)),
            ("a 1-pt column", Rect(x: width / 2, y: 0, width: 1, height: height)),
        ]
        var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: items), stream: 11)
        for i in 0..<Self.randomRects {
            let x = rng.nextDouble(in: -width / 4, width)
            let y = rng.nextDouble(in: -200, height + 200)
            let w = rng.nextDouble(in: 0, width)
            let h = rng.nextDouble(in: 0, Swift.min(height, 3 * scenario.viewport.height))
            rects.append(("random rect \(i)", Rect(x: x, y: y, width: w, height: h)))
        }
        return rects
    }

    /// `dump` and `render` of a layout that keeps no `LayoutFrames`: its own answers, at the
    /// offset asked for (`--offset`), in `viewport` (by default the scenario's).
    func snapshot(of layout: any CollectionLayout, data: LayoutData? = nil, viewport: Rect? = nil) -> LayoutSnapshot {
        let data = data ?? self.data
        return LayoutSnapshot(layout: layout, viewport: viewport ?? scenario.viewport) { layout, bounds in
            (try? LayoutContract.elements(of: layout, data: data, bounds: bounds, step: "snapshot", pinnedMayStack: true)) ?? []
        }
    }
}

/// Prepares a layout of a registered kind: a fresh one (created, and the previous one freed,
/// outside the timing), or the same one after invalidating everything.
final class LayoutPrepareOperation: ConsumingOperation {
    private let make: () throws -> any CollectionLayout
    private let relayout: Bool
    private var layout: (any CollectionLayout)?

    init(make: @escaping () throws -> any CollectionLayout, relayout: Bool) {
        self.make = make
        self.relayout = relayout
    }

    let traceLength = 1

    func rewind() {}

    func prepareNext() throws {
        if relayout, layout != nil {
            layout!.invalidate(with: .everything)
            return
        }
        layout = nil
        var fresh = try make()
        if relayout {
            try fresh.prepare()
            fresh.invalidate(with: .everything)
        }
        layout = fresh
    }

    func runNext() throws -> Int {
        guard layout != nil else { throw OperationMisuse.notPrepared }
        try layout!.prepare()
        return Int(truncatingIfNeeded: layout!.contentSize.height.bitPattern)
    }
}

