import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// Rules the docs state for inputs that once went unenforced or refused what they allow (issue 34,
/// item 10): data files that end in blank lines, templated heights within the documented limits,
/// and the temporary directory a run needs.
@Suite struct InputRulesTests {
    /// docs/scenario-format.md: "a blank line is an error except at the end". A file ending in one
    /// blank line (an editor's final newline twice) was refused.
    @Test func dataFilesMayEndInBlankLines() throws {
        let accepted: [(String, String, Int)] = [
            ("x.csv", "section,w,h\n0,,44\n0,,50\n\n", 2),
            ("x.csv", "section,w,h\r\n0,,44\r\n\r\n\r\n", 1),
            ("x.csv", "section,w,h\n0,,44\n \n\t\n", 1),
            ("x.jsonl", "{\"section\": 0, \"h\": 44}\n{\"section\": 0, \"h\": 50}\n\n", 2),
            ("x.jsonl", "{\"section\": 0, \"h\": 44}\n \n\t\r\n\n", 1),
        ]
        for (name, text, count) in accepted {
            let files = ["s.json": scenarioJSON(layout: #"{"kind": "list"}"#, data: #"{"file": "\#(name)"}"#, items: nil), name: text]
            try ExplicitDataTests.withFiles(files) { folder in
                do throws(ScenarioError) {
                    let scenario = try Scenario.load(path: folder + "/s.json")
                    #expect(scenario.itemCounts == [count], "\(text.debugDescription)")
                } catch {
                    Issue.record("\(text.debugDescription): \(error)")
                }
            }
        }
        // Anywhere else a blank line is an error, as before; so is a file of a header and blank lines.
        #expect(try ExplicitDataTests.dataFileError("x.csv", "section,w,h\n0,,10\n\n0,,10\n\n")?.description
                == "x.csv: line 3, column 1: empty line; expected a row of 3 cells (section,w,h)")
        #expect(try ExplicitDataTests.dataFileError("x.jsonl", "{\"section\": 0, \"h\": 1}\n\n{\"section\": 0, \"h\": 1}\n\n")?.description
                == "x.jsonl: line 2, column 1: empty line; expected an item object such as {\"section\": 0, \"h\": 44}")
        #expect(try ExplicitDataTests.dataFileError("x.csv", "section,w,h\n\n\n")?.message == "no rows after the header; expected one row per item")
    }

    /// A scenario whose rows come from `template`, `items` of them, with `minWords…maxWords` words.
    static func templated(_ template: String, items: Int, words: (Int, Int) = (1, 2), workload: String = #"{"kind": "query", "frames": 10}"#,
                          modes: String = #"["linear"]"#, viewport: String? = nil) -> String {
        scenarioJSON(
            viewport: viewport, layout: #"{"kind": "list"}"#,
            data: #"{"templates": {"t": \#(template)}, "generate": {"heights": {"distribution": "template", "templates": {"t": 1}, "minWords": \#(words.0), "maxWords": \#(words.1)}, "seed": 1}}"#,
            workload: workload, modes: modes, items: "[\(items)]")
    }

