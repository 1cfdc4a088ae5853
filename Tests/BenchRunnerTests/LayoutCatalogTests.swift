import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine
import LayoutReference
import BenchStatistics

/// A one-column stack of items (each as tall as its data says, `gap` apart), written here from
/// scratch, with ways to break it: the generic verification must catch each.
struct TestStack: CollectionLayout {
    enum Fault: String, CaseIterable {
        case none, missing, duplicate, extra, nan, outside, disagree, negative
    }

    var bounds: Rect
    var heights: [Double]
    var gap: Double
    var fault: Fault
    private var tops: [Double] = []

    init(_ input: LayoutInput, fault: Fault) throws {
        bounds = input.bounds
        heights = input.sections.flatMap { $0.map(\.height) }
        gap = try input.number("gap")
        self.fault = fault
    }

    var contentSize: Size {
        Size(width: bounds.width, height: tops.isEmpty ? 0 : tops[tops.count - 1] + heights[heights.count - 1])
    }

    mutating func prepare() throws {
        tops = []
        var y = 0.0
        for height in heights {
            tops.append(y)
            y += height + gap
        }
    }

    mutating func invalidate(with context: InvalidationContext) {
        if let newBounds = context.newBounds { bounds = newBounds }
    }

    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { newBounds.width != bounds.width }

    func frame(_ index: Int) -> Rect {
        var frame = Rect(x: 0, y: tops[index], width: bounds.width, height: heights[index])
        if index == 3 && fault == .nan { frame.y = .nan }
        if index == 3 && fault == .outside { frame.x = bounds.width / 2 }
        if index == 3 && fault == .negative { frame.height = -1 }
        return frame
    }

    func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)
        for index in tops.indices where frame(index).intersects(rect) {
            var attributes = LayoutAttributes(id: .item(index, section: 0), frame: frame(index))
            if fault == .disagree && index == 2 { attributes.frame.y += 1 }
            results.append(attributes)
            if fault == .duplicate && index == 4 { results.append(attributes) }
        }
        if fault == .missing, !results.isEmpty { results.removeLast() }
        if fault == .extra, !results.isEmpty, !tops.isEmpty, results.count < tops.count {
            // An element far from the rect.
            let far = results.contains { $0.id.index == 0 } ? tops.count - 1 : 0
            if !frame(far).intersects(rect) { results.append(LayoutAttributes(id: .item(far, section: 0), frame: frame(far))) }
        }
    }

    func attributes(for element: ElementID) throws -> LayoutAttributes {
        guard element.kind == .item, element.section == 0, tops.indices.contains(element.index) else {
            throw LayoutError(field: "element", reason: .noSuchElement(element))
        }
        return LayoutAttributes(id: element, frame: frame(element.index))
    }
}

struct FactoryFailure: Error, CustomStringConvertible {
    var description: String { "no stack today" }
}

enum TestKinds {
    /// Registered once for the whole process (the catalog is process-wide).
    static let registered: Void = {
        let faults = TestStack.Fault.allCases.filter { $0 != .none }.map {
            LayoutStrategy(name: "test-stack-\($0.rawValue)", about: "broken on purpose: \($0.rawValue)", reproduces: "a test layout")
        }
        try! LayoutCatalog.registerIfAbsent(LayoutKind(
            name: "test-stack", about: "one column of items, gap apart",
            keys: [
                .number("gap", default: 0, in: 0...100),
                .integer("lanes", default: 1, in: 1...8),
                .bool("reverse", default: false),
                .string("align", default: "top", oneOf: ["top", "bottom"]),
            ],
            workloads: [.prepare, .query],
            strategies: [LayoutStrategy(name: "test-stack", about: "the correct stack", reproduces: "a test layout"),
                         LayoutStrategy(name: "test-stack-throws", about: "its factory throws", reproduces: "a test layout")] + faults,
            sameGeometryAs: .builtIn("list") { input in ["lineSpacing": .number(try input.number("gap"))] },
            factory: { input in
                if input.strategy == "test-stack-throws" { throw FactoryFailure() }
                let fault = TestStack.Fault(rawValue: String(input.strategy.dropFirst("test-stack-".count))) ?? .none
                return try TestStack(input, fault: fault)
            }))
        // A kind that declares the wrong built-in geometry: list frames with lineSpacing 5
        // although the stack packs its items with no gap.
        try! LayoutCatalog.registerIfAbsent(LayoutKind(
            name: "test-stack-wrong-geometry", about: "claims a geometry it does not have",
            keys: [.number("gap", default: 0, in: 0...10)], workloads: [.query],
            sameGeometryAs: .builtIn("list") { _ in ["lineSpacing": .number(5)] },
            factory: { input in try TestStack(input, fault: .none) }))
    }()
}

