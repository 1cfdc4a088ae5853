import Foundation

/// Bad input to `compare` or `steps`: a missing file, a CSV that is not a samples.csv of this schema,
/// two results with nothing in common. `file` names the file (and line) at fault.
public struct CompareError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var message: String
    public init(file: String, message: String) { self.file = file; self.message = message }
    public var description: String { file.isEmpty ? message : "\(file): \(message)" }
}

/// What one scenario × mode × items × operation × metric row of two results is matched on.
public struct RowKey: Hashable, Sendable, Comparable {
    public var scenario: String
    public var mode: String
    public var items: Int
    public var operation: String
    public var metric: String

    public init(scenario: String, mode: String, items: Int, operation: String, metric: String) {
        self.scenario = scenario
        self.mode = mode
        self.items = items
        self.operation = operation
        self.metric = metric
    }

    public static func < (a: RowKey, b: RowKey) -> Bool {
        (a.scenario, a.mode, a.items, a.operation, a.metric) < (b.scenario, b.mode, b.items, b.operation, b.metric)
    }

    public var label: String { "\(scenario) \(mode) \(items) \(operation) \(metric)" }
}

/// The samples of one series, grouped by independent repetition (run id × repetition number: a
/// samples.csv may hold several runs, each with its own repetitions).
public struct SeriesSamples: Sendable, Equatable {
    public var workload: String
    public var unit: String
    /// One array per repetition, in the order they first appear in the file.
    public var repetitions: [[Double]]
    /// The `repetition` column of each entry of `repetitions`. `compare` pairs the two sides'
    /// repetitions by it when each number appears once on each side (`scripts/compare-commits`
    /// numbers a round's processes of both commits alike, measured seconds apart).
    public var repetitionNumbers: [Int] = []
    /// Rows whose value was `unsupported` (the metric cannot be measured where this ran).
    public var unsupportedRows: Int

    public var values: [Double] { repetitions.flatMap { $0 } }
    public var count: Int { repetitions.reduce(0) { $0 + $1.count } }
}

/// One side of a comparison: a samples.csv read and checked against the schema, and the run.json
/// beside it when there is one.
public struct ResultSet: Sendable {
    /// The samples.csv that was read.
    public var samplesPath: String
    public var series: [RowKey: SeriesSamples]
    /// The commits named in the file's `commit` column, in order of appearance.
    public var commits: [String]
    /// run.json beside samples.csv, if present and readable.
    public var metadata: RunMetadata?
    /// Why run.json could not be used (missing or unreadable), for a warning.
    public var metadataProblem: String?
    /// The functions' instructions per operation (`profiles.csv.gz` of a `run --instructions`), if any.
    public var profiles: [FunctionProfileRow] = []

    public init(samplesPath: String, series: [RowKey: SeriesSamples], commits: [String],
                metadata: RunMetadata? = nil, metadataProblem: String? = nil) {
        self.samplesPath = samplesPath
        self.series = series
        self.commits = commits
        self.metadata = metadata
        self.metadataProblem = metadataProblem
    }

    /// The samples of a results directory: `samples.csv.gz` (written since schema 2 runs compress
    /// them), else `samples.csv` (older runs and merged rounds).
    static func samplesFile(inDirectory directory: String) -> String {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return FileManager.default.fileExists(atPath: base + "samples.csv.gz") ? base + "samples.csv.gz" : base + "samples.csv"
    }

