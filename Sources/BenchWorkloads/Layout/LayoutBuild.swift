import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

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