func stackScenario(
    layout: String = #"{"kind": "test-stack", "gap": 4}"#, workload: String = #"{"kind": "layout-query", "frames": 60}"#,
    modes: String = #"["test-stack"]"#
) -> String {
    scenarioJSON(layout: layout, workload: workload, modes: modes, items: "[200]")
}

@Suite struct LayoutCatalogTests {
    init() { TestKinds.registered }

    // MARK: The catalog and the keys

    @Test func builtInKindsGoThroughTheCatalog() throws {
        #expect(Array(LayoutCatalog.names.prefix(3)) == ["list", "flow", "waterfall"])
        let scenario = try parseScenario(scenarioJSON())
        #expect(scenario.layoutSelection == LayoutSelection(kind: "waterfall"))
        #expect(!scenario.isRegisteredLayout)
        // The catalog's factory builds the layout the built-in workloads build.
        let data = try scenario.makeData(items: 300)
        let kind = try #require(LayoutCatalog.kind(named: "waterfall"))
        var built = try kind.factory(LayoutInput(
            bounds: scenario.viewport, data: data, strategy: "waterfall", selection: scenario.layoutSelection!, scenarioLayout: scenario.layout))
        try built.prepare()
        var direct = try SectionedLayout(bounds: scenario.viewport, styles: scenario.makeStyles(), data: data)
        try direct.prepare()
        for index in 0..<300 {
            #expect(try built.attributes(for: .item(index, section: 0)) == direct.attributes(for: .item(index, section: 0)))
        }
    }

