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

/// The engine's list with pinned headers and footers behind `CollectionLayout`, with one way to
/// break it: `forgetsPinnedHeader` drops the first pinned header from every answer (the query a
/// layout gets wrong when it scans natural frames only). A fixture of the scroll workloads' tests.
struct PinnedListLayout: CollectionLayout {
    var base: SectionedLayout
    var forgetsPinnedHeader: Bool

    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }
    mutating func invalidate(with context: InvalidationContext) { base.invalidate(with: context) }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { base.shouldInvalidate(forBoundsChange: newBounds) }
    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext { base.invalidationContext(forBoundsChange: newBounds) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }

    func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        base.elements(in: rect, into: &results)
        if forgetsPinnedHeader, let i = results.firstIndex(where: { $0.isPinned && $0.id.kind == .header }) { results.remove(at: i) }
    }
}

enum PinnedKinds {
    /// `test-pinned`: lists whose headers pin (`normal` or `stacked`) and footers pin (`normal`),
    /// under a `pinOffset`; declares the built-in list's geometry, so the scroll workloads also
    /// check its pinned frames against the reference.
    static let registered: Void = {
        try! LayoutCatalog.registerIfAbsent(LayoutKind(
            name: "test-pinned", about: "a list with pinned headers and footers",
            keys: [
                .number("headerHeight", default: 40, in: 0...200),
                .number("footerHeight", default: 0, in: 0...200),
                .bool("stacked", default: false),
                .bool("pinFooters", default: false),
                .number("pinOffset", default: 0, in: 0...200),
            ],
            workloads: [.stickyScroll, .reuseScroll],
            strategies: [
                LayoutStrategy(name: "test-pinned", about: "correct", reproduces: "a test layout"),
                LayoutStrategy(name: "test-pinned-forgets", about: "broken on purpose: forgets a pinned header", reproduces: "a bug"),
            ],
            sameGeometryAs: .builtIn("list") { input in
                [
                    "lineSpacing": .number(2),
                    "header.height": .number(try input.number("headerHeight")),
                    "header.pin": .string(try input.bool("stacked") ? "stacked" : "normal"),
                    "footer.height": .number(try input.number("footerHeight")),
                    "footer.pin": .string(try input.bool("pinFooters") ? "normal" : "none"),
                    "pinOffset": .number(try input.number("pinOffset")),
                ]
            },
            factory: { input in
                let style = SectionStyle(
                    kind: .list, lineSpacing: 2, headerHeight: try input.number("headerHeight"), footerHeight: try input.number("footerHeight"),
                    headerPin: try input.bool("stacked") ? .stacked : .normal, footerPin: try input.bool("pinFooters") ? .normal : .none)
                var base = try SectionedLayout(bounds: input.bounds, styles: [style], data: input.data, pinOffset: try input.number("pinOffset"))
                try base.prepare()
                return PinnedListLayout(base: base, forgetsPinnedHeader: input.strategy == "test-pinned-forgets")
            }))
    }()
}

@Suite struct LayoutScrollWorkloadTests {
    init() {
        TestKinds.registered
        PinnedKinds.registered
    }

    /// A random `test-pinned` scenario of `items` items.
    static func randomScenario(_ rng: inout SplitMix64, workload: String, modes: String) -> (text: String, items: Int) {
        let sections = rng.nextInt(in: 1...40)
        let items = rng.nextInt(in: 20...400)
        let header = [0.0, 20, 44, 60][rng.nextInt(in: 0...3)]
        let footer = [0.0, 0, 24][rng.nextInt(in: 0...2)]
        let layout = """
            {"kind": "test-pinned", "headerHeight": \(header), "footerHeight": \(footer), "stacked": \(rng.nextInt(in: 0...3) == 0), \
            "pinFooters": \(rng.nextInt(in: 0...1) == 0), "pinOffset": \([0, 0, 64][rng.nextInt(in: 0...2)])}
            """
        let data = #"{"generate": {"sections": \#(sections), "heights": {"distribution": "uniform", "min": 20, "max": 160}, "seed": \#(rng.nextInt(in: 1...1000))}}"#
        return (scenarioJSON(layout: layout, data: data, workload: workload, modes: modes, items: "[\(items)]"), items)
    }

