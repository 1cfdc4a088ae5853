import Testing
import BenchPlatform
import BenchResults
import BenchScenarios
import LayoutEngine

/// `data.templates` and the `cell-measure` workload: each bad input is one error naming the
/// file, the path, the template and the constraint's index.
@Suite struct TemplateScenarioTests {
    static func scenario(constraints: [String], views: String = #""l": {"label": {"text": "text"}}"#, workload: String = #"{"kind": "cell-measure"}"#,
                         modes: String = #"["edit-width"]"#, weights: String = #"{"t": 1}"#) -> String {
        let list = constraints.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        {"name": "t", "description": "d", "layout": {"kind": "list"},
         "data": {"templates": {"t": {"views": {\(views)}, "constraints": [\(list)]}},
                  "generate": {"heights": {"distribution": "template", "templates": \(weights), "minWords": 1, "maxWords": 5}}},
         "workload": \(workload), "modes": \(modes), "items": [10]}
        """
    }

    static let good = ["l.leading == contentView.leading + 16", "l.trailing == contentView.trailing - 16",
                       "l.top == contentView.top + 8", "contentView.bottom == l.bottom + 8"]

    @Test func goodTemplateLoads() throws {
        let s = try Scenario(parsing: Self.scenario(constraints: Self.good), file: "x.json")
        #expect(s.templates.count == 1)
        #expect(s.templates[0].constraints.count == 4)
        let items = try s.makeItems(items: 10)
        #expect(items.templated?.kinds.count == 10)
    }

    @Test(arguments: [
        ("avtar.leading == contentView.leading", "constraints[4]", "unknown view \"avtar\""),
        ("l.lead == contentView.leading", "constraints[4]", "unknown attribute \"lead\""),
        ("l.leading = contentView.leading", "constraints[4]", "constraint 4"),
        ("l.leading == contentView.leading @1001", "constraints[4]", "outside 1...1000"),
        ("l.leading == contentView.leading @0", "constraints[4]", "outside 1...1000"),
        ("l.leading == contentView.top", "constraints[4]", "different axes"),
        ("l.leading == 10", "constraints[4]", "only width and height"),
        ("l.width == 2 * l.height + ", "constraints[4]", "expected a constant"),
    ])
    func badConstraint(constraint: String, path: String, message: String) throws {
        let text = Self.scenario(constraints: Self.good + [constraint])
        #expect(throws: ScenarioError.self) { try Scenario(parsing: text, file: "x.json") }
        do {
            _ = try Scenario(parsing: text, file: "x.json")
        } catch {
            #expect(error.path == "data.templates.t." + path)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.message.contains("template \"t\""), "\(error.message)")
            #expect(error.description.hasPrefix("x.json: "))
        }
    }

    @Test func labelWithoutTextSource() throws {
        let text = Self.scenario(constraints: Self.good, views: #""l": {"label": {"lineHeight": 18}}"#)
        do {
            _ = try Scenario(parsing: text, file: "x.json")
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("text source"))
        }
    }

    @Test func unknownTemplateInItems() throws {
        let text = Self.scenario(constraints: Self.good, weights: #"{"nope": 1}"#)
        do {
            _ = try Scenario(parsing: text, file: "x.json")
            Issue.record("accepted")
        } catch {
            #expect(error.path == "data.generate.heights.templates.nope")
            #expect(error.message.contains("unknown template"))
        }
    }

    static func explicitScenario(_ items: String) -> String {
        """
        {"name": "t", "description": "d", "layout": {"kind": "list"},
         "data": {"templates": {"t": {"views": {"l": {"label": {"text": "text"}}, "d": {"label": {"text": "detail"}}},
                  "constraints": ["l.leading == contentView.leading + 16", "l.trailing == contentView.trailing - 16",
                                  "l.top == contentView.top + 8", "d.leading == l.leading", "d.trailing == l.trailing",
                                  "d.top == l.bottom", "contentView.bottom == d.bottom + 8"]}},
                  "sections": [\(items)]},
         "workload": {"kind": "cell-measure"}, "modes": ["edit-width"]}
        """
    }

    /// Explicit items name their template; their heights come from it (the separator added).
    @Test func explicitItemsNameTheirTemplate() throws {
        let s = try Scenario(parsing: Self.explicitScenario(#"[{"template": "t", "text": "", "detail": ""}, {"template": "title", "text": "x"}]"#), file: "x.json")
        let items = try s.makeItems(items: 2)
        #expect(items.templated?.templates.map(\.name) == ["t", "title"])
        // 8 + 0 + 0 + 8 = 16, plus 0.5; the title row: 11 + 20.5 + 11 = 42.5, plus 0.5.
        #expect(items.data.size(section: 0, item: 0).height == 16.5)
        #expect(items.data.size(section: 0, item: 1).height == 43)
    }

    @Test(arguments: [
        (#"[{"template": "t", "text": "x", "h": 40}]"#, "data.sections[0][0].h", "leave 'h' out"),
        (#"[{"h": 40, "detail": "x"}]"#, "data.sections[0][0].detail", "give the item a 'template'"),
        (#"[{"template": "nope", "text": "x"}]"#, "data", "unknown template \"nope\""),
        (#"[{"template": "t", "text": "x"}, {"h": 40}]"#, "data", "names no template"),
    ])
    func badExplicitItem(items: String, path: String, message: String) {
        do {
            _ = try Scenario(parsing: Self.explicitScenario(items), file: "x.json")
            Issue.record("accepted \(items)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
