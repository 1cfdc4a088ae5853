import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
import LayoutEngine

@Suite struct ScenarioParsingTests {
    /// docs/scenario-format.md's normative example, verbatim.
    static let normativeExample = """
    {
      "name": "waterfall-append",
      "description": "3-column waterfall; load more pages of 100 items",
      "viewport": { "width": 390, "height": 844 },
      "layout": {
        "kind": "waterfall",
        "columns": 3,
        "itemSpacing": 8,
        "lineSpacing": 8,
        "insets": { "top": 0, "left": 8, "bottom": 0, "right": 8 },
        "header": { "height": 44, "pin": "none" },
        "footer": { "height": 0, "pin": "none" },
        "background": false,
        "sections": [ { "kind": "flow", "justify": "space-between", "align": "center" }, { "kind": "waterfall" } ]
      },
      "data": {
        "generate": { "sections": 10, "heights": { "distribution": "uniform", "min": 60, "max": 300 }, "seed": 7 }
      },
      "workload": { "kind": "append", "batch": 100, "steps": 50 },
      "modes": ["full", "incremental"],
      "items": [1000, 30000, 1000000]
    }
    """

    @Test func normativeExampleParses() throws {
        let s = try Scenario(parsing: Self.normativeExample, file: "Scenarios/waterfall-append.json")
        #expect(s.name == "waterfall-append")
        #expect(s.description == "3-column waterfall; load more pages of 100 items")
        #expect(s.viewport == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(s.itemCounts == [1000, 30000, 1_000_000])
        #expect(s.modes == ["full", "incremental"])
        #expect(s.workload.kind == "append")
        #expect(s.workload.value["batch"] == .number(JSONNumber(value: 100, integer: 100, isIntegerLiteral: true, literal: "100")))
        #expect(s.layout.pinOffset == 0)

        let styles = s.makeStyles()
        #expect(styles.count == 2)
        let common = SectionStyle(
            kind: .list, insets: EdgeInsets(top: 0, left: 8, bottom: 0, right: 8), itemSpacing: 8, lineSpacing: 8,
            headerHeight: 44, footerHeight: 0, background: false)
        var flow = common
        flow.kind = .flow(justify: .spaceBetween, align: .center)
        var waterfall = common
        waterfall.kind = .waterfall(WaterfallStyle(columns: 3))
        #expect(styles == [flow, waterfall])
        #expect(s.layout.sections.map(\.path) == ["layout.sections[0]", "layout.sections[1]"])
        #expect(s.layout.sections.allSatisfy { $0.headerPin == .none && $0.footerPin == .none })

        guard case .generated(let g) = s.data else {
            Issue.record("expected generated data")
            return
        }
        #expect(g == DataGenerator(sections: 10, heights: .uniform(min: 60, max: 300), seed: 7))
        let data = try s.makeData(items: 1000)
        #expect(data.sectionCount == 10)
        #expect((0..<10).map { data.itemCount(inSection: $0) } == Array(repeating: 100, count: 10))
        #expect(data.heights.allSatisfy { $0 >= 60 && $0 <= 300 })
        // Flow sections (0, 2, 4, …) get the default width 100; waterfall items none.
        #expect(data.itemRange(inSection: 0).allSatisfy { data.widths[$0] == 100 })
        #expect(data.itemRange(inSection: 1).allSatisfy { data.widths[$0] == 0 })
        // The engine accepts what the scenario makes.
        _ = try SectionedLayout(bounds: s.viewport, styles: styles, data: data)
    }

    @Test func defaultsAndOverrides() throws {
        let s = try parseScenario(scenarioJSON(
            layout: #"""
            {"kind": "list", "lineSpacing": 2, "insets": {"left": 10, "right": 10, "top": 4},
             "header": {"height": 30}, "pinOffset": 64,
             "sections": [{}, {"kind": "waterfall", "insets": {"left": 0}, "direction": "right-to-left", "weights": [1, 3]},
                          {"kind": "flow", "header": {"height": 0}, "background": true}]}
            """#))
        #expect(s.viewportSize == Size(width: 390, height: 844))
        #expect(s.layout.pinOffset == 64)
        let styles = s.makeStyles()
        #expect(styles.count == 3)
        #expect(styles[0] == SectionStyle(
            kind: .list, insets: EdgeInsets(top: 4, left: 10, bottom: 0, right: 10), lineSpacing: 2, headerHeight: 30))
        #expect(styles[1].kind == .waterfall(WaterfallStyle(columns: 2, weights: [1, 3], direction: .rightToLeft)))
        #expect(styles[1].insets == EdgeInsets(top: 4, left: 0, bottom: 0, right: 10))
        #expect(styles[2].kind == .flow(justify: .start, align: .start))
        #expect(styles[2].headerHeight == 0)
        #expect(styles[2].background)
        #expect(styles[2].lineSpacing == 2)
    }

    @Test func explicitData() throws {
        let s = try parseScenario(scenarioJSON(
            layout: #"{"kind": "waterfall", "sections": [{}, {"kind": "flow"}]}"#,
            data: #"{"sections": [[{"h": 10}, {"h": 20, "fullWidth": true}], [{"w": 30, "h": 5}], [{"h": 7, "w": 1}]]}"#,
            items: nil))
        #expect(s.items == nil)
        #expect(s.itemCounts == [4])
        let data = try s.makeData(items: 4)
        #expect(data.sectionCount == 3)
        #expect(data.heights == [10, 20, 5, 7])
        #expect(data.widths == [0, 0, 30, 1])
        #expect(data.spansAllColumns == [false, true, false, false])
        #expect(throws: ScenarioError(file: "test.json", path: "data", message:
                                       "explicit data has 4 items; cannot take the first 5 (an item count for explicit data must be from 1 to 4)")) {
            try s.makeData(items: 5)
        }
        // A prefix: the first 3 items, and the sections they fall in.
        let prefix = try s.makeData(items: 3)
        #expect(prefix.sectionCount == 2)
        #expect(prefix.heights == [10, 20, 5])
    }

    @Test func parserKeepsOrderTypesAndLiterals() throws {
        let v = try JSONParser.parse(#"{"b": true, "a": [1, 1.0, -0, 2e2, "x\u00e9\n"], "c": null}"#, file: "t")
        guard case .object(let members) = v else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a", "c"])
        #expect(members[0].value == .bool(true))
        #expect(members[2].value == .null)
        guard case .array(let a) = members[1].value, case .number(let one) = a[0], case .number(let oneDotZero) = a[1],
              case .number(let hundreds) = a[3]
        else {
            Issue.record("expected numbers")
            return
        }
        #expect(one.isIntegerLiteral && one.integer == 1)
        #expect(!oneDotZero.isIntegerLiteral && oneDotZero.value == 1 && oneDotZero.integer == nil)
        #expect(!hundreds.isIntegerLiteral && hundreds.value == 200)
        #expect(a[4] == .string("xé\n"))
        #expect(try JSONParser.parse("\u{FEFF}{}", file: "t") == .object([]))
        #expect(try JSONParser.parse(#"{"s": "\ud83d\ude00"}"#, file: "t")["s"] == .string("😀"))
    }
}
