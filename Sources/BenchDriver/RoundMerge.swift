import Foundation
import BenchPlatform
import BenchResults

/// Merges the samples of several rounds of one side into one results directory: its
/// samples.csv.gz (every row of every round, repetitions renumbered), a run.json that spans them,
/// the first round's profiles.csv.gz, and failures.csv: every group that failed in any round (or
/// in the verification that came before them, `failures`), once.
///
/// A round is either a results directory (a run of its own; its repetitions are numbered on
/// from the rounds before: 1, 2, … in the order first met, keyed by round, run and repetition),
/// or a directory of per-group runs `g-1`, `g-2`, … (the timed rounds of `compare-commits`, one
/// process per scenario group), all of whose samples take the round's position as their
/// repetition number, so that the two commits' processes of a round pair up.
///
/// Samples of older harnesses (samples.csv) are read beside samples.csv.gz. Files are written
/// through temporary files renamed into place: an interrupted merge leaves no partial samples.
package enum RoundMerge {
    /// What the driver adds to the merged run.json's `load`: the machine before the driver started
    /// anything (`MachineLoad`) and how many processes it keeps running at once.
    package struct Load: Sendable {
        package var before: RunMetadata.MachineLoad?
        package var ownProcesses: Int?

        package init(before: RunMetadata.MachineLoad? = nil, ownProcesses: Int? = nil) {
            self.before = before
            self.ownProcesses = ownProcesses
        }
    }

    /// The runs of a round: itself, or its `g-N` folders in the order of N; and whether grouped.
    static func parts(of round: String) -> (grouped: Bool, parts: [String]) {
        if Paths.exists(round + "/run.json") { return (false, [round]) }
        let groups = Paths.entries(round).compactMap { name -> (Int, String)? in
            guard name.hasPrefix("g-"), let number = Int(name.dropFirst(2)) else { return nil }
            return (number, round + "/" + name)
        }.sorted { $0.0 < $1.0 }.map(\.1)
        return groups.isEmpty ? (false, [round]) : (true, groups)
    }

    static func samplesFile(in directory: String) -> String? {
        for name in ["samples.csv.gz", "samples.csv"] where Paths.isFile(directory + "/" + name) {
            return directory + "/" + name
        }
        return nil
    }

    /// Merges `rounds` (in order) into `out`.
    package static func merge(rounds: [String], into out: String, load: Load = Load(), failures: [FailureRow] = []) throws(DriverError) {
        var header: [UInt8]?
        var output: [UInt8] = []
        var runs: [String] = []
        var numbers: [String: Int] = [:]
        var repetitionValues = Set<[UInt8]>()
        for (position, round) in rounds.enumerated() {
            let (grouped, parts) = parts(of: round)
            for part in parts {
                guard let file = samplesFile(in: part) else { continue }
                runs.append(part)
                let bytes: [UInt8]
                do { bytes = try ResultsFile.contents(of: file) } catch { throw DriverError("\(error)") }
                try renumber(
                    bytes, file: file, header: &header, output: &output, seen: &repetitionValues,
                    number: { run, repetition in
                        if grouped { return String(position + 1) }
                        let key = "\(part)\u{0}\(run)\u{0}\(repetition)"
                        if let known = numbers[key] { return String(known) }
                        numbers[key] = numbers.count + 1
                        return String(numbers.count)
                    })
            }
        }
        guard let header else {
            throw DriverError("no samples in " + rounds.joined(separator: ", "))
        }
        try Paths.makeDirectory(out)
        let compressed: [UInt8]
        do { compressed = try Gzip.compress(header + output) } catch {
            throw DriverError("\(out)/samples.csv.gz: cannot compress it (\(error))")
        }
        try Paths.write(bytes: compressed, to: out + "/samples.csv.gz")
        Paths.remove(out + "/samples.csv")

        var manifests: [RunManifest] = []
        for part in runs { manifests.append(try JSONFile.read(RunManifest.self, part + "/run.json")) }
        let merged = spanning(manifests, repetitions: repetitionValues.count, load: load)
        try JSONFile.write(merged, to: out + "/run.json")
        // A group that failed in one round failed: its rows in the others are not the mode's.
        var failed = failures
        do {
            for part in runs { failed += try FailureRow.load(besideIn: part) }
        } catch { throw DriverError("\(error)") }
        var seen = Set<FailedGroup>()
        failed = failed.filter { seen.insert($0.group).inserted }
        try Paths.write(FailureRow.csv(failed, runID: merged.runID ?? "", commit: merged.commit),
                        to: out + "/" + FailureRow.fileName)
        // The functions' instruction counts are exact: the first round's profile speaks for all.
        if let profile = runs.map({ $0 + "/" + FunctionProfileRow.fileName }).first(where: Paths.isFile) {
            do { try Paths.write(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: profile))), to: out + "/" + FunctionProfileRow.fileName) } catch let error as DriverError {
                throw error
            } catch {
                throw DriverError("\(profile): cannot read it (\(error.localizedDescription))")
            }
        }
    }

    /// The run.json of runs merged: the first run's, its times and loads spanning all of them
    /// (the load at the first start and at the last end), `scenario_loads` and `coverage` each
    /// item once, `merged_runs` and `repetitions` counted; with `load`, what the driver adds.
    static func spanning(_ manifests: [RunManifest], repetitions: Int, load: Load) -> RunManifest {
        var merged = manifests[0]
        if manifests.count > 1 {
            let byStart = manifests.sorted { ($0.startTime ?? "") < ($1.startTime ?? "") }
            let byEnd = manifests.sorted { ($0.endTime ?? "") < ($1.endTime ?? "") }
            merged.startTime = byStart[0].startTime
            merged.endTime = byEnd[byEnd.count - 1].endTime
            merged.load = RunManifest.Load(start: byStart[0].load?.start ?? .array([]), end: byEnd[byEnd.count - 1].load?.end ?? .null)
            func union(_ lists: [[CarriedJSON]?], keeping first: [CarriedJSON]?) -> [CarriedJSON]? {
                var seen = Set<String>()
                let items = lists.flatMap { $0 ?? [] }.filter { seen.insert($0.compact).inserted }
                return items.isEmpty && first == nil ? nil : items
            }
            merged.scenarioLoads = union(manifests.map(\.scenarioLoads), keeping: merged.scenarioLoads)
            merged.coverage = union(manifests.map(\.coverage), keeping: merged.coverage)
            merged.mergedRuns = manifests.count
            merged.repetitions = repetitions
            merged.repetitionStartSeconds = nil
        }
        if load.before != nil || load.ownProcesses != nil {
            var record = merged.load ?? RunManifest.Load(start: nil, end: nil)
            if let before = load.before { record.before = before }
            if let own = load.ownProcesses { record.ownProcesses = own }
            merged.load = record
        }
        return merged
    }

    /// Appends the rows of one samples file to `output` with their repetition renumbered by
    /// `number(run_id, repetition)`; the first file's header becomes `header`, and every later
    /// header must equal it.
    static func renumber(
        _ bytes: [UInt8], file: String, header: inout [UInt8]?, output: inout [UInt8], seen: inout Set<[UInt8]>,
        number: (String, String) -> String
    ) throws(DriverError) {
        var lines = LineCursor(bytes)
        guard let first = lines.next() else { return }
        let headerLine = Array(bytes[first]) + [UInt8(ascii: "\n")]
        let names = splitFields(bytes, first).map { String(decoding: bytes[$0], as: UTF8.self) }
        guard let repetitionIndex = names.firstIndex(of: "repetition"), let runIndex = names.firstIndex(of: "run_id") else {
            throw DriverError("\(file): line 1: no repetition and run_id columns (not a samples file)")
        }
        if let header {
            guard header == headerLine else {
                throw DriverError("\(file): its header differs from the first round's (results of another schema)")
            }
        } else {
            header = headerLine
        }
        var line = 1
        while let range = lines.next() {
            line += 1
            if range.isEmpty { continue }
            let fields = splitFields(bytes, range)
            guard fields.count > max(repetitionIndex, runIndex) else {
                throw DriverError("\(file): line \(line): \(fields.count) fields, the header has \(names.count)")
            }
            let repetition = fields[repetitionIndex]
            let renumbered = number(String(decoding: bytes[fields[runIndex]], as: UTF8.self),
                                    String(decoding: bytes[repetition], as: UTF8.self))
            let value = Array(renumbered.utf8)
            seen.insert(value)
            output.append(contentsOf: bytes[range.lowerBound..<repetition.lowerBound])
            output.append(contentsOf: value)
            output.append(contentsOf: bytes[repetition.upperBound..<range.upperBound])
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// The fields of one line (byte ranges, quotes kept): commas inside double quotes do not split.
    static func splitFields(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        var start = range.lowerBound
        var quoted = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ","), !quoted {
                fields.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        fields.append(start..<range.upperBound)
        return fields
    }

    /// The lines of a text, without their line ends (LF or CRLF).
    struct LineCursor {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> Range<Int>? {
            guard position < bytes.count else { return nil }
            let start = position
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            position = end + 1
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { return start..<(end - 1) }
            return start..<end
        }
    }
}
