import Foundation

/// A run's `summary.csv` read back: one entry per scenario × mode × items × operation × metric
/// with its median and interval, for `layout-bench export`. Reads every schema `compare` reads;
/// anything else (a samples file, a truncated row, a number that is not one) is an error naming
/// the file and line, before anything is written.
public struct RunSummaryFile: Sendable {
    public struct Entry: Sendable, Equatable {
        public var scenario: String
        public var mode: String
        public var items: Int
        public var operation: String
        public var metric: String
        public var unit: String
        public var samples: Int
        public var median: Double
        public var ciLow: Double?
        public var ciHigh: Double?
    }

    public var path: String
    public var runID: String
    public var commit: String
    /// Numeric entries, in file order; `unsupported` rows are left out.
    public var entries: [Entry]

    /// `argument` is a results directory or its summary.csv.
    public static func load(_ argument: String) throws(CompareError) -> RunSummaryFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            throw CompareError(file: argument, message: "no such file or directory")
        }
        let path = isDirectory.boolValue ? (argument as NSString).appendingPathComponent("summary.csv") : argument
        let bytes: [UInt8]
        do { bytes = try readFileBytes(path) } catch {
            var missing = stat()
            throw CompareError(file: path, message: isDirectory.boolValue && lstat(path, &missing) != 0
                ? "no summary.csv in this results directory (a run that stopped before writing its files?)"
                : "cannot read the file: \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CompareError(file: path, message: "not UTF-8 text: expected a summary.csv")
        }
        return try parse(text, path: path)
    }

    static func parse(_ text: String, path: String) throws(CompareError) -> RunSummaryFile {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }.trimmingSuffix("\r")
        if firstLine != CSVSchema.summaryHeader.joined(separator: ",") {
            let what = firstLine == CSVSchema.samplesHeader.joined(separator: ",") ? "a samples file" : "not a summary.csv"
            throw CompareError(file: path, message: "\(what): expected the header \(CSVSchema.summaryHeader.joined(separator: ","))")
        }
        let table: CSVTable
        do { table = try CSVParser.parseTable(text) } catch {
            throw CompareError(file: path, message: "\(error)")
        }
        func column(_ name: String) -> Int { CSVSchema.summaryHeader.firstIndex(of: name)! }
        var entries: [Entry] = []
        var runID = "", commit = ""
        for (index, row) in table.rows.enumerated() {
            let line = index + 2
            func fail(_ message: String) -> CompareError { CompareError(file: path, message: "line \(line): \(message)") }
            guard row.count == CSVSchema.summaryHeader.count else {
                throw fail("expected \(CSVSchema.summaryHeader.count) fields, got \(row.count) (a truncated file?)")
            }
            guard let schema = Int(row[column("schema")]), CSVSchema.readableVersions.contains(schema) else {
                throw fail("schema \(row[column("schema")]) is not one this version reads (\(CSVSchema.readableVersions))")
            }
            runID = row[column("run_id")]
            commit = row[column("commit")]
            if row[column("median")] == CSVSchema.unsupported { continue }
            guard let items = Int(row[column("items")]), let samples = Int(row[column("samples")]),
                  let median = Double(row[column("median")]), median.isFinite else {
                throw fail("items, samples and median must be numbers")
            }
            func optional(_ name: String) throws(CompareError) -> Double? {
                let field = row[column(name)]
                if field.isEmpty || field == CSVSchema.unsupported { return nil }
                guard let value = Double(field), value.isFinite else { throw fail("\(name) '\(field)' is not a number") }
                return value
            }
            entries.append(Entry(
                scenario: row[column("scenario")], mode: row[column("mode")], items: items,
                operation: row[column("operation")], metric: row[column("metric")], unit: row[column("unit")],
                samples: samples, median: median, ciLow: try optional("ci_low"), ciHigh: try optional("ci_high")))
        }
        return RunSummaryFile(path: path, runID: runID, commit: commit, entries: entries)
    }
}

private extension Substring {
    func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}