    /// The text of a samples file, decompressed when its name ends in `.gz`.
    static func readSamples(_ path: String) throws -> String {
        guard path.hasSuffix(".gz") else { return String(decoding: try readFileBytes(path), as: UTF8.self) }
        let bytes = try readFileBytes(path)
        let text = try Gzip.decompress(bytes, limit: ScenarioLimits.maxFileBytes * 4)
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads a results directory (its samples.csv and run.json) or a samples.csv file (and the
    /// run.json beside it).
    public static func load(_ path: String) throws(CompareError) -> ResultSet {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CompareError(file: path, message: "no such file or directory (expected a results directory or a samples.csv)")
        }
        let samplesPath = isDirectory.boolValue ? samplesFile(inDirectory: path) : path
        let text: String
        do {
            text = try readSamples(samplesPath)
        } catch let error as Gzip.Failure {
            throw CompareError(file: samplesPath, message: "cannot be decompressed: \(error)")
        } catch {
            throw CompareError(file: samplesPath, message: isDirectory.boolValue
                ? "missing: a results directory holds samples.csv.gz or samples.csv (written by `layout-bench run`)"
                : "cannot be read")
        }
        var result = try parse(text, file: samplesPath)
        let directory = (samplesPath as NSString).deletingLastPathComponent
        let profilesPath = (directory.isEmpty ? "." : directory) + "/" + FunctionProfileRow.fileName
        if FileManager.default.fileExists(atPath: profilesPath) {
            let profileText: String
            do { profileText = try readSamples(profilesPath) } catch {
                throw CompareError(file: profilesPath, message: "cannot be read or decompressed: \(error)")
            }
            result.profiles = try FunctionProfileRow.parse(profileText, file: profilesPath)
        }
        let metadataPath = (directory.isEmpty ? "." : directory) + "/run.json"
        if let json = (try? readFileBytes(metadataPath)).map({ String(decoding: $0, as: UTF8.self) }) {
            do {
                result.metadata = try RunMetadata.decode(json)
            } catch {
                result.metadataProblem = "\(metadataPath) cannot be read as run.json; machines not checked"
            }
        } else {
            result.metadataProblem = "no run.json beside \(samplesPath); machines not checked"
        }
        return result
    }

    /// Parses samples.csv text (`file` names it in errors).
    public static func parse(_ text: String, file: String) throws(CompareError) -> ResultSet {
        let table: CSVTable
        do {
            table = try CSVParser.parseTable(text)
        } catch let error as CSVParser.ParseError {
            throw CompareError(file: file, message: error.description)
        } catch {
            throw CompareError(file: file, message: "\(error)")
        }
        guard table.header == CSVSchema.samplesHeader else {
            if table.header == CSVSchema.summaryHeader {
                throw CompareError(file: file, message: "this is a summary.csv; compare needs the samples (samples.csv or its results directory)")
            }
            throw CompareError(file: file, message: "line 1: not a samples.csv header; expected "
                + CSVSchema.samplesHeader.joined(separator: ","))
        }
        guard !table.rows.isEmpty else { throw CompareError(file: file, message: "no samples (only a header)") }
        var series: [RowKey: SeriesSamples] = [:]
        var repetitionSlots: [RowKey: [String: Int]] = [:]
        var commits: [String] = []
        var firstPeakMode: [String: String] = [:]
        for (index, row) in table.rows.enumerated() {
            let line = index + 2
            func fail(_ column: String, _ expected: String) -> CompareError {
                let value = row[CSVSchema.samplesHeader.firstIndex(of: column)!]
                return CompareError(file: file, message: "line \(line): \(column): expected \(expected), got '\(value)'")
            }
            guard let schema = Int(row[0]) else { throw fail("schema", "an integer") }
            guard CSVSchema.readableVersions.contains(schema) else {
                throw CompareError(file: file, message: "line \(line): schema version \(schema); this layout-bench reads versions \(CSVSchema.readableVersions.lowerBound) to \(CSVSchema.readableVersions.upperBound) (compare results written by a CSV schema it knows)")
            }
            guard let items = Int(row[6]), items >= 0 else { throw fail("items", "a count >= 0") }
            guard let repetition = Int(row[8]) else { throw fail("repetition", "an integer") }
            let value: Double?
            if row[12] == CSVSchema.unsupported {
                value = nil
            } else if let number = Double(row[12]), !number.isNaN {
                value = number
            } else {
                throw fail("value", "a number or '\(CSVSchema.unsupported)'")
            }
            if !commits.contains(row[2]) { commits.append(row[2]) }
            var key = RowKey(scenario: row[3], mode: row[5], items: items, operation: row[7], metric: row[10])
            if schema == 1 && row[10] == Metric.peakRSS.rawValue {
                // Version 1 copied the group's one value under every mode: keep the first mode's
                // copy as the group-level row version 2 writes.
                let group = "\(row[3])\u{1F}\(items)"
                if let first = firstPeakMode[group], first != row[5] { continue }
                firstPeakMode[group] = row[5]
                key = RowKey(scenario: row[3], mode: "", items: items, operation: "", metric: row[10])
            }
            var entry = series[key] ?? SeriesSamples(workload: row[4], unit: row[11], repetitions: [], unsupportedRows: 0)
            guard let number = value else {
                entry.unsupportedRows += 1
                series[key] = entry
                continue
            }
            let repetitionID = row[1] + "\u{1F}" + String(repetition)
            if let slot = repetitionSlots[key]?[repetitionID] {
                entry.repetitions[slot].append(number)
            } else {
                repetitionSlots[key, default: [:]][repetitionID] = entry.repetitions.count
                entry.repetitions.append([number])
                entry.repetitionNumbers.append(repetition)
            }
            series[key] = entry
        }
        return ResultSet(samplesPath: file, series: series, commits: commits)
    }
}
