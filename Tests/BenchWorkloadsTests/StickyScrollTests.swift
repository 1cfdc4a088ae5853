import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine
import LayoutReference

/// A small page with every kind of pin: a stacked tab bar, normal headers over list, flow and
/// waterfall sections, pinned footers, and a navigation bar.
let stickyScenario = scenarioJSON(
    layout: #"""
    {"kind": "list", "itemSpacing": 4, "lineSpacing": 2, "pinOffset": 30,
     "insets": {"top": 6, "left": 8, "bottom": 10, "right": 8},
     "header": {"height": 30, "pin": "normal"}, "footer": {"height": 16, "pin": "normal"}, "background": true,
     "sections": [{"header": {"height": 40, "pin": "stacked"}}, {"kind": "flow", "justify": "center"},
                  {"kind": "waterfall", "columns": 3, "footer": {"pin": "none"}}, {}, {"header": {"pin": "none"}}]}
    """#,
    data: #"{"generate": {"sections": 23, "heights": {"distribution": "uniform", "min": 20, "max": 160}, "widths": {"distribution": "uniform", "min": 40, "max": 200}, "seed": 5}}"#,
    workload: #"{"kind": "sticky-scroll", "steps": 300}"#,
    modes: #"["relayout", "scan", "cached", "viewport-query"]"#,
    items: "[200, 3000]")

@Suite struct StickyScrollTests {
    static func fixture(items: Int) throws -> StickyScrollFixture {
        let scenario = try parseScenario(stickyScenario)
        return try StickyScrollWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: items)
    }

    /// Every mode passes verification at every step, and the check is not vacuous: most steps
    /// show pinned headers, many a pinned footer.
    @Test func everyModeIsVerifiedAtEveryStep() throws {
        for items in [200, 3000] {
            let fixture = try Self.fixture(items: items)
            for mode in StickyScrollWorkload.Mode.allCases {
                let measurement = try fixture.makeMeasurement(mode: mode, verify: true)
                #expect(measurement.operations.count == 1)
                #expect(measurement.observations.first?.values.count == 300)
            }
            let pinned = fixture.viewports.map { viewport in
                fixture.reference.pinnedElements(in: viewport, pinOffset: 30, offset: viewport.minY, viewportHeight: 844)
                    .filter(\.isPinned)
            }
            #expect(pinned.filter { !$0.isEmpty }.count > 250)
            #expect(pinned.filter { $0.contains { $0.id.kind == .footer } }.count > 50)
        }
    }

    /// The verification catches a layout whose pinned frames are wrong: the natural answers (what
    /// a layout that ignores the pins returns) fail it, and so does a wrong pinOffset.
    @Test func wrongAnswersAreCaught() throws {
        let fixture = try Self.fixture(items: 200)
        var natural = try fixture.makeLayout(mode: .viewportQuery)
        var wrongOffset = try SectionedLayout(
            bounds: fixture.scenario.viewport, styles: fixture.styles, data: fixture.data, pinOffset: 10)
        var caughtNatural = 0, caughtOffset = 0
        var buffer: [LayoutAttributes] = []
        for viewport in fixture.viewports {
            try natural.prepare()
            natural.elements(in: viewport, into: &buffer)
            if fixture.check(mode: .cached, viewport: viewport, answer: buffer) != nil { caughtNatural += 1 }
            wrongOffset.invalidate(with: .bounds(viewport))
            try wrongOffset.prepare()
            wrongOffset.elements(in: viewport, into: &buffer)
            if fixture.check(mode: .cached, viewport: viewport, answer: buffer) != nil { caughtOffset += 1 }
        }
        #expect(caughtNatural > 250)
        #expect(caughtOffset > 250)
    }

    /// The trace pulls past the top and past the end, drags in 10–40 pt steps, flings, and jumps to the top.
    @Test func traceCoversRubberBandsDragsFlingsAndJumps() {
        let content = 100_000.0, viewport = 844.0
        let trace = StickyScrollTrace(contentHeight: content, viewportHeight: viewport, steps: 600)
        let offsets = trace.offsets
        #expect(offsets.count == 600)
        #expect(offsets.contains { $0 < -50 })
        #expect(offsets.contains { $0 > content - viewport + 50 })
        #expect(offsets.allSatisfy { $0 >= -60 && $0 <= content - viewport + 60 })
        let steps = zip(offsets, offsets.dropFirst()).map { abs($1 - $0) }
        #expect(steps.filter { $0 >= 10 && $0 <= 40 }.count > 200)
        #expect(steps.contains { $0 > 100 && $0 <= 160 })                // flings
        #expect(steps.contains { $0 >= content - viewport })              // the jump to the top
        #expect(StickyScrollTrace(contentHeight: content, viewportHeight: viewport, steps: 600) == trace)
        // Content shorter than the viewport: only the rubber bands move.
        let short = StickyScrollTrace(contentHeight: 300, viewportHeight: viewport, steps: 50)
        #expect(short.offsets.count == 50 && short.offsets.allSatisfy { $0 >= -60 && $0 <= 60 })
    }

    /// `dump --offset` shows pinned frames, and `render` marks them and the pinOffset line.
    @Test func dumpAndRenderShowPinnedFrames() throws {
        let plan = try BenchmarkPlan(scenario: parseScenario(stickyScenario))
        let snapshot = try LayoutSnapshot(plan: plan, mode: StickyScrollWorkload.Mode.cached, items: 200)
        let offset = 2_000.0
        let all = snapshot.elements(in: nil, offset: offset)
        let reference = try Self.fixture(items: 200).reference
        let everything = Rect(x: -1e6, y: -1e6, width: 2e6, height: 1e7)
        #expect(ReferenceCheck.firstMismatch(
            ofPinnedQuery: everything, answer: all, against: reference, pinOffset: 30, offset: offset, viewportHeight: 844) == nil)
        #expect(all.filter(\.isPinned).count > 3)
        let tabBar = try #require(all.first { $0.id == .header(section: 0) })
        #expect(tabBar.isPinned && tabBar.frame.minY == offset + 30)
        let csv = FrameDump.csv(all)
        #expect(csv.contains("header,0,0,0,2030,390,40,true"))
        // With a rect, the pinned tab bar is there although its natural frame is far above.
        let inViewport = snapshot.elements(in: Rect(x: 0, y: offset, width: 390, height: 844), offset: offset)
        #expect(inViewport.contains(tabBar))
        let svg = SVGRenderer.render(snapshot, offset: offset, title: "sticky")
        #expect(svg.contains("header 0 (pinned)"))
        #expect(svg.contains("pinOffset 30"))
        // The baseline mode has nothing pinned.
        let baseline = try LayoutSnapshot(plan: plan, mode: StickyScrollWorkload.Mode.viewportQuery, items: 200)
        let baselineElements = baseline.elements(in: nil, offset: offset)
        #expect(baselineElements.allSatisfy { !$0.isPinned })
    }
}
