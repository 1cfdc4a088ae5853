import Foundation

/// One row of `failures.csv` (docs/csv.md): a scenario × mode × items group whose mode failed
/// in a run — it disagreed with the reference, threw, killed or hung its process — and so has
/// no rows (or only an earlier repetition's) in samples.csv and summary.csv. A run writes the
/// file always (a header alone when every mode passed), so that a reader never takes a failed
/// run's missing rows for a good run's; `compare`, `compare-commits` and `history` call such a
/// group `failed`, and `export` refuses the run.
package struct FailureRow: Sendable, Equatable, Hashable {
    /// What went wrong.
    package enum Check: String, Sendable, CaseIterable, Codable {
        /// The mode's answer disagrees with the reference (`VerificationError`).
        case verification
        /// The harness or the mode threw (a set-up, build or operation that cannot run).
        case error
        /// The process running the mode died: a signal (a trap) or an exit status.
        case crash
        /// The process running the mode made no progress for `--stall-timeout` and was stopped.
        case stall
    }

    /// Where in the group's measurement it went wrong.
    package enum Step: String, Sendable, CaseIterable, Codable {
        /// Setting up the workload's fixture (every mode of the group fails).
        case fixture
        /// Building the mode and, in the first repetition, verifying it.
        case build
        /// Warming one of its operations up.
        case warmUp = "warm-up"
        /// The interleaved sampling.
        case sampling
        /// Counting its allocations in untimed passes.
        case allocations
        /// Counting its instructions under callgrind (`--instructions`).
        case callgrind
    }

    package var scenario: String
    package var workload: String
    package var mode: String
    package var items: Int
    /// The operation it was on, when the step is one operation's (empty otherwise).
    package var operation: String
    package var step: Step
    package var check: Check
    /// The one line the run printed for it.
    package var message: String

    package init(scenario: String, workload: String, mode: String, items: Int, operation: String = "",
                step: Step, check: Check, message: String) {
        self.scenario = scenario
        self.workload = workload
        self.mode = mode
        self.items = items
        self.operation = operation
        self.step = step
        self.check = check
        self.message = message
    }

    package static let fileName = "failures.csv"
    package static let header = [
        "schema", "run_id", "commit", "scenario", "workload", "mode", "items", "operation", "step", "check", "message",
    ]
    /// The longest message written (in bytes): a reference's detail can quote many elements, and a
    /// record must stay well within the readers' 1 MiB limit whatever the names around it.
    package static let maxMessageBytes = 16_384

    /// The group, as compare pairs it.
    package var group: FailedGroup { FailedGroup(scenario: scenario, mode: mode, items: items) }

    /// What the run says of it in a sentence: "verification failed while building (…message…)".
    package var summary: String {
        let at = step == .fixture ? "setting up the fixture" : step.rawValue + (operation.isEmpty ? "" : " \(operation)")
        return "\(check.rawValue) failed at \(at): \(message)"
    }

    /// failures.csv: the header, then one row per failure.
    package static func csv(_ rows: [FailureRow], runID: String, commit: String) -> String {
        var writer = CSVWriter(header: header)
        for row in rows {
            writer.append([String(CSVSchema.version), runID, commit, row.scenario, row.workload, row.mode, String(row.items),
                           row.operation, row.step.rawValue, row.check.rawValue, truncated(row.message)])
        }
        return writer.text
    }

    /// `message` cut to `maxMessageBytes` at a character boundary, "…" marking the cut.
    static func truncated(_ message: String) -> String {
        guard message.utf8.count > maxMessageBytes else { return message }
        var kept = ""
        var bytes = 0
        for character in message {
            let size = character.utf8.count
            if bytes + size > maxMessageBytes - 3 { break }
            kept.append(character)
            bytes += size
        }
        return kept + "…"
    }

    /// The failures recorded beside a results file in `directory`: none when the directory has no
    /// failures.csv (results of a version before it, which recorded no failures); read strictly
    /// otherwise (`read`).
    package static func load(besideIn directory: String, limit: Int = ResultsFile.maxBytes) throws(CompareError) -> [FailureRow] {
        let path = (directory.isEmpty ? "." : directory) + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else {
            return []
        }
        return try read(CSVRecordStream(source: FileByteSource(path: path, limit: limit), file: path))
    }

    /// Rows of failures.csv text (`file` names it in errors).
    package static func parse(_ text: String, file: String) throws(CompareError) -> [FailureRow] {
        try read(CSVRecordStream(source: MemoryByteSource(bytes: Array(text.utf8)), file: file))
    }

    /// The rows of a failures.csv, held to what `run` writes: the header, every field, a schema
    /// this version reads, a count, a step and a check of the lists above, a scenario, mode and
    /// message that are not empty, and each group once. Anything else is an error naming the line.
    static func read<Source>(_ records: CSVRecordStream<Source>) throws(CompareError) -> [FailureRow] {
        let file = records.file
        guard try records.next(), records.strings == header else {
            throw CompareError(file: file, message: "not a failures.csv: expected the header \(header.joined(separator: ","))")
        }
        var rows: [FailureRow] = []
        var seen: [FailedGroup: Int] = [:]
        while try records.next() {
            guard records.count == header.count else {
                throw records.error("expected \(header.count) fields (\(header.joined(separator: ","))), got \(records.count) (a truncated file?)")
            }
            guard let schema = try records.withField(0, { ResultsNumber.integer($0) }), CSVSchema.readableVersions.contains(schema) else {
                throw records.error("schema \(records.string(0)) is not one this version reads (\(CSVSchema.readableVersions))")
            }
            guard let items = try records.withField(6, { ResultsNumber.integer($0) }), items >= 0 else {
                throw records.error("items: expected a count >= 0, got '\(records.string(6))'")
            }
            guard let step = Step(rawValue: records.string(8)) else {
                throw records.error("step: expected one of \(Step.allCases.map(\.rawValue).joined(separator: ", ")), got '\(records.string(8))'")
            }
            guard let check = Check(rawValue: records.string(9)) else {
                throw records.error("check: expected one of \(Check.allCases.map(\.rawValue).joined(separator: ", ")), got '\(records.string(9))'")
            }
            for (index, name) in [(3, "scenario"), (5, "mode"), (10, "message")] where records.field(index, is: "") {
                throw records.error("\(name): empty (a failure names its scenario, mode and what went wrong)")
            }
            let row = FailureRow(scenario: records.string(3), workload: records.string(4), mode: records.string(5), items: items,
                                 operation: records.string(7), step: step, check: check, message: records.string(10))
            if let earlier = seen.updateValue(records.line, forKey: row.group) {
                throw records.error("a second row for \(row.scenario) \(row.mode) \(items) (line \(earlier); a group fails once)")
            }
            rows.append(row)
        }
        return rows
    }
}

/// A scenario × mode × items group, as failures name it and `compare` pairs it.
package struct FailedGroup: Sendable, Hashable, Comparable {
    package var scenario: String
    package var mode: String
    package var items: Int

    package init(scenario: String, mode: String, items: Int) {
        self.scenario = scenario
        self.mode = mode
        self.items = items
    }

    package static func < (a: FailedGroup, b: FailedGroup) -> Bool {
        (a.scenario, a.mode, a.items) < (b.scenario, b.mode, b.items)
    }

    package var label: String { "\(scenario) \(mode) \(items)" }
}