    /// The verification failure of the scenario's first mode at its item count, or nil.
    static func failure(_ text: String, items: Int) throws -> String? {
        let plan = try BenchmarkPlan(scenario: try parseScenario(text))
        do {
            _ = try plan.workload.makeGroup(scenario: plan.scenario, items: items).measure(mode: plan.modes[0], verify: true)
            return nil
        } catch let error as VerificationError {
            return error.description
        }
    }

    /// The first step of the sticky trace at which the correct layout's answer holds a pinned
    /// header, and the lowest such header: where the broken layout must be caught. Computed here
    /// by driving the correct layout directly, not through the workload.
    static func firstPinnedHeader(_ text: String, items: Int, steps: Int) throws -> (step: Int, header: ElementID)? {
        let scenario = try parseScenario(text)
        let kind = try #require(LayoutCatalog.kind(named: "test-pinned"))
        var layout = try kind.factory(LayoutInput(
            bounds: scenario.viewport, data: try scenario.makeData(items: items), strategy: "test-pinned",
            selection: scenario.layoutSelection!, scenarioLayout: scenario.layout))
        let trace = StickyScrollTrace(contentHeight: layout.contentSize.height, viewportHeight: scenario.viewport.height, steps: steps)
        var answer: [LayoutAttributes] = []
        for (step, offset) in trace.offsets.enumerated() {
            let bounds = Rect(x: 0, y: offset, width: scenario.viewport.width, height: scenario.viewport.height)
            if layout.shouldInvalidate(forBoundsChange: bounds) {
                layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
                try layout.prepare()
            }
            layout.elements(in: bounds, into: &answer)
            if let first = answer.first(where: { $0.isPinned && $0.id.kind == .header }) { return (step, first.id) }
        }
        return nil
    }

    /// Differential, on seeded random pinned lists: the correct layout passes both scroll
    /// workloads (their verification raises no false alarm, including the pinned-geometry check
    /// against the reference), and the layout that forgets a pinned header is caught exactly at
    /// the first step where one is visible, naming that header — or passes when none ever is.
    @Test func stickyScrollVerificationAgreesWithTheTruth() throws {
        var rng = SplitMix64(seed: 3030)
        var caught = 0
        for _ in 0..<25 {
            let steps = 120
            let workload = #"{"kind": "layout-sticky-scroll", "steps": \#(steps)}"#
            var copy = rng
            let (correct, items) = Self.randomScenario(&rng, workload: workload, modes: #"["test-pinned"]"#)
            let (broken, _) = Self.randomScenario(&copy, workload: workload, modes: #"["test-pinned-forgets"]"#)
            let correctFailure = try Self.failure(correct, items: items)
            #expect(correctFailure == nil, "\(correct) \(correctFailure ?? "")")
            let failure = try Self.failure(broken, items: items)
            if let (step, header) = try Self.firstPinnedHeader(correct, items: items, steps: steps) {
                caught += 1
                let expected = "layout test-pinned (mode test-pinned-forgets): check query-missing at scroll step \(step): element \(header): "
                #expect(failure?.contains(expected) == true, "\(failure ?? "passed"), expected \(expected)")
            } else {
                #expect(failure == nil, "\(broken)")
            }
        }
        #expect(caught >= 10, "too few random cases pin a header (\(caught))")
    }

    @Test func reuseScrollCatchesTheForgottenHeaderToo() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "test-pinned", "headerHeight": 44}"#,
            data: #"{"generate": {"sections": 20, "heights": {"distribution": "uniform", "min": 40, "max": 90}, "seed": 4}}"#,
            workload: #"{"kind": "layout-reuse-scroll", "frames": 200}"#, modes: #"["test-pinned-forgets"]"#, items: "[300]")
        let failure = try #require(try Self.failure(text, items: 300))
        #expect(failure.contains("check query-missing at scroll step "), "\(failure)")
        #expect(failure.contains(": element header["), "\(failure)")
        #expect(try Self.failure(text.replacingOccurrences(of: "test-pinned-forgets", with: "test-pinned"), items: 300) == nil)
    }

