/// The JSON Lines form of `data.file`: one item object a line, with the keys of an item of
/// `data.sections` plus `section`:
///
///     {"section": 0, "h": 120}
///     {"section": 0, "h": 88, "fullWidth": true}
///     {"section": 2, "w": 80, "h": 44, "text": "a caption"}
///
/// Lines end with LF (a CR before it is whitespace). A blank line is an error except at the
/// end (blank lines that end the file are ignored). Valid lines take `ExplicitItemsScanner`'s
/// fast path; any other line is parsed with `JSONParser` and read with `JSONReader`, whose error
/// is given with the line.
enum DataFileJSONLines {
    static func read(_ bytes: [UInt8], from start: Int, file: String, layout: ScenarioLayout, limit: Int) throws(ScenarioError) -> ExplicitItems {
        var newlines = 0
        for byte in bytes where byte == UInt8(ascii: "\n") { newlines += 1 }
        var rows = DataFileRows(file: file, bytes: bytes, layout: layout, expectedRows: newlines + 1, limit: limit)
        try bytes.withUnsafeBufferPointer { (buffer) throws(ScenarioError) in
            var lineStart = start
            while lineStart < buffer.count {
                if DataFile.onlyBlankLinesFollow(buffer, from: lineStart) { break }
                var lineEnd = lineStart
                while lineEnd < buffer.count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                let line = lineStart..<lineEnd
                if !line.contains(where: { buffer[$0] != UInt8(ascii: " ") && buffer[$0] != UInt8(ascii: "\t") && buffer[$0] != UInt8(ascii: "\r") }) {
                    throw DataFile.error(file, bytes, at: lineStart, "empty line; expected an item object such as {\"section\": 0, \"h\": 44}")
                }
                if let item = ExplicitItemsScanner.scanLine(buffer, range: line), let section = item.section, let height = item.height,
                   let kind = try? rows.enter(section: section, rowStart: lineStart, sectionAt: lineStart) {
                    if (kind != "flow" || item.width != nil) && (kind == "waterfall" || item.fullWidth != true) {
                        try rows.append(section: section, width: item.width, widthAt: lineStart, height: height,
                                        fullWidth: item.fullWidth ?? false, fullWidthAt: lineStart, text: nil)
                        continue
                    }
                }
                try readStrictly(bytes, line: line, file: file, rows: &rows)
            }
        }
        return try rows.finish(emptyMessage: "no items; expected one item object per line")
    }

    /// A line the fast path did not accept: the strict reader finds its error (or reads it).
    private static func readStrictly(_ bytes: [UInt8], line: Range<Int>, file: String, rows: inout DataFileRows) throws(ScenarioError) {
        let value = try JSONParser.parseValue(in: bytes, range: line, file: file)
        guard case .object(let members) = value else {
            throw DataFile.error(file, bytes, at: line.lowerBound, "expected an item object such as {\"section\": 0, \"h\": 44}, got \(value.typeName)")
        }
        let reader = JSONReader(members: members, file: file, path: "")
        func place(_ error: ScenarioError) -> ScenarioError {
            let offset = members.first { $0.key == error.path }?.offset ?? line.lowerBound
            return DataFile.error(file, bytes, at: offset, error.path.isEmpty ? error.message : "\(error.path): \(error.message)")
        }
        do {
            let section = try reader.requireInt("section", .atLeast(0))
            let sectionAt = members.first { $0.key == "section" }?.offset ?? line.lowerBound
            let kind = try rows.enter(section: section, rowStart: line.lowerBound, sectionAt: sectionAt)
            let item = try ScenarioData.readItem(reader, kind: kind, section: section)
            try reader.finish()
            try rows.append(section: section, width: item.width, widthAt: line.lowerBound, height: item.height,
                            fullWidth: item.spansAllColumns, fullWidthAt: line.lowerBound, text: item.text,
                            template: item.template, detail: item.detail)
        } catch where error.line == nil {
            throw place(error)
        }
    }
}
