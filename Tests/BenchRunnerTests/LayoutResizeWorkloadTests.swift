import Testing
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
import LayoutEngine
import LayoutReference
import BenchStatistics
import HarnessTestSupport

/// The engine's waterfall behind `CollectionLayout`, with three ways to mishandle a width change:
/// `ignoresWidth` (its `shouldInvalidate(forBoundsChange:)` judges every bounds at the width it was
/// built at, so a width change is never invalidated), `keepsFrames` (it says yes, but its
/// `invalidate(with:)` keeps the old width: the frames of the old width stay) and `ignoresLater`
/// (it handles its first width change, then ignores the others). A fixture of the resize tests.
struct ResizeTestLayout: CollectionLayout {
    enum Fault: String, CaseIterable { case none, ignoresWidth = "ignores-width", keepsFrames = "keeps-frames", ignoresLater = "ignores-later" }

    var base: SectionedLayout
    let fault: Fault
    /// The width the base was built at (what `ignores-width` judges by).
    let builtWidth: Double
    private var widthChanges = 0

    init(base: SectionedLayout, fault: Fault) {
        self.base = base
        self.fault = fault
        builtWidth = base.bounds.width
    }

    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }

    mutating func invalidate(with context: InvalidationContext) {
        var context = context
        if let bounds = context.newBounds, bounds.width != base.bounds.width {
            widthChanges += 1
            if fault == .keepsFrames { context.newBounds = Rect(x: bounds.x, y: bounds.y, width: base.bounds.width, height: bounds.height) }
        }
        base.invalidate(with: context)
    }

    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool {
        switch fault {
        case .ignoresWidth:
            return base.shouldInvalidate(forBoundsChange: Rect(x: newBounds.x, y: newBounds.y, width: builtWidth, height: newBounds.height))
        case .ignoresLater where widthChanges >= 1:
            return base.shouldInvalidate(forBoundsChange: Rect(x: newBounds.x, y: newBounds.y, width: base.bounds.width, height: newBounds.height))
        default:
            return base.shouldInvalidate(forBoundsChange: newBounds)
        }
    }

    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext { base.invalidationContext(forBoundsChange: newBounds) }
    func elements(in rect: Rect, into results: inout [LayoutAttributes]) { base.elements(in: rect, into: &results) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }
}

enum ResizeKinds {
    /// The waterfall style of `test-resize` with `columns` columns.
    static func style(columns: Int) -> SectionStyle {
        SectionStyle(kind: .waterfall(WaterfallStyle(columns: columns)), insets: EdgeInsets(top: 0, left: 6, bottom: 0, right: 6),
                     itemSpacing: 4, lineSpacing: 4, headerHeight: 30)
    }

    /// `test-resize`: a waterfall of `columns` columns, correct or broken (`ResizeTestLayout.Fault`),
    /// declaring the built-in waterfall's geometry.
    static let registered: Void = {
        try! LayoutCatalog.registerIfAbsent(LayoutKind(
            name: "test-resize", about: "a waterfall with ways to mishandle a width change",
            keys: [.integer("columns", default: 2, in: 1...6)],
            workloads: [.resize, .query],
            strategies: ResizeTestLayout.Fault.allCases.map {
                LayoutStrategy(name: $0 == .none ? "test-resize" : "test-resize-\($0.rawValue)", about: $0.rawValue, reproduces: "a test layout")
            },
            sameGeometryAs: .builtIn("waterfall") { input in
                ["columns": .integer(try input.integer("columns")), "insets.left": .number(6), "insets.right": .number(6),
                 "itemSpacing": .number(4), "lineSpacing": .number(4), "header.height": .number(30)]
            },
            factory: { input in
                let fault = ResizeTestLayout.Fault(rawValue: String(input.strategy.dropFirst("test-resize-".count))) ?? .none
                let base = try SectionedLayout(bounds: input.bounds, styles: [style(columns: try input.integer("columns"))], data: input.data)
                return ResizeTestLayout(base: base, fault: fault)
            }))
    }()
}

@Suite struct LayoutResizeWorkloadTests {
    init() {
        TestKinds.registered
        ResizeKinds.registered
    }

    /// A seeded random trace of 2 to 6 widths from 200 to 1400 pt, each differing from the one
    /// before it (the first from `start`, the last from the first).
    static func randomWidths(_ rng: inout SplitMix64, start: Double) -> [Double] {
        while true {
            var widths: [Double] = []
            for _ in 0..<rng.nextInt(in: 2...6) {
                var width = Double(rng.nextInt(in: 200...1400))
                while width == (widths.last ?? start) { width += 1 }
                widths.append(width)
            }
            if widths.first != widths.last { return widths }
        }
    }

