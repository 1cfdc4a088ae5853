import Foundation
import Testing
@testable import LayoutBenchKit
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
}
