@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// Explicit items: the fast scanner against the strict reader, data files (CSV, JSON Lines)
/// against the same items written inline, their errors, and every command's item counts.
@Suite struct ExplicitDataTests {
    static let layout = #"{"kind": "waterfall", "columns": 2, "itemSpacing": 4, "sections": [{}, {"kind": "flow"}, {"kind": "list"}]}"#

    /// Random items for sections cycling waterfall, flow, list: `(section, w, h, fullWidth)`.
    /// With `oversize`, now and then a height beyond `ScenarioLimits.maxSize` (refused by both readers).
    static func randomRows(_ rng: inout SplitMix64, count: Int, oversize: Bool = false) -> [(Int, Double?, Double, Bool)] {
        var rows: [(Int, Double?, Double, Bool)] = []
        var section = 0
        for _ in 0..<count {
            if rng.next(below: 8) == 0 { section += 1 + rng.next(below: 2) }
            let kind = section % 3
            let w: Double? = kind == 1 || rng.next(below: 3) == 0 ? Double(rng.next(below: 300)) + [0, 0.5, 0.25][rng.next(below: 3)] : nil
            let h = oversize && rng.next(below: 400) == 0 ? 2e9 : Double(rng.next(below: 400)) + [0, 0.5, 1e-3][rng.next(below: 3)]
            rows.append((section, w, h, kind == 0 && rng.next(below: 5) == 0))
        }
        return rows
    }