    static func json(_ widths: [Double]) -> String { "[" + widths.map { String(Int($0)) }.joined(separator: ", ") + "]" }

    static let data = #"{"generate": {"sections": 3, "heights": {"distribution": "uniform", "min": 20, "max": 200}, "seed": 7}}"#

    /// The lowest element whose frame differs between layouts of `columns` columns at widths
    /// `from` and `to` (`SectionedLayout` built directly: the frames a layout that keeps the old
    /// width shows, and those it should show).
    static func firstMovedElement(scenario: Scenario, items: Int, columns: Int, from: Double, to: Double) throws -> ElementID? {
        let data = try scenario.makeData(items: items)
        var old = try SectionedLayout(bounds: Rect(x: 0, y: 0, width: from, height: 844), styles: [ResizeKinds.style(columns: columns)], data: data)
        var new = try SectionedLayout(bounds: Rect(x: 0, y: 0, width: to, height: 844), styles: [ResizeKinds.style(columns: columns)], data: data)
        try old.prepare()
        try new.prepare()
        var moved: [ElementID] = []
        for section in 0..<data.sectionCount {
            var ids = (0..<data.itemCount(inSection: section)).map { ElementID.item($0, section: section) }
            ids.append(.header(section: section))
            for id in ids where try old.attributes(for: id).frame != new.attributes(for: id).frame { moved.append(id) }
        }
        return moved.min()
    }

    // MARK: Correct layouts pass

