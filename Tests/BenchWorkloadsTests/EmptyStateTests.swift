import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// A data source with no items at all (an empty state: headers, footers, insets and backgrounds
/// only) lays out as UIKit does, in every workload and mode, and verifies.
@Suite struct EmptyStateTests {
    static let layout = #"""
        {"kind": "list", "itemSpacing": 6, "lineSpacing": 4, "insets": {"top": 5, "left": 8, "bottom": 7, "right": 8},
         "header": {"height": 30}, "footer": {"height": 12}, "background": true,
         "sections": [{"kind": "list"}, {"kind": "flow", "justify": "space-evenly"}, {"kind": "waterfall", "columns": 3}]}
        """#
    static let emptyData = #"{"sections": [[], [], []]}"#

    @Test func sectionsWithoutItemsKeepTheirChrome() throws {
        let scenario = try parseScenario(scenarioJSON(layout: Self.layout, data: Self.emptyData, items: nil))
        #expect(scenario.itemCounts == [0])
        let data = try scenario.makeData(items: 0)
        #expect(data.itemCount == 0 && data.sectionCount == 3)
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: scenario.makeStyles(), data: data)
        try layout.prepare()
        // Each section: header 30, top inset 5, no items, bottom inset 7, footer 12 = 54 pt.
        #expect(layout.frames.sectionTops == [0, 54, 108, 162])
        #expect(layout.contentSize.height == 162)
        #expect(layout.frames.headerFrame(1) == Rect(x: 0, y: 54, width: 390, height: 30))
        #expect(layout.frames.footerFrame(2) == Rect(x: 0, y: 150, width: 390, height: 12))
        #expect(layout.frames.allElements().count == 9)
        // Every query mode agrees with the exact answer.
        for mode in RectQueryMode.allCases {
            var buffer: [LayoutAttributes] = []
            layout.setQueryMode(mode)
            try layout.prepare()
            layout.elements(in: Rect(x: 0, y: 60, width: 390, height: 60), into: &buffer)
            let ids = Set(buffer.map(\.id))
            if mode.isExact {
                #expect(ids == [.header(section: 1), .footer(section: 1), .decoration(section: 1), .decoration(section: 2),
                                .header(section: 2)], "\(mode)")
            }
        }
    }

    @Test func everyWorkloadRunsOnAnEmptyState() throws {
        let workloads: [(String, [String])] = [
            (#"{"kind": "prepare"}"#, PrepareWorkload.modes.map(\.name)),
            (#"{"kind": "query", "frames": 20}"#, QueryWorkload.modes.map(\.name)),
            (#"{"kind": "append", "batch": 5, "steps": 3}"#, AppendWorkload.modes.map(\.name)),
            (#"{"kind": "edit", "steps": 3, "operations": ["insert"]}"#, EditWorkload.modes.map(\.name)),
            (#"{"kind": "sticky-scroll", "steps": 20}"#, StickyScrollWorkload.modes.map(\.name)),
        ]
        for (workload, modes) in workloads {
            // Sticky scrolling pins the headers and footers of the empty sections.
            let layout = workload.contains("sticky")
                ? Self.layout.replacingOccurrences(of: #""header": {"height": 30}, "footer": {"height": 12}"#,
                                                   with: #""header": {"height": 30, "pin": "normal"}, "footer": {"height": 12, "pin": "normal"}"#)
                : Self.layout
            let text = scenarioJSON(layout: layout, data: Self.emptyData, workload: workload,
                                    modes: "[" + modes.map { "\"\($0)\"" }.joined(separator: ", ") + "]", items: nil)
            try exerciseEveryMode(plan(text), items: 0)
        }
    }

    @Test func deletingFromNothingIsRefusedAtLoadTime() {
        expectPlanError({
            try plan(scenarioJSON(layout: Self.layout, data: Self.emptyData, workload: #"{"kind": "edit", "steps": 3}"#,
                                  modes: #"["full"]"#, items: nil))
        }, path: "workload.operations", "needs at least one item")
    }
}

/// Builds and verifies every mode of `plan` at `items` items, then runs each operation twice.
func exerciseEveryMode(_ plan: BenchmarkPlan, items: Int) throws {
    let group = try plan.workload.makeGroup(scenario: plan.scenario, items: items)
    for mode in plan.modes {
        let measured = try group.measure(mode: mode, verify: true)
        for (_, work) in measured.operations {
            switch work {
            case .batchable(let operation):
                operation.rewind()
                _ = try operation.run(count: 2)
            case .consuming(let operation):
                operation.rewind()
                for _ in 0..<Swift.min(2, operation.traceLength) {
                    try operation.prepareNext()
                    _ = try operation.runNext()
                }
            }
        }
    }
}
