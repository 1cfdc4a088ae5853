import Foundation
import BenchPlatform

/// Bad input to `compare` or `steps`: a missing file, a CSV that is not a samples.csv of this schema,
/// two results with nothing in common. `file` names the file (and line) at fault.
package struct CompareError: Error, Equatable, CustomStringConvertible {
    package var file: String
    package var message: String
    /// The two results share no row: not bad input, but nothing to judge (history says so of a
    /// step and goes on; compare and compare-commits stop).
    package var isNothingInCommon = false
    package init(file: String, message: String) { self.file = file; self.message = message }
    package var description: String { file.isEmpty ? message : "\(file): \(message)" }
}

/// What one scenario × mode × items × operation × metric row of two results is matched on.
package struct RowKey: Hashable, Sendable, Comparable {
    package var scenario: String
    package var mode: String
    package var items: Int
    package var operation: String
    package var metric: String

    package static func < (a: RowKey, b: RowKey) -> Bool {
        (a.scenario, a.mode, a.items, a.operation, a.metric) < (b.scenario, b.mode, b.items, b.operation, b.metric)
    }

    package var label: String { "\(scenario) \(mode) \(items) \(operation) \(metric)" }
}

/// The samples of one series, grouped by independent repetition (run id × repetition number: a
/// samples.csv may hold several runs, each with its own repetitions).
package struct SeriesSamples: Sendable, Equatable {
    package var workload: String
    package var unit: String
    /// One array per repetition, in the order they first appear in the file.
    package var repetitions: [[Double]]
    /// The `repetition` column of each entry of `repetitions`. `compare` pairs the two sides'
    /// repetitions by it when each number appears once on each side (`scripts/compare-commits`
    /// numbers a round's processes of both commits alike, measured seconds apart).
    package var repetitionNumbers: [Int] = []
    /// Rows whose value was `unsupported` (the metric cannot be measured where this ran).
    package var unsupportedRows: Int
    /// The line of the file the series starts on (0 when it did not come from a file).
    package var line: Int = 0

    package var values: [Double] { repetitions.flatMap { $0 } }
    package var count: Int { repetitions.reduce(0) { $0 + $1.count } }
}