    @Test func registeredKeysAreReadWithDefaults() throws {
        let scenario = try parseScenario(stackScenario(layout: #"{"kind": "test-stack", "gap": 4, "align": "bottom"}"#))
        #expect(scenario.isRegisteredLayout)
        #expect(scenario.layoutSelection == LayoutSelection(kind: "test-stack", values: [
            "gap": .number(4), "lanes": .integer(1), "reverse": .bool(false), "align": .string("bottom"),
        ]))
    }

    @Test func unknownKindNamesEveryKind() {
        let error = expectScenarioError(stackScenario(layout: #"{"kind": "grid"}"#), path: "layout.kind", "unknown value")
        // Every built-in kind, in the catalog's order, then the kinds the tests register.
        let builtIns = LayoutCatalog.builtIns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        #expect(builtIns.hasPrefix(#""list", "flow", "waterfall""#))
        #expect(error?.message.hasPrefix("unknown value \"grid\"; expected one of \(builtIns), \"test-stack\"") == true, "\(error?.message ?? "")")
    }

    @Test func badKeysAreRefusedNamingTheirPath() {
        let unknown = expectScenarioError(stackScenario(layout: #"{"kind": "test-stack", "columns": 3}"#), path: "layout.columns", "unknown key")
        #expect(unknown?.message == "unknown key 'columns'; expected one of: kind, gap, lanes, reverse, align")
        let bounds = expectScenarioError(stackScenario(layout: #"{"kind": "test-stack", "gap": 101}"#), path: "layout.gap", "expected a number")
        #expect(bounds?.message == "expected a number from 0 to 100, got 101")
        let integer = expectScenarioError(stackScenario(layout: #"{"kind": "test-stack", "lanes": 2.5}"#), path: "layout.lanes", "integer")
        #expect(integer?.message.hasPrefix("expected an integer from 1 to 8") == true)
        let type = expectScenarioError(stackScenario(layout: #"{"kind": "test-stack", "reverse": "yes"}"#), path: "layout.reverse", "true or false")
        #expect(type?.message == #"expected true or false, got "yes""#)
        let choice = expectScenarioError(stackScenario(layout: #"{"kind": "test-stack", "align": "middle"}"#), path: "layout.align", "unknown value")
        #expect(choice?.message == #"unknown value "middle"; expected one of "top", "bottom""#)
    }

    @Test func workloadsAndModesAreCheckedAtLoad() throws {
        func planError(_ text: String) -> ScenarioError? {
            do {
                _ = try BenchmarkPlan(scenario: try parseScenario(text))
                return nil
            } catch {
                return error
            }
        }
        let builtInWorkload = planError(stackScenario(workload: #"{"kind": "query"}"#, modes: #"["binary"]"#))
        #expect(builtInWorkload?.description == #"test.json: layout.kind: layout kind "test-stack" runs under its generic workloads only ("layout-prepare", "layout-query"); workload "query" runs the built-in kinds "list", "flow", "waterfall""#)
        let unsupported = planError(stackScenario(layout: #"{"kind": "test-stack-wrong-geometry"}"#, workload: #"{"kind": "layout-prepare"}"#, modes: #"["test-stack-wrong-geometry"]"#))
        #expect(unsupported?.description == #"test.json: workload.kind: layout kind "test-stack-wrong-geometry" does not support "layout-prepare"; it supports "layout-query""#)
        // Another registered kind's strategy is no mode of this kind's scenario; the built-in
        // kinds are (`builtInModesRunBesideARegisteredKind`).
        let otherKindsMode = planError(stackScenario(modes: #"["test-stack-wrong-geometry"]"#))
        #expect(otherKindsMode?.path == "modes[0]")
        #expect(otherKindsMode?.message.hasPrefix(#"unknown mode "test-stack-wrong-geometry" for workload "layout-query"; expected one of "test-stack", "test-stack-throws""#) == true)
        #expect(otherKindsMode?.message.hasSuffix(#""list", "flow", "waterfall""#) == true, "\(otherKindsMode?.message ?? "")")
        #expect(planError(stackScenario()) == nil)
    }

    @Test func registrationsThatCannotBeUsedAreRefused() {
        func refusal(_ kind: LayoutKind) -> String? {
            do {
                try LayoutCatalog.register([kind])
                return nil
            } catch {
                return error.description
            }
        }
        let factory: @Sendable (LayoutInput) throws -> any CollectionLayout = { try TestStack($0, fault: .none) }
        #expect(refusal(LayoutKind(name: "list", about: "again", factory: factory)) == #"layout kind "list": a layout kind of this name is already registered"#)
        #expect(refusal(LayoutKind(name: "x-dup", about: "", strategies: [LayoutStrategy(name: "test-stack", about: "")], factory: factory))
            == #"layout kind "x-dup": strategy test-stack is already a mode of layout kind test-stack"#)
        #expect(refusal(LayoutKind(name: "x-bounds", about: "", keys: [.integer("n", default: 0, in: 1...3)], factory: factory))
            == #"layout kind "x-bounds": key n: the default 0 is outside 1...3"#)
        #expect(refusal(LayoutKind(name: "x-geometry", about: "", sameGeometryAs: .builtIn("grid") { _ in [:] }, factory: factory))
            == #"layout kind "x-geometry": sameGeometryAs names "grid", not a built-in kind (list, flow, waterfall)"#)
        #expect(LayoutCatalog.kind(named: "x-dup") == nil)
    }

    // MARK: Verification of a layout nobody here wrote

    /// The verification error of `mode` under `workload`, or nil when it passes.
    func verificationFailure(_ mode: String, workload: String = #"{"kind": "layout-query", "frames": 60}"#) throws -> String? {
        let plan = try BenchmarkPlan(scenario: try parseScenario(stackScenario(workload: workload, modes: "[\"\(mode)\"]")))
        do {
            _ = try plan.workload.makeGroup(scenario: plan.scenario, items: 200).measure(mode: plan.modes[0], verify: true)
            return nil
        } catch let error as VerificationError {
            return error.description
        }
    }

    @Test func aCorrectLayoutPassesBothWorkloads() throws {
        #expect(try verificationFailure("test-stack") == nil)
        #expect(try verificationFailure("test-stack", workload: #"{"kind": "layout-prepare"}"#) == nil)
    }

    @Test(arguments: [
        ("test-stack-missing", "check query-missing at trace frame 0: element item[0,"),
        ("test-stack-duplicate", "check unique at trace frame 0: element item[0,4]: returned more than once"),
        ("test-stack-extra", "check query-extra at trace frame 0: element item[0,199]: returned for rect"),
        ("test-stack-nan", "check frame-finite at prepare: element item[0,3]: frame (0.0, nan"),
        ("test-stack-negative", "check frame-size at prepare: element item[0,3]: frame (0.0, "),
        ("test-stack-outside", "check frame-inside at prepare: element item[0,3]: frame (195.0, "),
        ("test-stack-disagree", "check attributes-agree at trace frame 0: element item[0,2]: the query returned frame"),
        ("test-stack-throws", "check factory at build: the factory threw: no stack today"),
    ])
    func everyBrokenLayoutFailsItsVerification(mode: String, expected: String) throws {
        for workload in [#"{"kind": "layout-query", "frames": 60}"#, #"{"kind": "layout-prepare"}"#] {
            let failure = try #require(try verificationFailure(mode, workload: workload), "\(mode) passed \(workload)")
            let prefix = "test: mode \(mode) at 200 items disagrees with the reference: layout test-stack (mode \(mode)): "
            #expect(failure.hasPrefix(prefix), "\(failure)")
            // layout-prepare's rects are its own (no trace): the step differs, the check does not.
            let check = expected.components(separatedBy: " at ")[0]
            #expect(failure.contains(check), "\(failure)")
            if workload.contains("layout-query") || !expected.contains("trace frame") {
                #expect(failure.contains(expected), "\(failure)")
            }
        }
    }

    @Test func aWrongSameGeometryDeclarationFails() throws {
        let plan = try BenchmarkPlan(scenario: try parseScenario(stackScenario(
            layout: #"{"kind": "test-stack-wrong-geometry"}"#, modes: #"["test-stack-wrong-geometry"]"#)))
        #expect(throws: VerificationError.self) {
            try plan.workload.makeGroup(scenario: plan.scenario, items: 200).measure(mode: plan.modes[0], verify: true)
        }
        do {
            _ = try plan.workload.makeGroup(scenario: plan.scenario, items: 200).measure(mode: plan.modes[0], verify: true)
        } catch {
            #expect("\(error)".contains("check same-geometry (as built-in list) at prepare: element item[0,1]: frame (0.0, "), "\(error)")
        }
    }

    /// The contract's brute force uses the engine's intersection rule, restated: half-open,
    /// empty rects intersect nothing.
    @Test func theContractsIntersectionIsTheEngines() {
        var rng = SplitMix64(seed: 30)
        let values: [Double] = [-1, 0, 0.5, 1, 2, Double.leastNonzeroMagnitude * 2, 3, -0.0]
        for _ in 0..<20_000 {
            let a = Rect(x: values.randomElement(using: &rng)!, y: values.randomElement(using: &rng)!,
                         width: values.randomElement(using: &rng)!, height: values.randomElement(using: &rng)!)
            let b = Rect(x: values.randomElement(using: &rng)!, y: values.randomElement(using: &rng)!,
                         width: values.randomElement(using: &rng)!, height: values.randomElement(using: &rng)!)
            #expect(LayoutContract.intersects(a, b) == a.intersects(b), "\(a) \(b)")
        }
    }

    /// A built-in kind named in a registered kind's scenario runs beside it, on the same data,
    /// built with the built-in's default keys: its frames are the reference's for that kind, and
    /// it passes verification (with its reference geometry) under every generic workload it can.
    @Test func builtInModesRunBesideARegisteredKind() throws {
        let data = #"{"generate": {"heights": {"distribution": "uniform", "min": 20, "max": 60}, "widths": {"distribution": "uniform", "min": 30, "max": 150}, "seed": 4}}"#
        for workload in [#"{"kind": "layout-query", "frames": 60}"#, #"{"kind": "layout-prepare"}"#] {
            let plan = try BenchmarkPlan(scenario: try parseScenario(scenarioJSON(
                layout: #"{"kind": "test-stack", "gap": 4}"#, data: data, workload: workload, modes: #"["test-stack", "flow", "waterfall"]"#, items: "[200]")))
            #expect(plan.modes.map { $0.rawValue } == ["test-stack", "flow", "waterfall"])
            let group = try plan.workload.makeGroup(scenario: plan.scenario, items: 200)
            for mode in plan.modes { _ = try group.measure(mode: mode, verify: true) }
        }
        // The flow is the reference flow of the same items at their widths, written independently.
        let plan = try BenchmarkPlan(scenario: try parseScenario(scenarioJSON(
            layout: #"{"kind": "test-stack"}"#, data: data, workload: #"{"kind": "layout-query", "frames": 60}"#, modes: #"["flow"]"#, items: "[200]")))
        let snapshot = try LayoutSnapshot(plan: plan, mode: plan.modes[0], items: 200)
        let reference = try ReferenceLayout(
            data: try plan.scenario.makeData(items: 200),
            styles: try parseScenario(scenarioJSON(layout: #"{"kind": "flow"}"#)).makeStyles(), viewportWidth: plan.scenario.viewport.width)
        let expected = reference.allElements().sorted { $0.id < $1.id }
        let shown = snapshot.elements(in: nil)
        #expect(shown.count == expected.count)
        func close(_ a: Rect, _ b: Rect) -> Bool {
            abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
        }
        for (element, want) in zip(shown, expected) {
            #expect(element.id == want.id && close(element.frame, want.frame), "\(element) \(want)")
        }
    }

    /// `dump`/`render --offset` of a `layout-*` scenario: the layout is scrolled there first, so a
    /// pinned header shows at the top of the viewport at that offset, as the built-in reference
    /// pins it; at offset 0 no header is pinned away from its place.
    @Test func aSnapshotHonoursTheOffset() throws {
        let plan = try BenchmarkPlan(scenario: try parseScenario(scenarioJSON(
            layout: #"{"kind": "list", "header": {"height": 44, "pin": "normal"}}"#,
            data: #"{"generate": {"sections": 20, "heights": {"distribution": "uniform", "min": 44, "max": 120}, "seed": 10}}"#,
            workload: #"{"kind": "layout-sticky-scroll", "steps": 40}"#, modes: #"["list"]"#, items: "[400]")))
        let snapshot = try LayoutSnapshot(plan: plan, mode: plan.modes[0], items: 400)
        let offset = 2000.5
        // The headers on screen at that offset (a header of a section scrolled past stays pushed
        // to its section's end, off screen).
        let viewport = plan.scenario.viewport.height
        let headers = snapshot.elements(in: nil, offset: offset)
            .filter { $0.id.kind == .header && $0.frame.maxY > offset && $0.frame.minY < offset + viewport }
        let pinned = headers.filter(\.isPinned)
        #expect(pinned.count == 1, "\(pinned)")
        // At the top of the viewport, or pushed up by the next section's header.
        #expect(pinned.first.map { $0.frame.minY <= offset && $0.frame.maxY > offset } == true, "\(pinned)")
        // The reference's pinning at that offset, written independently of the engine.
        let reference = try ReferenceLayout(
            data: try plan.scenario.makeData(items: 400), styles: plan.scenario.makeStyles(), viewportWidth: plan.scenario.viewport.width)
        let section = try #require(pinned.first?.id.section)
        let natural = reference.allElements().filter { $0.id.kind == .header && $0.frame.minY <= offset }.map(\.id.section).max()
        #expect(section == natural)
        #expect(snapshot.elements(in: nil).filter { $0.id.kind == .header && $0.isPinned && $0.frame.minY > 0 }.isEmpty)
    }

    /// Generated data for a registered kind draws a width for every item when the scenario gives
    /// `widths` (they were all 0), from their own stream: the heights stay as they were.
    @Test func generatedWidthsReachARegisteredKind() throws {
        let heights = #""heights": {"distribution": "uniform", "min": 20, "max": 60}, "seed": 4"#
        let noWidths = try parseScenario(stackScenario()).makeData(items: 1)  // the default data has no widths
        #expect(noWidths.size(section: 0, item: 0).width == 0)
        let plain = try parseScenario(scenarioJSON(layout: #"{"kind": "test-stack"}"#, data: "{\"generate\": {\(heights)}}", modes: #"["test-stack"]"#))
            .makeData(items: 300)
        let wide = try parseScenario(scenarioJSON(
            layout: #"{"kind": "test-stack"}"#, data: "{\"generate\": {\(heights), \"widths\": {\"distribution\": \"uniform\", \"min\": 30, \"max\": 150}}}",
            modes: #"["test-stack"]"#)).makeData(items: 300)
        for item in 0..<300 {
            let size = wide.size(section: 0, item: item)
            #expect(size.width >= 30 && size.width <= 150, "item \(item): \(size)")
            #expect(size.height == plain.size(section: 0, item: item).height)
        }
        #expect(Set((0..<300).map { wide.size(section: 0, item: $0).width }).count > 100)
    }

    /// A run of a broken strategy beside a correct one: the broken one fails with one line and
    /// gets no rows, the correct one's rows land.
    @Test func aBrokenStrategyGetsNoRowsAndTheOthersLand() throws {
        let plan = try BenchmarkPlan(scenario: try parseScenario(stackScenario(modes: #"["test-stack", "test-stack-missing"]"#)))
        let outcome = BenchmarkRunner(plans: [plan], options: .init(policy: .quick, verify: true)).run()
        #expect(outcome.failures.map(\.mode) == ["test-stack-missing"])
        #expect(outcome.failures.first?.description.contains("check query-missing") == true)
        #expect(Set(outcome.series.map(\.mode).filter { !$0.isEmpty }) == ["test-stack"])
    }
}
