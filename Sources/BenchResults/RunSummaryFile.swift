import Foundation

/// A run's `summary.csv` read back: one entry per scenario × mode × items × operation × metric
/// with its median and interval, for `layout-bench export`. Reads every schema `compare` reads,
/// as a stream (`ResultsFile`), with the value rules of docs/csv.md (numbers as the harness
/// writes them, finite, within the metric's possible values; the metric's unit; each row once);
/// anything else (a samples file, a truncated row, a number that is not one) is an error naming
/// the file and line, before anything is written.
package struct RunSummaryFile: Sendable {
    package struct Entry: Sendable, Equatable {
        package var scenario: String
        package var mode: String
        package var items: Int
        package var operation: String
        package var metric: String
        package var unit: String
        package var samples: Int
        package var median: Double
        package var ciLow: Double?
        package var ciHigh: Double?
        /// The line of summary.csv it came from.
        package var line: Int = 0
    }

    package var path: String
    package var runID: String
    package var commit: String
    /// Numeric entries, in file order; `unsupported` rows are left out.
    package var entries: [Entry]
    /// The groups whose mode failed in the run (rows of metric `failed`), in file order, with the
    /// line of each.
    package var failed: [(group: FailedGroup, line: Int)] = []
    /// How its metrics are judged, as the run.json beside it describes them (`Metric.named`).
    package var described: [String: Metric] = [:]

    /// `argument` is a results directory or its summary.csv.
    package static func load(_ argument: String) throws(CompareError) -> RunSummaryFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            throw CompareError(file: argument, message: "no such file or directory")
        }
        let path = isDirectory.boolValue ? (argument as NSString).appendingPathComponent("summary.csv") : argument
        if isDirectory.boolValue && !FileManager.default.fileExists(atPath: path) {
            throw CompareError(file: path, message: "no summary.csv in this results directory (a run that stopped before writing its files?)")
        }
        let metadataPath = ((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent) + "/run.json"
        let metadata = (try? ResultsFile.text(of: metadataPath, limit: ResultsFile.maxMetadataBytes)).flatMap { try? RunMetadata.decode($0) }
        return try read(CSVRecordStream(source: FileByteSource(path: path), file: path), described: Metric.byName(metadata?.metrics ?? []))
    }

    static func parse(_ text: String, path: String) throws(CompareError) -> RunSummaryFile {
        try read(CSVRecordStream(source: MemoryByteSource(bytes: Array(text.utf8)), file: path))
    }

    static func read<Source>(_ records: CSVRecordStream<Source>, described: [String: Metric] = [:]) throws(CompareError) -> RunSummaryFile {
        let path = records.file
        let header = CSVSchema.summaryHeader
        let first = try records.next() ? records.strings : []
        if first != header {
            let what = first == CSVSchema.samplesHeader ? "a samples file" : "not a summary.csv"
            throw CompareError(file: path, message: "\(what): expected the header \(header.joined(separator: ","))")
        }
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        let statistics = CSVSchema.summaryStatistics.map(column)
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        var runID = "", commit = ""
        var failed: [(group: FailedGroup, line: Int)] = []
        var failedLines: [FailedGroup: Int] = [:]
        while try records.next() {
            func fail(_ message: String) -> CompareError { records.error(message) }
            guard records.count == header.count else {
                throw fail("expected \(header.count) fields, got \(records.count) (a truncated file?)")
            }
            func integer(_ name: String) throws(CompareError) -> Int? { try records.withField(column(name)) { ResultsNumber.integer($0) } }
            guard let schema = try integer("schema"), CSVSchema.readableVersions.contains(schema) else {
                throw fail("schema \(records.string(column("schema"))) is not one this version reads (\(CSVSchema.readableVersions))")
            }
            guard let items = try integer("items"), items >= 0 else { throw fail("items: expected a count >= 0, got '\(records.string(column("items")))'") }
            guard let samples = try integer("samples"), samples >= 0 else {
                throw fail("samples: expected a count >= 0, got '\(records.string(column("samples")))'")
            }
            let scenario = records.string(column("scenario")), mode = records.string(column("mode"))
            let operation = records.string(column("operation")), metric = records.string(column("metric")), unit = records.string(column("unit"))
            if metric == CSVSchema.failed {
                // A group whose mode failed: no operation, unit or samples, every statistic `failed`.
                guard operation.isEmpty, unit.isEmpty, samples == 0,
                      statistics.allSatisfy({ records.field($0, is: "failed") }) else {
                    throw fail("a row of metric 'failed' has an empty operation and unit, samples 0 and every statistic 'failed'")
                }
                let group = FailedGroup(scenario: scenario, mode: mode, items: items)
                if let earlier = failedLines.updateValue(records.line, forKey: group) {
                    throw fail("a second 'failed' row for \(group.label) (line \(earlier); each row appears once)")
                }
                failed.append((group, records.line))
                runID = records.string(column("run_id"))
                commit = records.string(column("commit"))
                continue
            }
            if let problem = ResultsValue.unitProblem(unit, metric: metric, described: described) { throw fail("unit: \(problem)") }
            let identity = [scenario, mode, String(items), operation, metric].joined(separator: "\u{1F}")
            guard seen.updateValue(records.line, forKey: identity) == nil else {
                throw fail("a second row for \(RowKey(scenario: scenario, mode: mode, items: items, operation: operation, metric: metric).label) (each row appears once)")
            }
            runID = records.string(column("run_id"))
            commit = records.string(column("commit"))
            if records.field(column("median"), is: "unsupported") { continue }
            // Every statistic a number; the bounds of the interval may also be absent, and may lie
            // below 0 (an interval around a small count); the rest within the metric's values.
            var values: [Double?] = []
            for index in statistics {
                let name = header[index]
                let isBound = name == "ci_low" || name == "ci_high"
                if isBound && (records.field(index, is: "") || records.field(index, is: "unsupported")) {
                    values.append(nil)
                    continue
                }
                guard let value = try records.withField(index, { ResultsNumber.decimal($0) }) else {
                    throw fail("\(name): expected \(ResultsValue.expectedNumber), got '\(records.string(index))'")
                }
                if !isBound, let problem = name == "mad" ? (value < 0 ? "\(CSVWriter.format(value)) is negative; a deviation is never below 0" : nil)
                    : ResultsValue.problem(value, metric: metric, described: described) {
                    throw fail("\(name): \(problem)")
                }
                values.append(value)
            }
            // The interval around a median that is never negative may reach below 0 (a linear
            // interval of counts with zeros), but it is centred on a value >= 0: it cannot end
            // below 0, nor start below -ci_high, nor end before it starts.
            if let high = values[10] {
                let neverNegative = ResultsValue.problem(-1, metric: metric, described: described) != nil
                if high < 0 && neverNegative {
                    throw fail("ci_high: \(CSVWriter.format(high)) is below 0, which \(metric) never is")
                }
                if let low = values[9], neverNegative, low < -high {
                    throw fail("ci_low: \(CSVWriter.format(low)) is below -ci_high (\(CSVWriter.format(-high))); an interval around a \(metric) >= 0 never is")
                }
                if let low = values[9], low > high {
                    throw fail("ci_low: \(CSVWriter.format(low)) is above ci_high \(CSVWriter.format(high))")
                }
            }
            entries.append(Entry(scenario: scenario, mode: mode, items: items, operation: operation, metric: metric, unit: unit,
                                 samples: samples, median: values[2]!, ciLow: values[9], ciHigh: values[10], line: records.line))
        }
        return RunSummaryFile(path: path, runID: runID, commit: commit, entries: entries, failed: failed, described: described)
    }
}