/// One side of a comparison: a samples.csv read and checked against the schema, and the run.json
/// beside it when there is one.
package struct ResultSet: Sendable {
    /// The samples.csv that was read.
    package var samplesPath: String
    package var series: [RowKey: SeriesSamples]
    /// The commits named in the file's `commit` column, in order of appearance.
    package var commits: [String]
    /// run.json beside samples.csv, if present and readable.
    package var metadata: RunMetadata?
    /// How the run's metrics are judged, as its run.json describes them (`metrics`; none in runs
    /// written before it was recorded, whose metrics are this binary's, `Metric.named`).
    package var described: [String: Metric] { Metric.byName(metadata?.metrics ?? []) }
    /// Why run.json could not be used (missing or unreadable), for a warning.
    package var metadataProblem: String?
    /// The functions' instructions per operation (`profiles.csv.gz` of a `run --instructions`), if any.
    package var profiles: [FunctionProfileRow] = []
    /// The groups whose mode failed in the run (`failures.csv` beside the samples; none for results
    /// of a version before it). `compare` calls each `failed`.
    package var failures: [FailureRow] = []
    /// What the user should know about the files read, for stderr: samples without the run.json
    /// (and summary.csv) that `run` writes beside them.
    package var notices: [String] = []

    package init(samplesPath: String, series: [RowKey: SeriesSamples], commits: [String],
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

    /// The whole text of a samples file, decompressed when its name ends in `.gz` (for tests and
    /// small files; `load` reads a file as a stream and never holds its text).
    static func readSamples(_ path: String, limit: Int = ResultsFile.maxBytes) throws(CompareError) -> String {
        try ResultsFile.text(of: path, limit: limit)
    }

    /// Reads a results directory (its samples.csv and run.json) or a samples.csv file (and the
    /// run.json beside it). The samples are read as a stream (`ResultsFile`): memory holds their
    /// values, not their text, and a file that decompresses past `limit` bytes is refused.
    package static func load(_ path: String) throws(CompareError) -> ResultSet {
        try load(path, limit: ResultsFile.maxBytes)
    }

    /// The two sides of a comparison, read at once, one per core (reading a whole suite's
    /// samples is a few seconds a side); when both fail, the base's error.
    package static func load(base: String, head: String) throws(CompareError) -> (base: ResultSet, head: ResultSet) {
        final class Sides: @unchecked Sendable {
            var base: Result<ResultSet, CompareError>?
            var head: Result<ResultSet, CompareError>?
        }
        let sides = Sides()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            // Each worker writes only its own side.
            if index == 0 {
                sides.base = Result { () throws(CompareError) in try load(base) }
            } else {
                sides.head = Result { () throws(CompareError) in try load(head) }
            }
        }
        return (try sides.base!.get(), try sides.head!.get())
    }

    static func load(_ path: String, limit: Int) throws(CompareError) -> ResultSet {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CompareError(file: path, message: "no such file or directory (expected a results directory or a samples.csv)")
        }
        let samplesPath = isDirectory.boolValue ? samplesFile(inDirectory: path) : path
        if isDirectory.boolValue && !FileManager.default.fileExists(atPath: samplesPath) {
            throw CompareError(file: samplesPath, message: "missing: a results directory holds samples.csv.gz or samples.csv (written by `layout-bench run`)")
        }
        let directory = (samplesPath as NSString).deletingLastPathComponent
        let metadataPath = (directory.isEmpty ? "." : directory) + "/run.json"
        // run.json first: the descriptions of its metrics (`metrics`) are what the samples' values
        // and units are checked against.
        let metadataFile = FileManager.default.fileExists(atPath: metadataPath)
        let metadata = metadataFile ? (try? ResultsFile.text(of: metadataPath, limit: ResultsFile.maxMetadataBytes)).flatMap { try? RunMetadata.decode($0) } : nil
        var result = try read(CSVRecordStream(source: FileByteSource(path: samplesPath, limit: limit), file: samplesPath),
                              described: Metric.byName(metadata?.metrics ?? []))
        let profilesPath = (directory.isEmpty ? "." : directory) + "/" + FunctionProfileRow.fileName
        // The rest of the run's set is not read, but no --out may replace it either.
        for name in ResultsDirectory.fileNames + ["samples.csv", FunctionProfileRow.fileName] {
            InputFiles.record(path: (directory.isEmpty ? "." : directory) + "/" + name)
        }
        if FileManager.default.fileExists(atPath: profilesPath) {
            result.profiles = try FunctionProfileRow.load(profilesPath, limit: limit)
        }
        result.failures = try FailureRow.load(besideIn: directory, limit: limit)
        if !metadataFile {
            result.metadataProblem = "no run.json beside \(samplesPath); machines not checked"
            // Compared all the same (the samples are all compare reads), but said on stderr: a
            // directory of samples alone is not what `run` writes. Without summary.csv alone it
            // is a side that scripts/compare-commits merged from its rounds: nothing to say.
            let folder = isDirectory.boolValue ? path : (directory.isEmpty ? "." : directory)
            let name = (samplesPath as NSString).lastPathComponent
            let summaryPath = (directory.isEmpty ? "." : directory) + "/summary.csv"
            result.notices.append(FileManager.default.fileExists(atPath: summaryPath)
                ? "\(folder): no run.json beside \(name); comparing its samples alone, machines and builds not checked"
                : "\(folder): no run.json and no summary.csv beside \(name) (not a whole results directory of `layout-bench run`); "
                    + "comparing its samples alone, machines and builds not checked")
        } else if let metadata {
            result.metadata = metadata
        } else {
            result.metadataProblem = "\(metadataPath) cannot be read as run.json; machines not checked"
        }
        return result
    }

    /// Parses samples.csv text (`file` names it in errors).
    package static func parse(_ text: String, file: String) throws(CompareError) -> ResultSet {
        try read(CSVRecordStream(source: MemoryByteSource(bytes: Array(text.utf8)), file: file))
    }

    /// Reads samples.csv records into series, checking each row as it comes.
    static func read<Source>(_ records: CSVRecordStream<Source>, described: [String: Metric] = [:]) throws(CompareError) -> ResultSet {
        let file = records.file
        guard try records.next() else { throw CompareError(file: file, message: "empty: no header (expected a samples.csv)") }
        let header = records.strings
        guard header == CSVSchema.samplesHeader else {
            if header == CSVSchema.summaryHeader {
                throw CompareError(file: file, message: "this is a summary.csv; compare needs the samples (samples.csv or its results directory)")
            }
            throw CompareError(file: file, message: "line 1: not a samples.csv header; expected "
                + CSVSchema.samplesHeader.joined(separator: ","))
        }
        var reader = SamplesReader()
        reader.described = described
        while try records.next() { try reader.add(records) }
        guard reader.rows > 0 else { throw CompareError(file: file, message: "no samples (only a header)") }
        return ResultSet(samplesPath: file, series: reader.series(), commits: reader.commits)
    }
}