    /// 1000 times a view 1e9 pt tall: 1e12 pt whatever the text.
    static let tall = #"{"views": {"box": {"intrinsic": {"height": 1000000000}}}, "constraints": ["box.top == contentView.top", "contentView.bottom == 1000 * box.bottom"]}"#
    /// 5e8 pt: within the size limit.
    static let halfBillion = #"{"views": {"box": {"intrinsic": {"height": 500000000}}}, "constraints": ["box.top == contentView.top", "contentView.bottom == box.bottom"]}"#
    /// 2e8 pt a line of text: 44.5 pt empty, too tall with forty words (seven lines at 390 pt).
    static let wordy = #"""
        {"views": {"label": {"label": {"text": "text", "lineHeight": 200000000, "fontScale": 1, "lines": 0}}},
         "constraints": ["label.leading == contentView.leading", "label.trailing == contentView.trailing",
                         "label.top == contentView.top", "contentView.bottom == label.bottom"]}
        """#

    /// One label whose every line is 1e9 pt: 0 pt with empty texts, past the size limit with one word.
    static let billionLine = #"""
        {"views": {"title": {"label": {"text": "text", "lineHeight": 18}}, "body": {"label": {"text": "detail", "lineHeight": 1000000000}}},
         "constraints": ["title.leading == contentView.leading", "title.trailing == contentView.trailing", "title.top == contentView.top",
                         "body.leading == contentView.leading", "body.trailing == contentView.trailing", "body.top == title.bottom",
                         "contentView.bottom == body.bottom"]}
        """#

    /// Issue 48, item 15: a label with `lineHeight` 1e9 passed the load check (empty texts take no
    /// line) and failed every mode as its rows were measured. A template is also measured with one
    /// line in each label that shows text, and refused at the line height that makes it too tall.
    @Test func oneLineOfTextIsMeasuredWhenTheFileLoads() throws {
        expectPlanError({ try plan(Self.templated(Self.billionLine, items: 10)) }, path: "data.templates.t.views.body.label.lineHeight",
                        "the template's height with one line of text in each label at a row width of 390 pt is 1000000018.5 pt, more than the limit of 1000000000 pt for any size (label \"body\": a line of 1000000000 pt); lower its lineHeight")
        // Rows without text show no line: nothing to refuse.
        _ = try plan(Self.templated(Self.billionLine, items: 10, words: (0, 0)))
        // Explicit items: only the sources the items fill take a line. Texts without details pass…
        func explicit(_ item: String) -> String {
            scenarioJSON(layout: #"{"kind": "list"}"#, data: #"{"templates": {"t": \#(Self.billionLine)}, "sections": [[\#(item)]]}"#,
                         workload: #"{"kind": "query", "frames": 10}"#, modes: #"["linear"]"#, items: nil)
        }
        _ = try plan(explicit(#"{"template": "t", "text": "a"}"#))
        // …one detail does not.
        expectPlanError({ try plan(explicit(#"{"template": "t", "text": "a", "detail": "b"}"#)) },
                        path: "data.templates.t.views.body.label.lineHeight", "a line of 1000000000 pt")
    }

    /// docs/scenario-format.md, "Limits": any size at most 1e9 pt, the content at most 1e13 pt. A
    /// template's height bypassed both: 1e12 pt rows, 1e16 pt of content, were laid out.
    @Test func templatedHeightsKeepTheDocumentedLimits() throws {
        // A template of constant height is measured (empty texts) when the file loads.
        expectPlanError({ try plan(Self.templated(Self.tall, items: 10)) }, path: "data.templates.t",
                        "the template's height with empty texts at a row width of 390 pt is 1000000000000.5 pt, more than the limit of 1000000000 pt for any size")
        // Within the size limit, but 100,000 rows of 5e8 pt pass the content height limit.
        expectPlanError({ try plan(Self.templated(Self.halfBillion, items: 100_000)) }, path: "data.templates.t",
                        "is 500000000.5 pt, more than 100000000 pt, the most a row may take so that 100000 items (after the workload) stay within the content height limit of 10000000000000 pt")
        let fewer = try plan(Self.templated(Self.halfBillion, items: 1000))
        #expect(fewer.scenario.templateHeightLimit.height == 1e9)
        #expect(try fewer.scenario.makeData(items: 1000).heights.allSatisfy { $0 == 500_000_000.5 })
        // The workload's additions count: 1,000 rows and 20,000 appended.
        expectPlanError({ try plan(Self.templated(Self.halfBillion, items: 1000, workload: #"{"kind": "append", "batch": 100, "steps": 200}"#, modes: #"["full"]"#)) },
                        path: "data.templates.t", "so that 21000 items (after the workload)")

        // Heights that only the texts make too large are found as the rows are measured.
        let wordy = try plan(Self.templated(Self.wordy, items: 10, words: (40, 60)))
        #expect {
            _ = try wordy.scenario.makeData(items: 10)
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            return error.path == "data.templates.t" && error.message.hasPrefix("item 0: the template's height at a row width of 390 pt is ")
                && error.message.contains(" pt, more than the limit of 1000000000 pt for any size")
        }
        // Explicit items that name the template: the same, with the item's index.
        let explicit = scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"templates": {"t": \#(Self.wordy)}, "sections": [[{"template": "t", "text": "a"}, {"template": "t", "text": "\#(Array(repeating: "word", count: 80).joined(separator: " "))"}]]}"#,
            workload: #"{"kind": "query", "frames": 10}"#, modes: #"["linear"]"#, items: nil)
        let explicitPlan = try plan(explicit)
        #expect(throws: ScenarioError.self) { _ = try explicitPlan.scenario.makeData(items: 2) }
        do { _ = try explicitPlan.scenario.makeData(items: 2) } catch {
            #expect(error.path == "data.templates.t" && error.message.hasPrefix("item 1: "), "\(error)")
        }

        // The widths a workload measures at besides the layout's: a height-pass rotation to a
        // width where the template (1e6 times its width) is 1e15 pt.
        let wide = #"{"views": {"a": {}, "b": {}, "box": {}}, "constraints": ["a.width == contentView.width", "b.height == 1000 * a.width", "box.height == 1000 * b.height", "box.top == contentView.top", "contentView.bottom == box.bottom"]}"#
        expectPlanError({ try plan(Self.templated(wide, items: 10, workload: #"{"kind": "height-pass", "rotatedWidth": 1000000000}"#, modes: #"["none"]"#, viewport: #"{"width": 100, "height": 844}"#)) },
                        path: "data.templates.t", "at a row width of 1000000000 pt is 1000000000000000.5 pt")
    }

    /// A run keeps its children's input and output in TMPDIR: a missing one was a Foundation error
    /// (`NSCocoaErrorDomain Code=512 "(null)"`) once the first child started.
    @Test func theTemporaryDirectoryIsCheckedByName() throws {
        let missing = "/nonexistent-layout-bench-\(UUID().uuidString)"
        #expect(throws: OutputError.self) { try TemporaryDirectory.check(missing) }
        do { try TemporaryDirectory.check(missing) } catch {
            #expect(error.description.hasPrefix("TMPDIR \(missing): No such file or directory; "), "\(error)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-test-\(UUID().uuidString)").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do { try TemporaryDirectory.check(file) } catch {
            #expect(error.description.hasPrefix("TMPDIR \(file): not a directory; "), "\(error)")
        }
        try TemporaryDirectory.check(FileManager.default.temporaryDirectory.path)
    }

    /// Templated rows carry a generated text and detail each, and the memory estimate left them
    /// out: ten million rows of 10,000 words were accepted, and reserving their texts (400 GB)
    /// ended the process. They count as the text distribution's do, twice.
    @Test func templatedTextsCountInTheMemoryEstimate() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"generate": {"heights": {"distribution": "template", "templates": {"title": 1}, "minWords": 10000, "maxWords": 10000}, "seed": 1}}"#,
            workload: #"{"kind": "query", "frames": 10}"#, modes: #"["linear"]"#, items: "[10000000]")
        expectPlanError({ try plan(text) }, path: "data.generate.heights.maxWords", "texts and details of up to 10000 words")
        let footprint = ScenarioFootprint(plan: try BenchmarkPlan(scenario: parseScenario(text.replacingOccurrences(of: "10000000", with: "1000"))))
        #expect(footprint.memoryTerms.contains { $0.path == "data.generate.heights.maxWords" && $0.bytes >= 2 * 1000 * 10000 * 4 })
    }
}
