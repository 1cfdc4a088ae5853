import Foundation
import Testing
@testable import LayoutBenchKit
import LayoutEngine

@Suite struct InspectTests {
    @Test func dumpListsEveryElementOrOnlyWhatTheModeReturns() throws {
        let plan = try BenchmarkPlan(scenario: parseScenario(mixedScenario))
        let snapshot = try LayoutSnapshot(plan: plan, mode: RectQueryMode.binary, items: 300)
        let all = FrameDump.csv(snapshot.elements(in: nil)).split(separator: "\n")
        #expect(all.first == "kind,section,index,x,y,width,height,pinned")
        #expect(all.count == 1 + snapshot.frames.allElements().count)
        #expect(all[1].hasPrefix("decoration,0,0,0,0,390,"))

        // With a rect: exactly the elements that intersect it, each once.
        let rect = Rect(x: 0, y: 300, width: 390, height: 200)
        let inRect = FrameDump.csv(snapshot.elements(in: rect)).split(separator: "\n").dropFirst()
        let expected = snapshot.frames.allElements().filter { $0.frame.intersects(rect) }
        #expect(inRect.count == expected.count)
        #expect(Set(inRect.map { $0.split(separator: ",").prefix(3).joined(separator: ",") })
                == Set(expected.map { "\($0.id.kind.name),\($0.id.section),\($0.id.index)" }))
    }

    @Test func updateModesAreDumpedAfterTheirTrace() throws {
        let text = scenarioJSON(workload: #"{"kind": "edit", "steps": 4, "operations": ["height-change"]}"#,
                                modes: #"["full", "stable-lanes"]"#)
        let plan = try BenchmarkPlan(scenario: parseScenario(text))
        let full = try LayoutSnapshot(plan: plan, mode: WaterfallUpdateMode.full, items: 100)
        let lanes = try LayoutSnapshot(plan: plan, mode: WaterfallUpdateMode.stableLanes, items: 100)
        #expect(full.frames.itemCount == 100)
        // Stable lanes keep columns through height edits, so the two placements differ.
        #expect(full.frames.firstDifference(from: lanes.frames) != nil)
    }

    @Test func renderDrawsTheBandAroundTheViewport() throws {
        let plan = try BenchmarkPlan(scenario: parseScenario(mixedScenario))
        let snapshot = try LayoutSnapshot(plan: plan, mode: RectQueryMode.binary, items: 300)
        let svg = SVGRenderer.render(snapshot, offset: 1000, title: "a <test> & more")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("a &lt;test&gt; &amp; more"))
        // The dashed viewport outline at the offset.
        #expect(svg.contains("<rect x=\"0\" y=\"1000\" width=\"390\" height=\"844\" fill=\"none\" stroke=\"#d0342c\""))
        // Only the band from one viewport above to two below is drawn.
        let drawn = svg.components(separatedBy: "<title>item[").count - 1
        let band = Rect(x: -1e9, y: 1000 - 844, width: 2e9, height: 3 * 844)
        #expect(drawn == snapshot.frames.allElements().filter { $0.id.kind == .item && $0.frame.intersects(band) }.count)
    }
}