/// samples.csv rows gathered into series as they are read. Consecutive rows of a series and
/// repetition share every field but `sample` and `value` (the harness writes a repetition's
/// samples of one metric together), so a row whose other fields are the bytes of the row before
/// goes straight to that row's repetition: only its sample and value are read.
struct SamplesReader {
    /// The results' own descriptions of their metrics (run.json's `metrics`), which values and units obey.
    var described: [String: Metric] = [:]

    private struct Series {
        var key: RowKey
        var samples: SeriesSamples
    }

    /// A series' run id × repetition number.
    private struct SlotKey: Hashable {
        var series: Int
        var runID: String
        var repetition: Int
    }

    /// Where a row goes: a series, and a repetition slot of it.
    private struct Destination {
        var series: Int
        var slot: Int
        /// Schema 1's copy of a group's peak_rss under a later mode: skipped.
        var skipped: Bool
        /// The values the series' metric can take (`ResultsValue`).
        var possible: ClosedRange<Double> = 0...0
    }

    private var all: [Series] = []
    private var seriesIndex: [RowKey: Int] = [:]
    private var slotIndex: [SlotKey: Int] = [:]
    /// Per slot, its entry in its series' `repetitions` (nil until the slot's first number) and
    /// its repetition number.
    private var slotRepetition: [Int?] = []
    private var slotNumber: [Int] = []
    /// Per slot, the sample numbers seen: a row appears once.
    private var slotSamples: [SampleNumbers] = []
    /// Per slot, its run id (for the message about a second row).
    private var slotRunID: [String] = []
    private(set) var commits: [String] = []
    private var commitSet: Set<String> = []
    private var firstPeakMode: [String: String] = [:]
    private(set) var rows = 0
    /// The previous row's fields but `sample` and `value`, and where it went.
    private var previousIdentity: [UInt8] = []
    private var previous: Destination?

    mutating func add<Source>(_ record: CSVRecordStream<Source>) throws(CompareError) {
        rows += 1
        let header = CSVSchema.samplesHeader
        guard record.count == header.count else {
            throw record.error("\(record.count) fields, the header has \(header.count) (a truncated file?)")
        }
        // schema … repetition (fields 0–8) and metric, unit (10, 11): the identity of the row's repetition.
        let head = record.rawFields(0, through: 8), tail = record.rawFields(10, through: 11)
        let destination: Destination
        if let previous, previousIdentity.count == head.count + tail.count + 1,
           previousIdentity.withUnsafeBytes({ $0.starts(with: head) && $0[(head.count + 1)...].elementsEqual(tail) }) {
            destination = previous
        } else {
            destination = try resolve(record)
            previousIdentity.removeAll(keepingCapacity: true)
            previousIdentity.append(contentsOf: head)
            previousIdentity.append(0x0A)
            previousIdentity.append(contentsOf: tail)
            previous = destination
        }
        if destination.skipped { return }
        guard let sample = try record.withField(9, { ResultsNumber.integer($0) }), sample >= 0 else {
            throw record.error("sample: expected an integer >= 0, got '\(record.string(9))'")
        }
        guard slotSamples[destination.slot].insert(sample) else {
            let key = all[destination.series].key
            throw record.error("a second row for run '\(slotRunID[destination.slot])', repetition \(slotNumber[destination.slot]), "
                + "sample \(sample) of \(key.label) (each row appears once)")
        }
        let value = try record.withField(12) { (bytes) throws(CompareError) -> Double? in
            if bytes.elementsEqual(CSVSchema.unsupported.utf8) { return nil }
            guard let number = ResultsNumber.decimal(bytes) else {
                throw record.error("value: expected \(ResultsValue.expectedNumber) or '\(CSVSchema.unsupported)', got '\(String(decoding: bytes, as: UTF8.self))'")
            }
            return number
        }
        if let number = value, !destination.possible.contains(number),
           let problem = ResultsValue.problem(number, metric: all[destination.series].key.metric, described: described) {
            throw record.error("value: \(problem)")
        }
        guard let number = value else {
            all[destination.series].samples.unsupportedRows += 1
            return
        }
        if let repetition = slotRepetition[destination.slot] {
            all[destination.series].samples.repetitions[repetition].append(number)
        } else {
            slotRepetition[destination.slot] = all[destination.series].samples.repetitions.count
            all[destination.series].samples.repetitions.append([number])
            all[destination.series].samples.repetitionNumbers.append(slotNumber[destination.slot])
        }
    }

