/// Reads RFC 4180 CSV (what `CSVWriter` writes; CRLF and LF record ends, quoted fields with doubled
/// quotes and embedded commas or newlines). A final record without a line end is accepted.
package enum CSVParser {
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var line: Int
        package var message: String
        package var description: String { "CSV line \(line): \(message)" }
    }

    /// All records, the header included.
    package static func parse(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var fieldWasQuoted = false
        var line = 1
        let bytes = Array(text.utf8)
        var i = 0
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        while i < bytes.count {
            let byte = bytes[i]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        i += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                i += 1
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case 0x0D where i + 1 < bytes.count && bytes[i + 1] == 0x0A:
                break  // the LF ends the record
            case 0x0A:
                endField()
                records.append(record)
                record = []
                line += 1
            case UInt8(ascii: "\""):
                guard field.isEmpty && !fieldWasQuoted else {
                    throw ParseError(line: line, message: "quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
            default:
                if fieldWasQuoted { throw ParseError(line: line, message: "text after a closing quote") }
                field.append(byte)
            }
            i += 1
        }
        if inQuotes { throw ParseError(line: line, message: "unterminated quoted field") }
        if !field.isEmpty || fieldWasQuoted || !record.isEmpty {
            endField()
            records.append(record)
        }
        return records
    }

    /// Parses a file with a header row into a table.
    package static func parseTable(_ text: String) throws -> CSVTable {
        var records = try parse(text)
        guard !records.isEmpty else { throw ParseError(line: 1, message: "no header row") }
        let header = records.removeFirst()
        for (index, record) in records.enumerated() where record.count != header.count {
            throw ParseError(line: index + 2, message: "\(record.count) fields, header has \(header.count)")
        }
        return CSVTable(header: header, rows: records)
    }
}

/// A parsed CSV file: its header and its rows (each as long as the header).
package struct CSVTable: Sendable, Equatable {
    package var header: [String]
    package var rows: [[String]]

    /// The index of a column by name.
    package func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    /// Rows as dictionaries keyed by column name.
    package var records: [[String: String]] {
        rows.map { Dictionary(zip(header, $0), uniquingKeysWith: { first, _ in first }) }
    }
}
