import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine
import LayoutReference

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

/// Pinning is the layout's: a scenario whose headers pin shows them pinned in `dump --offset` and
/// in every rect-query mode's answers, whatever its workload.
@Suite struct PinnedUnderEveryWorkloadTests {
    static let pinnedLayout = #"""
        {"kind": "waterfall", "columns": 2, "itemSpacing": 8, "insets": {"top": 6, "left": 8, "bottom": 4, "right": 8},
         "header": {"height": 30, "pin": "normal"}, "footer": {"height": 20, "pin": "normal"},
         "sections": [{"kind": "waterfall", "columns": 2}, {"kind": "list", "header": {"height": 24, "pin": "stacked"}}]}
        """#
    static let pinnedData = #"{"generate": {"sections": 7, "heights": {"distribution": "uniform", "min": 40, "max": 160}, "seed": 5}}"#

    static func scenario(workload: String, modes: String) throws -> Scenario {
        try parseScenario(scenarioJSON(
            layout: pinnedLayout, data: pinnedData, workload: workload, modes: modes, items: "[300]",
            extra: #""viewport": {"width": 390, "height": 500}"#))
    }

    @Test(arguments: [-60.0, 0, 137.5, 1200, 3333.25, 1e6])
    func dumpShowsThePinnedFramesOfPrepareAndQueryScenarios(offset: Double) throws {
        for (workload, mode) in [(#"{"kind": "prepare"}"#, "default"), (#"{"kind": "query", "frames": 30}"#, "binary")] {
            let scenario = try Self.scenario(workload: workload, modes: "[\"\(mode)\"]")
            let plan = try BenchmarkPlan(scenario: scenario)
            let snapshot = try LayoutSnapshot(plan: plan, mode: plan.modes[0], items: 300)
            let reference = try ReferenceLayout(
                data: scenario.makeData(items: 300), styles: scenario.makeStyles(), viewportWidth: 390)
            let everything = Rect(x: -1e9, y: -1e9, width: 2e9, height: 4e9)
            let expected = reference.pinnedElements(in: everything, pinOffset: 0, offset: offset, viewportHeight: 500)
            let dumped = snapshot.elements(in: nil, offset: offset)
            #expect(dumped.count == expected.count, "\(workload) at \(offset)")
            let byID = Dictionary(uniqueKeysWithValues: dumped.map { ($0.id, $0) })
            for element in expected {
                guard let actual = byID[element.id] else { Issue.record("\(element.id) missing"); continue }
                #expect(ReferenceTolerance.equal(actual.frame, element.frame), "\(workload) at \(offset): \(element.id)")
            }
            #expect(offset <= 0 || offset > reference.contentHeight || dumped.contains { $0.isPinned }, "\(workload) at \(offset)")
            // With a rect, what the mode's query returns with the pins.
            let rect = Rect(x: 0, y: offset, width: 390, height: 500)
            #expect(ReferenceCheck.firstMismatch(
                ofPinnedQuery: rect, answer: snapshot.elements(in: rect, offset: offset), against: reference,
                pinOffset: 0, offset: offset, viewportHeight: 500) == nil)
        }
    }

    @Test func dumpShowsPinnedHeadersAfterAnUpdateTrace() throws {
        for (workload, modes) in [(#"{"kind": "append", "steps": 4}"#, #"["full"]"#), (#"{"kind": "edit", "steps": 4}"#, #"["incremental"]"#)] {
            let plan = try BenchmarkPlan(scenario: Self.scenario(workload: workload, modes: modes))
            let snapshot = try LayoutSnapshot(plan: plan, mode: plan.modes[0], items: 300)
            let offset = snapshot.frames.sectionTops[2] + 10
            let header = snapshot.elements(in: nil, offset: offset).first { $0.id == .header(section: 2) }
            #expect(header?.isPinned == true, "\(workload)")
            // Below the stacked 24 pt header of section 1, which has pinned too.
            #expect(header?.frame.minY == offset + 24, "\(workload)")
        }
    }

    /// Every rect-query mode of a query scenario with pins passes verification against the
    /// reference's pinning, and an answer with the natural frames of pinned headers does not.
    @Test func queryVerificationChecksThePinnedFrames() throws {
        let modes = RectQueryMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        let scenario = try Self.scenario(workload: #"{"kind": "query", "frames": 120}"#, modes: "[\(modes)]")
        let fixture = try QueryFixture(scenario: scenario, items: 300, frames: 120)
        #expect(fixture.pins)
        for mode in RectQueryMode.allCases {
            _ = try fixture.makeMeasurement(mode: mode, verify: true)
        }
        let natural = RectQueryMode.linear.make(frames: fixture.layout.frames)
        #expect(throws: VerificationError.self) {
            _ = try fixture.check(mode: "natural", isExact: true, verify: true) { rect, buffer in
                natural.elements(in: rect, frames: fixture.layout.frames, into: &buffer)
            }
        }
    }
}