    /// The series and repetition of a row unlike the one before, its fields checked.
    private mutating func resolve<Source>(_ record: CSVRecordStream<Source>) throws(CompareError) -> Destination {
        func fail(_ column: String, _ expected: String) -> CompareError {
            let value = record.string(CSVSchema.samplesHeader.firstIndex(of: column)!)
            return record.error("\(column): expected \(expected), got '\(value)'")
        }
        func integer(_ column: Int) throws(CompareError) -> Int? { try record.withField(column) { ResultsNumber.integer($0) } }
        guard let schema = try integer(0) else { throw fail("schema", "an integer") }
        guard CSVSchema.readableVersions.contains(schema) else {
            throw record.error("schema version \(schema); this layout-bench reads versions \(CSVSchema.readableVersions.lowerBound) to \(CSVSchema.readableVersions.upperBound) (compare results written by a CSV schema it knows)")
        }
        guard let items = try integer(6), items >= 0 else { throw fail("items", "a count >= 0") }
        guard let repetition = try integer(8), repetition >= 0 else { throw fail("repetition", "an integer >= 0") }
        let scenario = record.string(3), mode = record.string(5), metric = record.string(10), unit = record.string(11)
        if let problem = ResultsValue.unitProblem(unit, metric: metric, described: described) { throw record.error("unit: \(problem)") }
        let commit = record.string(2)
        if commitSet.insert(commit).inserted { commits.append(commit) }
        var key = RowKey(scenario: scenario, mode: mode, items: items, operation: record.string(7), metric: metric)
        if schema == 1 && metric == Metric.peakRSS.name {
            // Version 1 copied the group's one value under every mode: keep the first mode's
            // copy as the group-level row version 2 writes.
            let group = "\(scenario)\u{1F}\(items)"
            if let first = firstPeakMode[group], first != mode {
                return Destination(series: 0, slot: 0, skipped: true)
            }
            firstPeakMode[group] = mode
            key = RowKey(scenario: scenario, mode: "", items: items, operation: "", metric: metric)
        }
        let series: Int
        if let known = seriesIndex[key] {
            series = known
            let first = all[series].samples
            if unit != first.unit {
                throw record.error("unit: '\(unit)', where line \(first.line) of the same series has '\(first.unit)'")
            }
        } else {
            series = all.count
            seriesIndex[key] = series
            all.append(Series(key: key, samples: SeriesSamples(workload: record.string(4), unit: unit, repetitions: [], unsupportedRows: 0,
                                                                line: record.line)))
        }
        let runID = record.string(1)
        let slotKey = SlotKey(series: series, runID: runID, repetition: repetition)
        let slot: Int
        if let known = slotIndex[slotKey] {
            slot = known
        } else {
            slot = slotRepetition.count
            slotIndex[slotKey] = slot
            slotRepetition.append(nil)
            slotNumber.append(repetition)
            slotSamples.append(SampleNumbers())
            slotRunID.append(runID)
        }
        return Destination(series: series, slot: slot, skipped: false, possible: ResultsValue.possible(metric: metric, described: described))
    }

    func series() -> [RowKey: SeriesSamples] {
        var result: [RowKey: SeriesSamples] = [:]
        result.reserveCapacity(all.count)
        for series in all { result[series.key] = series.samples }
        return result
    }
}

/// The sample numbers of one repetition of a series, to find a row that appears twice. The
/// harness numbers a repetition's samples 1, 2, 3, … in order, so they are kept as ranges (one,
/// for a file the harness wrote); numbers out of order are placed by binary search, and past
/// `maxRanges` ranges they go to a set (at most one entry per row read, like the values).
struct SampleNumbers {
    private var ranges: [ClosedRange<Int>] = []
    private var spilled: Set<Int>?
    static let maxRanges = 64

    /// False when `number` was seen before.
    mutating func insert(_ number: Int) -> Bool {
        if spilled != nil { return spilled!.insert(number).inserted }
        guard let last = ranges.last else {
            ranges.append(number...number)
            return true
        }
        if number > last.upperBound {
            if number - 1 == last.upperBound { ranges[ranges.count - 1] = last.lowerBound...number } else { ranges.append(number...number) }
        } else {
            // The first range that ends at or after `number`.
            var low = 0, high = ranges.count - 1
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound < number { low = middle + 1 } else { high = middle }
            }
            if ranges[low].lowerBound <= number { return false }
            let joinsBefore = low > 0 && ranges[low - 1].upperBound == number - 1
            let joinsAfter = ranges[low].lowerBound == number + 1
            switch (joinsBefore, joinsAfter) {
            case (true, true):
                ranges[low - 1] = ranges[low - 1].lowerBound...ranges[low].upperBound
                ranges.remove(at: low)
            case (true, false): ranges[low - 1] = ranges[low - 1].lowerBound...number
            case (false, true): ranges[low] = number...ranges[low].upperBound
            case (false, false): ranges.insert(number...number, at: low)
            }
        }
        if ranges.count > Self.maxRanges {
            spilled = Set(ranges.joined())
            ranges = []
        }
        return true
    }
}
