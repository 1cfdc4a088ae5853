import BenchResults

/// The CSV form of `data.file`: a header `section,w,h`, optionally followed by `fullWidth` and
/// `text`, `template` and `detail` (in any order), then one row per item:
///
///     section,w,h,fullWidth,text
///     0,,120,false,
///     0,,88,true,"Breaking: ""quoted"" text, with a comma"
///     2,80,44,,
///
/// RFC 4180 cells (LF or CRLF line ends; a cell with a comma, quote or line break is quoted, a
/// quote doubled). `w` may be empty where it may be left out (list and waterfall sections),
/// `fullWidth` is `true`, `false` or empty (false), sizes are JSON numbers >= 0. A blank line
/// is an error except at the end (blank lines that end the file are ignored). A row with a
/// non-empty `template` names a constraint template (docs/scenario-format.md, constraint
/// templates) and leaves `h` empty: its height comes from the template; `detail` is the text of
/// its `detail` labels.
enum DataFileCSV {
    static let requiredHeader = "section,w,h"
    private static let optionalColumns = ["fullWidth", "text", "template", "detail"]

    private struct Cell {
        var start: Int
        var end: Int
        var quoted: Bool
    }

    static func read(_ bytes: [UInt8], from start: Int, file: String, layout: ScenarioLayout, limit: Int) throws(ScenarioError) -> ExplicitItems {
        var newlines = 0
        for byte in bytes where byte == UInt8(ascii: "\n") { newlines += 1 }
        var rows = DataFileRows(file: file, bytes: bytes, layout: layout, expectedRows: newlines, limit: limit)
        try bytes.withUnsafeBufferPointer { (buffer) throws(ScenarioError) in
            var position = start
            var cells: [Cell] = []
            cells.reserveCapacity(8)

            // The header.
            try readRecord(buffer, bytes, file, &position, into: &cells)
            var fullWidthColumn: Int?, textColumn: Int?, templateColumn: Int?, detailColumn: Int?
            let names = cells.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0.start..<$0.end]), as: UTF8.self) }
            for (i, name) in names.enumerated() {
                let expected = i < 3 ? ["section", "w", "h"][i] : nil
                if let expected, name == expected { continue }
                if expected == nil, name == "fullWidth", fullWidthColumn == nil { fullWidthColumn = i; continue }
                if expected == nil, name == "text", textColumn == nil { textColumn = i; continue }
                if expected == nil, name == "template", templateColumn == nil { templateColumn = i; continue }
                if expected == nil, name == "detail", detailColumn == nil { detailColumn = i; continue }
                throw DataFile.error(file, bytes, at: cells[i].start,
                    "expected the header \(requiredHeader) (optionally followed by \(optionalColumns.joined(separator: ", "))), got \(JSONValue.quoted(names.joined(separator: ",")))"
                        + (expected.map { "; column \(i + 1) must be '\($0)'" } ?? "; '\(name)' is not a column or is given twice"))
            }
            if names.count < 3 {
                throw DataFile.error(file, bytes, at: cells[cells.count - 1].end,
                    "expected the header \(requiredHeader) (optionally followed by \(optionalColumns.joined(separator: ", "))), got \(JSONValue.quoted(names.joined(separator: ",")))")
            }
            let columnCount = names.count
            let header = names.joined(separator: ",")

            // The rows.
            while position < buffer.count {
                if DataFile.onlyBlankLinesFollow(buffer, from: position) { break }
                let rowStart = position
                try readRecord(buffer, bytes, file, &position, into: &cells)
                if cells.count == 1, cells[0].start == cells[0].end, !cells[0].quoted {
                    throw DataFile.error(file, bytes, at: rowStart, "empty line; expected a row of \(columnCount) cells (\(header))")
                }
                guard cells.count == columnCount else {
                    let at = cells.count > columnCount ? cells[columnCount].start - 1 : cells[cells.count - 1].end
                    throw DataFile.error(file, bytes, at: at,
                        "\(cells.count > columnCount ? "too many" : "too few") cells: expected \(columnCount) (\(header)), got \(cells.count)")
                }
                let sectionCell = cells[0]
                guard let section = number(buffer, sectionCell), section.isInteger, section.value >= 0, section.value < 1e15 else {
                    throw DataFile.error(file, bytes, at: sectionCell.start,
                        "expected an integer >= 0 for section, got \(describe(buffer, sectionCell))")
                }
                let sectionIndex = Int(section.value)
                _ = try rows.enter(section: sectionIndex, rowStart: rowStart, sectionAt: sectionCell.start)
                let widthCell = cells[1]
                let width: Double? = widthCell.start == widthCell.end && !widthCell.quoted
                    ? nil : try size(buffer, bytes, file, widthCell, name: "w")
                let heightCell = cells[2]
                var template: String?
                if let templateColumn, cells[templateColumn].start < cells[templateColumn].end {
                    template = String(decoding: unquoted(bytes, cells[templateColumn]), as: UTF8.self)
                }
                let height: Double
                if template != nil {
                    guard heightCell.start == heightCell.end else {
                        throw DataFile.error(file, bytes, at: heightCell.start, "a templated item's height comes from its template; leave h empty")
                    }
                    height = 0
                } else {
                    if heightCell.start == heightCell.end {
                        throw DataFile.error(file, bytes, at: heightCell.start, "missing h: expected \(NumberBound.size.expected(integer: false))")
                    }
                    height = try size(buffer, bytes, file, heightCell, name: "h")
                }
                var detail: ArraySlice<UInt8>?
                if let detailColumn, template != nil { detail = unquoted(bytes, cells[detailColumn]) }
                var fullWidth = false
                var fullWidthAt = rowStart
                if let fullWidthColumn {
                    let cell = cells[fullWidthColumn]
                    fullWidthAt = cell.start
                    switch String(decoding: UnsafeBufferPointer(rebasing: buffer[cell.start..<cell.end]), as: UTF8.self) {
                    case "true": fullWidth = true
                    case "false", "": fullWidth = false
                    default:
                        throw DataFile.error(file, bytes, at: cell.start,
                            "expected true, false or an empty cell for fullWidth, got \(describe(buffer, cell))")
                    }
                }
                var text: ArraySlice<UInt8>?
                if let textColumn { text = unquoted(bytes, cells[textColumn]) }
                try rows.append(section: sectionIndex, width: width, widthAt: widthCell.start, height: height,
                                fullWidth: fullWidth, fullWidthAt: fullWidthAt, text: text, template: template, detail: detail)
            }
        }
        return try rows.finish(emptyMessage: "no rows after the header; expected one row per item")
    }

    /// Reads one record from `position` to just past its line end; cells hold the content
    /// ranges (inside the quotes for a quoted cell, doubled quotes not yet undone).
    private static func readRecord(
        _ buffer: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8], _ file: String, _ position: inout Int, into cells: inout [Cell]
    ) throws(ScenarioError) {
        cells.removeAll(keepingCapacity: true)
        var i = position
        while true {
            if i < buffer.count, buffer[i] == UInt8(ascii: "\"") {
                let open = i
                i += 1
                let contentStart = i
                while true {
                    guard i < buffer.count else {
                        throw DataFile.error(file, bytes, at: open, "unterminated quoted cell (missing closing '\"')")
                    }
                    if buffer[i] == UInt8(ascii: "\"") {
                        if i + 1 < buffer.count, buffer[i + 1] == UInt8(ascii: "\"") { i += 2; continue }
                        break
                    }
                    i += 1
                }
                cells.append(Cell(start: contentStart, end: i, quoted: true))
                i += 1
                if i < buffer.count, buffer[i] != UInt8(ascii: ","), buffer[i] != UInt8(ascii: "\n"),
                   !(buffer[i] == UInt8(ascii: "\r") && i + 1 < buffer.count && buffer[i + 1] == UInt8(ascii: "\n")) {
                    throw DataFile.error(file, bytes, at: i, "expected ',' or the end of the line after a quoted cell")
                }
            } else {
                let cellStart = i
                while i < buffer.count, buffer[i] != UInt8(ascii: ","), buffer[i] != UInt8(ascii: "\n") {
                    if buffer[i] == UInt8(ascii: "\"") {
                        throw DataFile.error(file, bytes, at: i, "a quote inside an unquoted cell; quote the whole cell and double the quote")
                    }
                    i += 1
                }
                var cellEnd = i
                if cellEnd > cellStart, buffer[cellEnd - 1] == UInt8(ascii: "\r"), i == buffer.count || buffer[i] == UInt8(ascii: "\n") {
                    cellEnd -= 1
                }
                cells.append(Cell(start: cellStart, end: cellEnd, quoted: false))
            }
            if i < buffer.count, buffer[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if i < buffer.count, buffer[i] == UInt8(ascii: "\r") { i += 1 }
            if i < buffer.count, buffer[i] == UInt8(ascii: "\n") { i += 1 }
            position = i
            return
        }
    }

    private static func number(_ buffer: UnsafeBufferPointer<UInt8>, _ cell: Cell) -> (value: Double, isInteger: Bool)? {
        guard !cell.quoted, let n = JSONNumberLiteral.scan(buffer, from: cell.start, end: cell.end), n.end == cell.end else {
            return nil
        }
        return (n.value, n.isInteger)
    }

    private static func size(
        _ buffer: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8], _ file: String, _ cell: Cell, name: String
    ) throws(ScenarioError) -> Double {
        let expected = NumberBound.size.expected(integer: false)
        guard let n = number(buffer, cell) else {
            throw DataFile.error(file, bytes, at: cell.start, "expected \(expected) for \(name), got \(describe(buffer, cell))")
        }
        guard n.value.isFinite else {
            throw DataFile.error(file, bytes, at: cell.start,
                "expected \(expected) for \(name), got \(describe(buffer, cell)), which is too large to be a finite number")
        }
        guard NumberBound.size.admits(n.value) else {
            throw DataFile.error(file, bytes, at: cell.start,
                "expected \(expected) for \(name), got \(describe(buffer, cell))" + (n.value < 0 ? " (sizes cannot be negative)" : ""))
        }
        return n.value
    }

    /// The cell's text with doubled quotes undone.
    private static func unquoted(_ bytes: [UInt8], _ cell: Cell) -> ArraySlice<UInt8> {
        let content = bytes[cell.start..<cell.end]
        guard cell.quoted, content.contains(UInt8(ascii: "\"")) else { return content }
        var result: [UInt8] = []
        var skipNext = false
        for byte in content {
            if skipNext { skipNext = false; continue }
            result.append(byte)
            if byte == UInt8(ascii: "\"") { skipNext = true }
        }
        return result[...]
    }

    /// A cell as quoted in an error message (`an empty cell` when empty).
    private static func describe(_ buffer: UnsafeBufferPointer<UInt8>, _ cell: Cell) -> String {
        if cell.start == cell.end { return "an empty cell" }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[cell.start..<cell.end]), as: UTF8.self)
        return "'" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "'"
    }
}