    static func inline(_ rows: [(Int, Double?, Double, Bool)]) -> String {
        let sectionCount = (rows.last?.0 ?? 0) + 1
        var sections = Array(repeating: [String](), count: sectionCount)
        for (s, w, h, full) in rows {
            var keys: [String] = []
            if let w { keys.append(#""w": \#(w)"#) }
            keys.append(#""h": \#(h)"#)
            if full { keys.append(#""fullWidth": true"#) }
            sections[s].append("{" + keys.joined(separator: ", ") + "}")
        }
        return #"{"sections": ["# + sections.map { "[" + $0.joined(separator: ",") + "]" }.joined(separator: ",\n") + "]}"
    }

    static func csv(_ rows: [(Int, Double?, Double, Bool)]) -> String {
        "section,w,h,fullWidth\n" + rows.map { "\($0.0),\($0.1.map { String($0) } ?? ""),\($0.2),\($0.3 ? "true" : "")" }
            .joined(separator: "\n") + "\n"
    }

    static func jsonLines(_ rows: [(Int, Double?, Double, Bool)]) -> String {
        rows.map { row in
            var keys = [#""section": \#(row.0)"#]
            if let w = row.1 { keys.append(#""w": \#(w)"#) }
            keys.append(#""h": \#(row.2)"#)
            if row.3 { keys.append(#""fullWidth": true"#) }
            return "{" + keys.joined(separator: ", ") + "}"
        }.joined(separator: "\n") + "\n"
    }

    /// A temporary folder with the given files; removed after `body`.
    static func withFiles<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explicit-data-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return try body(folder)
    }

    static func frames(_ scenario: Scenario, items: Int? = nil) throws -> LayoutFrames {
        var layout = try SectionedLayout(
            bounds: scenario.viewport, styles: scenario.makeStyles(), data: scenario.makeData(items: items ?? scenario.itemCounts[0]))
        try layout.prepare()
        return layout.frames
    }

    // MARK: Fast and strict

    @Test func fastScannerAgreesWithTheStrictReader() throws {
        var rng = SplitMix64(seed: 21)
        var accepted = 0, rejected = 0
        for round in 0..<600 {
            var text = scenarioJSON(layout: Self.layout, data: Self.inline(Self.randomRows(&rng, count: 1 + rng.next(below: 40), oversize: true)), items: nil)
            if round % 2 == 1 {
                // A mutation inside the items: the strict reader must explain it, whatever it is.
                var bytes = Array(text.utf8)
                let start = Array(text.utf8).firstIndex(of: UInt8(ascii: "["))! + 1
                let at = start + rng.next(below: bytes.count - start - 40)
                let significant = Array("{}[],:\"\\0123456789.eE+-tfnulwh ".utf8)
                switch rng.next(below: 3) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(significant[rng.next(below: significant.count)], at: at)
                default: bytes[at] = significant[rng.next(below: significant.count)]
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            let fast = Result { () throws(ScenarioError) in try Scenario(parsing: text, file: "t.json") }
            let strict = Result { () throws(ScenarioError) in try Scenario(parsing: Array(text.utf8), file: "t.json", fast: false) }
            #expect(fast == strict, "\(text)")
            if case .success = fast { accepted += 1 } else { rejected += 1 }
            if round % 2 == 0, case .success(let scenario) = strict {
                // Valid items take the fast path (the strict fallback would hide a scanner that gives up).
                let bytes = Array(text.utf8)
                let parsed = try JSONParser.parse(bytes, file: "t.json", deferring: ["data", "sections"])
                let outcome = ExplicitItemsScanner.scanSections(
                    bytes, range: try #require(parsed.deferred), expectedItems: parsed.deferredObjects,
                    kind: { scenario.layout.section($0).style.kind.name })
                guard case .items(let items) = outcome else {
                    Issue.record("the scanner gave up on \(text)")
                    continue
                }
                #expect(ScenarioData.explicit(items) == scenario.data)
            }
        }
        #expect(accepted > 300 && rejected > 150, "\(accepted) \(rejected)")
    }

    @Test func skippingFindsTheEndOfTheItemsPastBracketsInStrings() throws {
        // Brackets and escaped quotes inside texts, on both sides of an 8-byte boundary.
        for padding in 0..<9 {
            let text = String(repeating: " ", count: padding) + #"a ] \" } [ { \\"#
            let data = #"{"sections": [[{"h": 1, "text": "\#(text)"}, {"h": 2}], [{"h": 3}]]}"#
            let bytes = Array(scenarioJSON(data: data, items: nil).utf8)
            // The parser skips exactly the items (the strict reading would hide a wrong skip).
            let parsed = try JSONParser.parse(bytes, file: "test.json", deferring: ["data", "sections"])
            let skipped = try #require(parsed.deferred)
            #expect(String(decoding: bytes[skipped], as: UTF8.self) == #"[[{"h": 1, "text": "\#(text)"}, {"h": 2}], [{"h": 3}]]"#)
            #expect(parsed.deferredObjects == 3)
            let scenario = try parseScenario(scenarioJSON(data: data, items: nil))
            #expect(try Scenario(parsing: Array(scenarioJSON(data: data, items: nil).utf8), file: "test.json", fast: false) == scenario)
            guard case .explicit(let items) = scenario.data else { Issue.record("not explicit"); return }
            #expect(items.heights == [1, 2, 3] && items.sectionCounts == [2, 1])
            #expect(items.texts?.string(at: 0) == String(repeating: " ", count: padding) + #"a ] " } [ { \"#)
        }
    }

    // MARK: Data files

    @Test func csvAndJSONLinesGiveTheFramesOfInlineData() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<20 {
            let rows = Self.randomRows(&rng, count: 1 + rng.next(below: 300))
            try Self.withFiles([
                "inline.json": scenarioJSON(layout: Self.layout, data: Self.inline(rows), items: nil),
                "csv.json": scenarioJSON(layout: Self.layout, data: #"{"file": "items.csv"}"#, items: nil),
                "lines.json": scenarioJSON(layout: Self.layout, data: #"{"file": "data/items.jsonl"}"#, items: nil),
                "items.csv": Self.csv(rows),
            ]) { folder in
                try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
                try Data(Self.jsonLines(rows).utf8).write(to: URL(fileURLWithPath: folder + "/data/items.jsonl"))
                let inline = try Scenario.load(path: folder + "/inline.json")
                let csv = try Scenario.load(path: folder + "/csv.json")
                let lines = try Scenario.load(path: folder + "/lines.json")
                #expect(csv.data == inline.data)
                #expect(lines.data == inline.data)
                let expected = try Self.frames(inline)
                #expect(try Self.frames(csv) == expected)
                #expect(try Self.frames(lines) == expected)
            }
        }
    }

    @Test func csvQuotingCRLFAndTexts() throws {
        let csv = "section,w,h,text,fullWidth\r\n0,,10,\"a, \"\"quoted\"\"\r\nline\",\r\n0,5,20,plain,true\r\n2,,30,,false"
        let jsonl = "{\"section\": 0, \"h\": 10, \"text\": \"a, \\\"quoted\\\"\\r\\nline\"}\n{\"section\":0,\"w\":5,\"h\":20,\"text\":\"plain\",\"fullWidth\":true}\n{\"h\": 30, \"section\": 2}\n"
        try Self.withFiles([
            "a.json": scenarioJSON(data: #"{"file": "a.csv"}"#, items: nil), "a.csv": csv,
            "b.json": scenarioJSON(data: #"{"file": "b.jsonl"}"#, items: nil), "b.jsonl": jsonl,
        ]) { folder in
            for name in ["a.json", "b.json"] {
                let scenario = try Scenario.load(path: folder + "/" + name)
                guard case .explicit(let items) = scenario.data else { Issue.record("not explicit"); return }
                #expect(items.sectionCounts == [2, 0, 1])
                #expect(items.heights == [10, 20, 30])
                #expect(items.widths == [0, 5, 0])
                #expect(items.spansAllColumns == [false, true, false])
                #expect(items.texts?.string(at: 0) == "a, \"quoted\"\r\nline", "\(name)")
                #expect(items.texts?.string(at: 1) == "plain")
                #expect(items.texts?.string(at: 2) == "")
                #expect(try scenario.makeItems(items: 3).texts?.count == 3)
            }
        }
    }

    /// Loads a scenario whose data is `data` in a file called `name`; returns the error.
    static func dataFileError(_ name: String, _ data: String?, layout: String = #"{"kind": "waterfall", "sections": [{}, {"kind": "flow"}]}"#) throws -> ScenarioError? {
        var files = ["s.json": scenarioJSON(layout: layout, data: #"{"file": "\#(name)"}"#, items: nil)]
        if let data { files[name] = data }
        return try withFiles(files) { folder -> ScenarioError? in
            do throws(ScenarioError) {
                _ = try Scenario.load(path: folder + "/s.json")
                return nil
            } catch {
                #expect(error.file.hasPrefix(folder))
                return ScenarioError(file: String(error.file.dropFirst(folder.count + 1)), path: error.path, message: error.message,
                                     line: error.line, column: error.column)
            }
        }
    }

    @Test func dataFileErrorsNameTheFileLineAndColumn() throws {
        func expectError(_ name: String, _ data: String?, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let error = try Self.dataFileError(name, data)
            #expect(error?.description == expected, sourceLocation: sourceLocation)
        }
        let missing = try Self.dataFileError("x.csv", nil)
        #expect(missing?.path == "data.file")
        #expect(missing?.message.hasPrefix("no such data file: ") == true)
        #expect(missing?.message.hasSuffix("/x.csv (data.file is relative to the scenario file's folder)") == true)
        try expectError("x.txt", "", #"s.json: data.file: expected a data file ending in .csv (CSV) or .jsonl (JSON Lines), got "x.txt""#)
        try expectError("x.csv", "", "x.csv: line 1, column 1: the file is empty; expected the header section,w,h and one row per item")
        try expectError("x.jsonl", "\n", "x.jsonl: line 1, column 1: the file is empty; expected one item object per line")
        try expectError("x.csv", "section,h,w\n0,1,2\n",
                        #"x.csv: line 1, column 9: expected the header section,w,h (optionally followed by fullWidth, text, template, detail), got "section,h,w"; column 2 must be 'w'"#)
        try expectError("x.csv", "section,w\n",
                        #"x.csv: line 1, column 10: expected the header section,w,h (optionally followed by fullWidth, text, template, detail), got "section,w""#)
        try expectError("x.csv", "section,w,h,colour\n",
                        #"x.csv: line 1, column 13: expected the header section,w,h (optionally followed by fullWidth, text, template, detail), got "section,w,h,colour"; 'colour' is not a column or is given twice"#)
        try expectError("x.csv", "section,w,h\n", "x.csv: line 2, column 1: no rows after the header; expected one row per item")
        try expectError("x.csv", "section,w,h\n0,,abc\n", "x.csv: line 2, column 4: expected a number from 0 to 1000000000 for h, got 'abc'")
        try expectError("x.csv", "section,w,h\n0,-5,10\n", "x.csv: line 2, column 3: expected a number from 0 to 1000000000 for w, got '-5' (sizes cannot be negative)")
        try expectError("x.csv", "section,w,h\n0,,1e999\n", "x.csv: line 2, column 4: expected a number from 0 to 1000000000 for h, got '1e999', which is too large to be a finite number")
        try expectError("x.csv", "section,w,h\n0,,2e9\n", "x.csv: line 2, column 4: expected a number from 0 to 1000000000 for h, got '2e9'")
        try expectError("x.csv", "section,w,h\n0,,\n", "x.csv: line 2, column 4: missing h: expected a number from 0 to 1000000000")
        try expectError("x.csv", "section,w,h\n1,5,10\n0,,10\n",
                        "x.csv: line 3, column 1: section 0 after section 1; sections must come in non-decreasing order (all rows of a section together)")
        try expectError("x.csv", "section,w,h\n0,,10,7\n", "x.csv: line 2, column 6: too many cells: expected 3 (section,w,h), got 4")
        try expectError("x.csv", "section,w,h\n0,10\n", "x.csv: line 2, column 5: too few cells: expected 3 (section,w,h), got 2")
        try expectError("x.csv", "section,w,h\n0,,10\n\n0,,10\n", "x.csv: line 3, column 1: empty line; expected a row of 3 cells (section,w,h)")
        try expectError("x.csv", "section,w,h\n-1,,10\n", "x.csv: line 2, column 1: expected an integer >= 0 for section, got '-1'")
        try expectError("x.csv", "section,w,h\n1,,10\n", "x.csv: line 2, column 3: missing w: items of flow sections need a width (section 1 is a flow)")
        try expectError("x.csv", "section,w,h,fullWidth\n1,3,10,true\n",
                        "x.csv: line 2, column 8: full-width items exist only in waterfall sections; section 1 is a flow")
        try expectError("x.csv", "section,w,h,fullWidth\n0,3,10,yes\n", "x.csv: line 2, column 8: expected true, false or an empty cell for fullWidth, got 'yes'")
        try expectError("x.csv", "section,w,h\n0,,\"10\n", "x.csv: line 2, column 4: unterminated quoted cell (missing closing '\"')")
        try expectError("x.jsonl", "{\"section\": 0, \"h\": 1}\n{\"section\": 0, \"h\": -1}\n",
                        "x.jsonl: line 2, column 16: h: expected a number from 0 to 1000000000, got -1")
        try expectError("x.jsonl", "{\"section\": 0, \"h\": 1}\n{\"section\": 0, \"h\": 1, \"hieght\": 2}\n",
                        "x.jsonl: line 2, column 24: hieght: unknown key 'hieght'; expected one of: section, w, h, fullWidth, text, template, detail (did you mean 'height'?)".replacingOccurrences(of: " (did you mean 'height'?)", with: ""))
        try expectError("x.jsonl", "{\"section\": 0, \"h\": 1}\n{\"h\": 1}\n", "x.jsonl: line 2, column 1: section: missing required key 'section'")
        try expectError("x.jsonl", "{\"section\": 2, \"h\": 1}\n{\"section\": 0, \"h\": 1}\n",
                        "x.jsonl: line 2, column 2: section 0 after section 2; sections must come in non-decreasing order (all rows of a section together)")
        try expectError("x.jsonl", "{\"section\": 0, \"h\": 1,}\n", "x.jsonl: line 1, column 23: trailing ',' before '}' is not allowed in JSON")
        try expectError("x.jsonl", "{\"section\": 0, \"h\": 1}\n\n{\"section\": 0, \"h\": 1}\n",
                        "x.jsonl: line 2, column 1: empty line; expected an item object such as {\"section\": 0, \"h\": 44}")
        try expectError("x.jsonl", "[1]\n", "x.jsonl: line 1, column 1: expected an item object such as {\"section\": 0, \"h\": 44}, got an array")
    }

    @Test func aDataFileThatNeverEndsIsRefused() throws {
        // /dev/zero (through a link, as a user might make one) has no end: reading it whole once
        // aborted the process on a failed allocation.
        let files = ["s.json": scenarioJSON(layout: #"{"kind": "list"}"#, data: #"{"file": "zero.csv"}"#, items: nil)]
        try Self.withFiles(files) { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/zero.csv", withDestinationPath: "/dev/zero")
            #expect {
                _ = try Scenario.load(path: folder + "/s.json")
            } throws: { error in
                guard let error = error as? ScenarioError else { return false }
                return error.path == "data.file" && error.message.contains("not a regular file")
            }
        }
    }

    @Test func moreRowsThanTheLimit() throws {
        let layout = try parseScenario(scenarioJSON(items: "[1]")).layout
        let csv = Array("section,w,h\n0,,1\n0,,2\n0,,3\n".utf8)
        #expect(try DataFileCSV.read(csv, from: 0, file: "x.csv", layout: layout, limit: 3).count == 3)
        #expect(throws: ScenarioError(file: "x.csv", path: "", message: "more than 2 rows; explicit data may give at most 2 items", line: 4, column: 1)) {
            try DataFileCSV.read(csv, from: 0, file: "x.csv", layout: layout, limit: 2)
        }
        let lines = Array("{\"section\": 0, \"h\": 1}\n{\"section\": 0, \"h\": 1}\n".utf8)
        #expect(throws: ScenarioError(file: "x.jsonl", path: "", message: "more than 1 rows; explicit data may give at most 1 items", line: 2, column: 1)) {
            try DataFileJSONLines.read(lines, from: 0, file: "x.jsonl", layout: layout, limit: 1)
        }
    }

    @Test func theShippedDataFileScenarioLoads() throws {
        let catalog = ScenarioCatalog(directory: shippedScenariosDirectory())
        let fromFiles = try catalog.loadAll().filter {
            if case .explicit(let items) = $0.data { return items.count >= 10_000 }
            return false
        }
        #expect(!fromFiles.isEmpty)
        // Data files sit beside the scenarios but are never listed as scenarios.
        #expect(try catalog.files().allSatisfy { $0.hasSuffix(".json") })
    }

    // MARK: Item counts on explicit data

    @Test func itemsTakeAPrefixAndQuickKeepsTheFirstItems() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list"}"#, data: #"{"sections": [[{"h": 1}, {"h": 2}], [], [{"h": 3}, {"h": 4}], []]}"#,
            workload: #"{"kind": "query", "frames": 5}"#, modes: #"["linear", "binary"]"#, items: nil)
        #expect(try plan(text).itemCounts == [4])
        #expect(try plan(text, items: [3, 1]).itemCounts == [3, 1])
        #expect(try plan(text, quick: true).itemCounts == [4])
        #expect(throws: ScenarioError(file: "test.json", path: "data", message:
                                       "--items 5: explicit data has 4 items; cannot take the first 5 (an item count for explicit data must be from 1 to 4)")) {
            try plan(text, items: [5])
        }
        let scenario = try parseScenario(text)
        let three = try scenario.makeData(items: 3)
        #expect(three.sectionCount == 3 && three.heights == [1, 2, 3])
        let all = try scenario.makeData(items: 4)
        #expect(all.sectionCount == 4)
        let one = try scenario.makeData(items: 1)
        #expect(one.sectionCount == 1 && one.heights == [1])
        // Several scenarios: --items keeps the explicit ones it fits.
        let plans = try BenchmarkPlan.select([scenario, parseScenario(scenarioJSON(items: "[2, 30]"))], modes: [], items: [2], quick: false)
        #expect(plans.map(\.itemCounts) == [[2], [2]])

        // --quick on more items than the quick limit: the first 2,000.
        let many = scenarioJSON(data: Self.inline((0..<2500).map { _ in (0, nil, 5, false) }), workload: #"{"kind": "prepare"}"#, items: nil)
        #expect(try plan(many, quick: true).itemCounts == [BenchmarkPlan.quickItemLimit])
        let quickPlan = try plan(many, modes: ["default"], quick: true)
        let snapshot = try LayoutSnapshot(plan: quickPlan, mode: quickPlan.modes[0], items: 2000)
        #expect(snapshot.frames.itemHeight.count == 2000)
    }
}

/// Data files in bounded time and memory: a malformed file of gigabytes is refused from its
/// first bytes, without reading it whole. The files are sparse (`ftruncate`), so no test writes
/// gigabytes.
@Suite struct DataFileBoundsTests {
    /// The error of loading a scenario whose data file is `name`, made by `make` in its folder.
    static func error(_ name: String, make: (String) throws -> Void) throws -> ScenarioError? {
        let files = ["s.json": scenarioJSON(layout: #"{"kind": "list"}"#, data: #"{"file": "\#(name)"}"#, items: nil)]
        return try ExplicitDataTests.withFiles(files) { folder -> ScenarioError? in
            try make(folder + "/" + name)
            do throws(ScenarioError) {
                _ = try Scenario.load(path: folder + "/s.json")
                return nil
            } catch {
                return error
            }
        }
    }

    /// A file of `size` bytes that starts with `prefix` and is a hole (NUL bytes) after it.
    static func sparse(_ path: String, prefix: String, size: Int) throws {
        try Data(prefix.utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_WRONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(ftruncate(descriptor, off_t(size)) == 0)
    }

    static let twoGiB = (1 << 31) - 1

    @Test(arguments: ["x.csv", "x.jsonl"])
    func twoGigabytesOfNULBytesAreRefusedAtOnce(name: String) throws {
        let error = try #require(try Self.error(name) { try Self.sparse($0, prefix: "", size: Self.twoGiB) })
        #expect(error.line == 1)
        #expect(error.message.contains("NUL byte"))
    }

    @Test func aHeaderFollowedByAHoleIsRefusedOnItsSecondLine() throws {
        let error = try #require(try Self.error("x.csv") { try Self.sparse($0, prefix: "section,w,h\n", size: Self.twoGiB) })
        #expect(error.line == 2)
        #expect(error.message.contains("NUL byte"))
    }

    @Test func aFirstLineThatIsNotTheHeaderIsRefusedBeforeTheRest() throws {
        let error = try #require(try Self.error("x.csv") { try Self.sparse($0, prefix: "name,height\n0,44\n", size: Self.twoGiB) })
        #expect(error.line == 1)
        #expect(error.message.contains("expected the header section,w,h"))
        let lines = try #require(try Self.error("x.jsonl") { try Self.sparse($0, prefix: "[1]\n", size: Self.twoGiB) })
        #expect(lines.description.hasSuffix("line 1, column 1: expected an item object such as {\"section\": 0, \"h\": 44}, got an array"))
    }

    @Test(arguments: ["x.csv", "x.jsonl"])
    func aLineLongerThanAnyRowIsRefused(name: String) throws {
        let long = String(repeating: "a", count: ScenarioLimits.maxDataLineBytes + 10)
        let first = name.hasSuffix(".csv") ? "section,w,h\n" : "{\"section\": 0, \"h\": 1}\n"
        let error = try #require(try Self.error(name) { path in
            try Data((first + long + "\n").utf8).write(to: URL(fileURLWithPath: path))
        })
        #expect(error.line == 2)
        #expect(error.message.contains("longer than \(ScenarioLimits.maxDataLineBytes) bytes"))
        #expect(error.description.contains("\(name): line 2: "))
    }
}
