import Foundation
import BenchPlatform
import BenchResults
import TextShaping

/// `data.file`: explicit items read from a data file instead of the scenario (docs/scenario-format.md), a CSV
/// (`.csv`, see `DataFileCSV`) or JSON Lines file (`.jsonl` or `.ndjson`, see
/// `DataFileJSONLines`). The path is relative to the scenario file's folder (or absolute).
///
/// Both formats give rows of `section` (an integer >= 0, never smaller than the row before; a
/// section number skipped is an empty section), `w`, `h`, `fullWidth` and `text`, with the rules
/// of `data.sections`. Errors name the data file, the line, the column and what was expected.
enum DataFile {
    static func read(_ node: JSONNode, layout: ScenarioLayout) throws(ScenarioError) -> ExplicitItems {
        let name = try node.nonEmptyString()
        let path = resolve(name, scenarioFile: node.file)
        let format: Format
        switch (name as NSString).pathExtension.lowercased() {
        case "csv": format = .csv
        case "jsonl", "ndjson": format = .jsonLines
        default:
            throw node.error("expected a data file ending in .csv (CSV) or .jsonl (JSON Lines), got \(JSONValue.quoted(name))")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw node.error("no such data file: \(path) (data.file is relative to the scenario file's folder)")
        }
        try DataFilePrecheck.check(path, format: format, layout: layout)
        let bytes: [UInt8]
        do { bytes = try readFileBytes(path) } catch {
            throw node.error("cannot read the data file \(path): \(error.reason)")
        }
        if let bad = JSONParser.firstInvalidUTF8(bytes) {
            throw error(path, bytes, at: bad, "the file is not valid UTF-8")
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard bytes[start...].contains(where: { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: " ") }) else {
            throw error(path, bytes, at: start, format == .csv
                ? "the file is empty; expected the header \(DataFileCSV.requiredHeader) and one row per item"
                : "the file is empty; expected one item object per line")
        }
        let items: ExplicitItems
        switch format {
        case .csv: items = try DataFileCSV.read(bytes, from: start, file: path, layout: layout, limit: ScenarioLimits.maxItems)
        case .jsonLines: items = try DataFileJSONLines.read(bytes, from: start, file: path, layout: layout, limit: ScenarioLimits.maxItems)
        }
        // Every text a label may show is at most `TextLimits.maximumBytes` (docs/text.md).
        for (field, column) in [("text", items.texts), ("detail", items.details)] {
            guard let column else { continue }
            for i in 0..<column.count {
                if column[i].count > TextLimits.maximumBytes {
                    throw ScenarioError(file: path, path: "item \(i).\(field)",
                                        message: "a text of \(column[i].count) UTF-8 bytes; at most \(TextLimits.maximumBytes) (docs/text.md)")
                }
                if let run = TextLimits.longMarkRun(in: column[i]) {
                    throw ScenarioError(file: path, path: "item \(i).\(field)", message: TextLimits.markRunMessage(run))
                }
            }
        }
        return items
    }

    enum Format { case csv, jsonLines }

    /// `name` relative to the folder of `scenarioFile` (unless it is absolute).
    static func resolve(_ name: String, scenarioFile: String) -> String {
        if name.hasPrefix("/") { return name }
        let folder = (scenarioFile as NSString).deletingLastPathComponent
        return joinPath(folder, name)
    }

    /// Whether nothing but blank lines (empty, or spaces, tabs and CRs) follows `offset`: blank
    /// lines at the end of a data file are allowed (editors and generators leave them); anywhere
    /// else a blank line is an error. O(1) where a row follows.
    static func onlyBlankLinesFollow(_ buffer: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool {
        var i = offset
        while i < buffer.count {
            switch buffer[i] {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: " "), UInt8(ascii: "\t"): i += 1
            default: return false
            }
        }
        return true
    }

    /// An error at a byte offset of a data file: `file: line L, column C: message`.
    static func error(_ file: String, _ bytes: [UInt8], at offset: Int, _ message: String) -> ScenarioError {
        let (line, column) = JSONParser.lineAndColumn(of: offset, in: bytes)
        return ScenarioError(file: file, path: "", message: message, line: line, column: column)
    }
}

/// Collects the rows of a data file into `ExplicitItems`, checking the rules that do not
/// depend on the format: sections in non-decreasing order, `w` required in flow sections,
/// `fullWidth` only in waterfall sections, at most `ScenarioLimits.maxItems` rows and
/// `ScenarioLimits.maxSections` sections.
struct DataFileRows {
    let file: String
    let bytes: [UInt8]
    let layout: ScenarioLayout
    /// At most this many rows (`ScenarioLimits.maxItems`; smaller in tests).
    let limit: Int
    private(set) var items = ExplicitItems()
    private var sectionKind = ""

    init(file: String, bytes: [UInt8], layout: ScenarioLayout, expectedRows: Int, limit: Int) {
        self.file = file
        self.bytes = bytes
        self.layout = layout
        self.limit = limit
        items.reserveCapacity(Swift.min(expectedRows, limit))
    }

    /// The kind name of `section` ("list", "flow", "waterfall"), once the row is checked.
    /// `rowStart` and `sectionAt` are byte offsets for errors.
    mutating func enter(section: Int, rowStart: Int, sectionAt: Int) throws(ScenarioError) -> String {
        guard items.count < limit else {
            throw DataFile.error(file, bytes, at: rowStart, "more than \(limit) rows; explicit data may give at most \(limit) items")
        }
        let current = items.sectionCount - 1
        guard section >= current else {
            throw DataFile.error(file, bytes, at: sectionAt,
                "section \(section) after section \(current); sections must come in non-decreasing order (all rows of a section together)")
        }
        if section > current {
            guard section < ScenarioLimits.maxSections else {
                throw DataFile.error(file, bytes, at: sectionAt,
                    "section \(section): explicit data may have at most \(ScenarioLimits.maxSections) sections (numbered from 0)")
            }
            while items.sectionCount <= section { items.appendSection() }
            sectionKind = layout.section(section).style.kind.name
        }
        return sectionKind
    }

    /// Appends an item of the section last entered; `widthAt` and `fullWidthAt` place errors.
    mutating func append(
        section: Int, width: Double?, widthAt: Int, height: Double, fullWidth: Bool, fullWidthAt: Int, text: ArraySlice<UInt8>?,
        template: String? = nil, detail: ArraySlice<UInt8>? = nil
    ) throws(ScenarioError) {
        if width == nil, sectionKind == "flow" {
            throw DataFile.error(file, bytes, at: widthAt,
                "missing w: items of flow sections need a width (section \(section) is a flow)")
        }
        if fullWidth, sectionKind != "waterfall" {
            throw DataFile.error(file, bytes, at: fullWidthAt,
                "full-width items exist only in waterfall sections; section \(section) is a \(sectionKind)")
        }
        items.append(width: width ?? 0, height: height, spansAllColumns: fullWidth, text: text, template: template, detail: detail)
    }

    /// The items; an error when there are none.
    func finish(emptyMessage: String) throws(ScenarioError) -> ExplicitItems {
        guard items.count > 0 else { throw DataFile.error(file, bytes, at: bytes.count, emptyMessage) }
        return items
    }
}