    /// Differential, on seeded random built-in layouts (lists, flows and waterfalls, headers and
    /// footers pinned or not, insets) and random width traces: every step passes the contract, the
    /// fresh layout at the new width and the reference geometry — the verification raises no false
    /// alarm — and one `elements` value is observed per step.
    @Test func builtInKindsPassOnRandomTraces() throws {
        var rng = SplitMix64(seed: 4949)
        for _ in 0..<24 {
            let kind = ["list", "flow", "waterfall"][rng.nextInt(in: 0...2)]
            let pin = ["none", "normal", "stacked"][rng.nextInt(in: 0...2)]
            let footerPin = ["none", "normal"][rng.nextInt(in: 0...1)]
            let inset = rng.nextInt(in: 0...20)
            var layout = #""kind": "\#(kind)", "itemSpacing": 4, "lineSpacing": \#(rng.nextInt(in: 0...8)), "insets": {"left": \#(inset), "right": \#(inset), "top": 4}, "header": {"height": 30, "pin": "\#(pin)"}, "footer": {"height": \#(rng.nextInt(in: 0...1) * 20), "pin": "\#(footerPin)"}"#
            if kind == "waterfall" { layout += #", "columns": \#(rng.nextInt(in: 1...5))"# }
            let widths = kind == "flow" ? #", "widths": {"distribution": "uniform", "min": 20, "max": 180}"# : ""
            let data = #"{"generate": {"sections": \#(rng.nextInt(in: 1...12)), "heights": {"distribution": "uniform", "min": 20, "max": 200}\#(widths), "seed": \#(rng.nextInt(in: 1...999))}}"#
            let trace = Self.randomWidths(&rng, start: 390)
            let items = rng.nextInt(in: 30...400)
            let text = scenarioJSON(
                layout: "{\(layout)}", data: data, workload: #"{"kind": "layout-resize", "widths": \#(Self.json(trace))}"#,
                modes: "[\"\(kind)\"]", items: "[\(items)]")
            let plan = try BenchmarkPlan(scenario: try parseScenario(text))
            let measured = try plan.workload.makeGroup(scenario: plan.scenario, items: items).measure(mode: plan.modes[0], verify: true)
            let elements = try #require(measured.observations.first { $0.metric == .elements }?.values)
            #expect(elements.count == trace.count, "\(text)")
            #expect(elements.allSatisfy { $0 > 0 }, "\(text)")
        }
    }

    /// Both traces run on every built-in kind, and on the correct registered layout.
    @Test(arguments: ["rotation", "split-view"])
    func bothTracesPass(trace: String) throws {
        for (layout, mode) in [(#"{"kind": "list", "header": {"height": 30, "pin": "normal"}}"#, "list"),
                               (#"{"kind": "waterfall", "columns": 3}"#, "waterfall"),
                               (#"{"kind": "test-resize", "columns": 3}"#, "test-resize")] {
            let text = scenarioJSON(
                viewport: #"{"width": 1024, "height": 768}"#, layout: layout, data: Self.data,
                workload: #"{"kind": "layout-resize", "trace": "\#(trace)"}"#, modes: "[\"\(mode)\"]", items: "[300]")
            #expect(try LayoutScrollWorkloadTests.failure(text, items: 300) == nil, "\(text)")
        }
    }

    // MARK: Layouts that mishandle a width change fail, naming the step and the element

    /// Differential, on seeded random traces: a layout whose `shouldInvalidate` ignores width
    /// changes, and one that says yes but keeps the old width's frames, each fail at step 0 naming
    /// the lowest element whose frame the width change moves (found by building the engine's
    /// layout at both widths directly); one that handles only its first width change fails at
    /// step 1; the correct layout passes the same trace.
    @Test func layoutsThatKeepTheOldWidthAreCaught() throws {
        var rng = SplitMix64(seed: 4950)
        for _ in 0..<16 {
            let columns = rng.nextInt(in: 1...5)
            let trace = Self.randomWidths(&rng, start: 390)
            let items = rng.nextInt(in: 20...300)
            func text(_ mode: String) -> String {
                scenarioJSON(
                    layout: #"{"kind": "test-resize", "columns": \#(columns)}"#, data: Self.data,
                    workload: #"{"kind": "layout-resize", "widths": \#(Self.json(trace))}"#, modes: "[\"\(mode)\"]", items: "[\(items)]")
            }
            let scenario = try parseScenario(text("test-resize"))
            #expect(try LayoutScrollWorkloadTests.failure(text("test-resize"), items: items) == nil)
            let step0 = "layout-resize step 0 (width 390 → \(Int(trace[0])))"
            let moved = try #require(try Self.firstMovedElement(scenario: scenario, items: items, columns: columns, from: 390, to: trace[0]))
            for (fault, said) in [("ignores-width", true), ("keeps-frames", false)] {
                let failure = try #require(try LayoutScrollWorkloadTests.failure(text("test-resize-\(fault)"), items: items), "\(fault) passed")
                let expected = "layout test-resize (mode test-resize-\(fault)): check resize-equals-fresh at \(step0): element \(moved): frame "
                #expect(failure.contains(expected), "\(failure), expected \(expected)")
                #expect(failure.hasSuffix("(shouldInvalidate(forBoundsChange:) said no to this width change, so the layout was not invalidated)") == said, "\(failure)")
            }
            // Handled the first width change; the second is shown at the first's width.
            if let later = try Self.firstMovedElement(scenario: scenario, items: items, columns: columns, from: trace[0], to: trace[1]) {
                let failure = try #require(try LayoutScrollWorkloadTests.failure(text("test-resize-ignores-later"), items: items))
                let expected = "check resize-equals-fresh at layout-resize step 1 (width \(Int(trace[0])) → \(Int(trace[1]))): element \(later): "
                #expect(failure.contains(expected), "\(failure), expected \(expected)")
            }
        }
    }

    /// The offset of every step: half the scrollable height at the starting width, clamped to the
    /// scrollable height at each width (computed here from the engine's layouts built directly).
    /// A flow's content grows as it narrows, so a wide step clamps and a narrow one does not.
    @Test func theViewportKeepsItsOffsetClampedToEachWidth() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "flow", "itemSpacing": 4, "lineSpacing": 4}"#,
            data: #"{"generate": {"sections": 2, "heights": {"distribution": "uniform", "min": 20, "max": 60}, "widths": {"distribution": "uniform", "min": 40, "max": 120}, "seed": 2}}"#,
            workload: #"{"kind": "layout-resize", "widths": [1200, 250, 844]}"#, modes: #"["flow"]"#, items: "[400]")
        let scenario = try parseScenario(text)
        let fixture = try LayoutResizeWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 400)
        let data = try scenario.makeData(items: 400)
        func height(_ width: Double) throws -> Double {
            var layout = try SectionedLayout(bounds: Rect(x: 0, y: 0, width: width, height: 844), styles: scenario.layout.styles, data: data)
            try layout.prepare()
            return layout.contentSize.height
        }
        let offset = (try height(390) - 844) / 2
        let viewports = try fixture.viewports(mode: try #require(LayoutStrategyMode(rawValue: "flow")), startHeight: try height(390))
        #expect(viewports.map(\.width) == [1200, 250, 844])
        #expect(viewports.allSatisfy { $0.height == 844 && $0.minX == 0 })
        for viewport in viewports {
            #expect(viewport.minY == min(offset, max(0, try height(viewport.width) - 844)))
        }
        #expect(viewports[0].minY < offset, "the widest layout is not too short for the offset: the clamp is not exercised")
        #expect(viewports[1].minY == offset)
    }

    /// The traces `trace` names: the viewport turned and back, the iPad widths at its height.
    @Test func theNamedTraces() throws {
        let viewport = Size(width: 390, height: 844)
        func sizes(_ workload: String) throws -> [Size] {
            let text = scenarioJSON(layout: #"{"kind": "list"}"#, data: Self.data, workload: workload, modes: #"["list"]"#, items: "[10]")
            return try LayoutResizeWorkload(spec: try parseScenario(text).workload.reader()).sizes(viewport: viewport)
        }
        #expect(try sizes(#"{"kind": "layout-resize"}"#) == [Size(width: 844, height: 390), viewport])
        #expect(try sizes(#"{"kind": "layout-resize", "trace": "split-view"}"#) == [694, 507, 320, 375, 768, 1024].map { Size(width: $0, height: 844) })
        #expect(try sizes(#"{"kind": "layout-resize", "widths": [500, 600.5]}"#) == [Size(width: 500, height: 844), Size(width: 600.5, height: 844)])
    }

    // MARK: Bad input

    /// Each bad trace is one error naming the file and the field, at load.
    @Test(arguments: [
        (#""widths": [0, 500]"#, "workload.widths[0]", "expected a number > 0"),
        (#""widths": [500, -320]"#, "workload.widths[1]", "expected a number > 0"),
        (#""widths": [500, 1e999]"#, "workload.widths[1]", "too large to be a finite number"),
        (#""widths": [500, 2e9]"#, "workload.widths[1]", "expected a number > 0 and <= 1000000000, got 2e9"),
        (#""widths": ["wide", 500]"#, "workload.widths[0]", "expected a number"),
        (#""widths": []"#, "workload.widths", "expected 1 to 64 widths, got 0"),
        (#""widths": [500]"#, "workload.widths[0]", "the last width 500 equals the first, where the trace wraps"),
        (#""widths": 500"#, "workload.widths", "expected an array"),
        (#""trace": "rotation", "widths": [500, 600]"#, "workload.widths", "give either trace or widths, not both"),
        (#""trace": "sidebar""#, "workload.trace", #"one of "rotation", "split-view""#),
        (#""widths": [390, 500]"#, "workload.widths[0]", "width 390 (step 0) equals the viewport's width, where the layout starts"),
        (#""widths": [500, 500, 600]"#, "workload.widths[1]", "width 500 (step 1) equals the width before it"),
        (#""widths": [500, 600, 500]"#, "workload.widths[2]", "the last width 500 equals the first, where the trace wraps"),
        (#""widths": [500, 20]"#, "workload.widths[1]", "the layout does not fit width 20 (step 1)"),
        (#""steps": 4"#, "workload.steps", "unknown key"),
    ])
    func badTracesAreRefusedAtLoad(workload: String, path: String, message: String) throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list", "insets": {"left": 10, "right": 12}}"#, data: Self.data,
            workload: #"{"kind": "layout-resize", \#(workload)}"#, modes: #"["list"]"#, items: "[10]")
        let error = try #require(planError(text), "\(workload) was accepted")
        #expect(error.path == path, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("test.json: \(path): "), "\(error)")
    }

    @Test func aRotationOfASquareViewportIsRefused() throws {
        let text = scenarioJSON(
            viewport: #"{"width": 600, "height": 600}"#, layout: #"{"kind": "list"}"#, data: Self.data,
            workload: #"{"kind": "layout-resize"}"#, modes: #"["list"]"#, items: "[10]")
        let error = try #require(planError(text))
        #expect(error.description == "test.json: workload.trace: width 600 (step 0) equals the viewport's width, where the layout starts: every step must change the width")
    }

    @Test func aKindWithoutLayoutResizeIsRefusedAtLoad() throws {
        // test-stack declares layout-prepare and layout-query only.
        let error = try #require(planError(stackScenario(workload: #"{"kind": "layout-resize"}"#)))
        #expect(error.description == #"test.json: workload.kind: layout kind "test-stack" does not support "layout-resize"; it supports "layout-prepare", "layout-query""#)
    }
}