    /// The cells of a whole run: every built-in kind and the test stack pass, and with stacks as
    /// deep as the most visible the cells created are the fewest the trace needs.
    @Test(arguments: [
        (#"{"kind": "waterfall", "columns": 3, "header": {"height": 30, "pin": "normal"}, "footer": {"height": 20, "pin": "normal"}, "background": true}"#, "waterfall"),
        (#"{"kind": "list", "header": {"height": 30, "pin": "stacked"}}"#, "list"),
        (#"{"kind": "flow", "itemSpacing": 4}"#, "flow"),
        (#"{"kind": "test-pinned", "headerHeight": 30, "pinFooters": true, "footerHeight": 10}"#, "test-pinned"),
    ])
    func reuseScrollCountsMatchThePlainSimulation(layout: String, mode: String) throws {
        let widths = mode == "flow" ? #", "widths": {"distribution": "uniform", "min": 40, "max": 150}"# : ""
        let text = scenarioJSON(
            layout: layout,
            data: #"{"generate": {"sections": 12, "heights": {"distribution": "uniform", "min": 30, "max": 200}\#(widths), "seed": 9}}"#,
            workload: #"{"kind": "layout-reuse-scroll", "frames": 300, "identifiers": 4}"#, modes: "[\"\(mode)\"]", items: "[500]")
        let plan = try BenchmarkPlan(scenario: try parseScenario(text))
        let measured = try plan.workload.makeGroup(scenario: plan.scenario, items: 500).measure(mode: plan.modes[0], verify: true)
        func value(_ metric: Metric) -> Double? { measured.observations.first { $0.metric == metric }?.values.first }
        let created = try #require(value(.cellsCreated)), needed = try #require(value(.cellsNeeded))
        #expect(created == needed)
        #expect(try #require(value(.mostVisible)) > 0)
        #expect(try #require(value(.dequeues)) >= created)
    }

    /// Differential, on seeded random scrolls of non-contiguous visible sets (what a waterfall or
    /// a grid with headers shows): after every step the pool's cells and counts are the plain
    /// simulation's.
    @Test func slotReusePoolAgreesWithThePlainSimulation() throws {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<30 {
            let sections = rng.nextInt(in: 1...6)
            var counts: [Int] = []
            for _ in 0..<sections { counts.append(rng.nextInt(in: 0...60)) }
            let data = try LayoutData(sections: counts.map { Array(repeating: ItemSize(height: 10), count: $0) })
            var ids: [ElementID] = []
            for (s, count) in counts.enumerated() {
                ids += (0..<count).map { ElementID.item($0, section: s) }
                ids += [.header(section: s), .footer(section: s), .decoration(section: s)]
            }
            // An element no section has: it gets a slot after the standard ones.
            let odd = ElementID(kind: .decoration, section: 0, index: 7)
            ids.append(odd)
            let identifierCount = rng.nextInt(in: 1...5)
            let steps = rng.nextInt(in: 1...200)
            var answers: [[LayoutAttributes]] = []
            var start = 0
            for _ in 0..<steps {
                start = max(0, min(ids.count - 1, start + rng.nextInt(in: -8...12)))
                let window = ids[start..<min(ids.count, start + rng.nextInt(in: 0...40))]
                // A random subset of the window, in random order, sometimes with a repeat.
                var answer = window.filter { _ in rng.nextInt(in: 0...3) != 0 }.map { LayoutAttributes(id: $0, frame: Rect(x: 0, y: 0, width: 1, height: 1)) }
                answer.shuffle(using: &rng)
                if let first = answer.first, rng.nextInt(in: 0...9) == 0 { answer.append(first) }
                answers.append(answer)
            }
            let mostVisible = answers.map { Set($0.map(\.id)).count }.max() ?? 0
            let reuse = ElementReuse(
                slots: ElementSlots(data: data).adding([odd]), identifiers: identifierCount, seed: rng.nextInt(in: 0...99), mostVisible: mostVisible)
            var oracle = ReuseReference()
            for (step, answer) in answers.enumerated() {
                _ = reuse.show(answer)
                let expected = oracle.step(answer.map(\.id)) { Int(reuse.identifier(of: $0)) }
                let problem = reuse.firstProblem(answer: answer, expected: expected, step: "step \(step)")
                #expect(problem == nil, "\(problem!)")
                if problem != nil { break }
            }
            // With unbounded free cells (no stack ever full) the cells created are the fewest needed.
            #expect(oracle.cellsNeeded == reuse.pool.statistics.cellsCreated)
            #expect(reuse.pool.statistics.discarded == 0)
        }
    }

    /// The break on purpose, once, deterministically: a simulation that gives headers the items'
    /// identifier 0 counts fewer cells than the pool creates.
    @Test func aMisledSimulationIsCaught() throws {
        let data = try LayoutData(sections: [Array(repeating: ItemSize(height: 10), count: 4)])
        let reuse = ElementReuse(slots: ElementSlots(data: data), identifiers: 1, seed: 0, mostVisible: 5)
        var misled = ReuseReference()
        let frame = Rect(x: 0, y: 0, width: 1, height: 1)
        let first = [LayoutAttributes(id: .header(section: 0), frame: frame)]
        let second = [LayoutAttributes(id: .item(0, section: 0), frame: frame)]
        _ = reuse.show(first)
        _ = misled.step(first.map(\.id)) { _ in 0 }
        _ = reuse.show(second)
        let expected = misled.step(second.map(\.id)) { _ in 0 }
        let violation = try #require(reuse.firstProblem(answer: second, expected: expected, step: "scroll step 1"))
        #expect(violation.description == "check reuse-created at scroll step 1: the pool counts 2, the plain simulation of the reuse rules 1")
    }

    @Test func aKindWithoutTheScrollWorkloadsIsRefusedAtLoad() throws {
        // test-stack declares layout-prepare and layout-query only.
        for workload in ["layout-sticky-scroll", "layout-reuse-scroll"] {
            do {
                _ = try BenchmarkPlan(scenario: try parseScenario(stackScenario(workload: #"{"kind": "\#(workload)"}"#)))
                Issue.record("\(workload) was accepted")
            } catch {
                #expect(error.description == #"test.json: workload.kind: layout kind "test-stack" does not support "\#(workload)"; it supports "layout-prepare", "layout-query""#)
            }
        }
    }

    /// The timed scroll steps allocate nothing once warm (the answer buffer, the slots and the
    /// pool are reused), measured by the runner's allocation counters in an optimized build, for a built-in list with
    /// pinned headers and for a waterfall whose visible set is not a range; and so do `layout-resize`'s
    /// width changes (the built-in layout lays out again in the storage it has).
    @Test(arguments: [
        #"{"kind": "list", "header": {"height": 30, "pin": "normal"}, "footer": {"height": 20, "pin": "normal"}}"#,
        #"{"kind": "waterfall", "columns": 3, "header": {"height": 30, "pin": "stacked"}, "background": true}"#,
    ])
    func scrollStepsAllocateNothingInSteadyState(layout: String) throws {
        try #require(AllocationCounters.isAvailable)
        for (workload, operation) in [
            (#"{"kind": "layout-sticky-scroll", "steps": 200}"#, "scroll-step"), (#"{"kind": "layout-reuse-scroll", "frames": 200}"#, "scroll-step"),
            (#"{"kind": "layout-resize"}"#, "resize-step"),
        ] {
            let mode = layout.contains("waterfall") ? "waterfall" : "list"
            let text = scenarioJSON(
                layout: layout,
                data: #"{"generate": {"sections": 20, "heights": {"distribution": "uniform", "min": 30, "max": 200}, "seed": 9}}"#,
                workload: workload, modes: "[\"\(mode)\"]", items: "[2000]")
            let plan = try BenchmarkPlan(scenario: try parseScenario(text), quick: true)
            let outcome = BenchmarkRunner(plans: [plan], options: .init(policy: .quick, verify: true)).run()
            #expect(outcome.failures.isEmpty, "\(outcome.failures)")
            for metric in [Metric.allocs, .allocBytes] {
                let values = try #require(outcome.series.first { $0.operation == operation && $0.metric == metric }?.values)
                // Unoptimized generic code allocates (boxes, copies): only an optimized build
                // (`swift test -c release`, and every timed run) is held to zero.
                #if !DEBUG
                #expect(values.allSatisfy { $0 == 0 }, "\(workload) \(metric): \(values)")
                #endif
            }
        }
    }
}
