import Foundation
import BenchResults
import BenchPlatform

/// Where a repetition's child process is, written to a small file the parent names
/// (`RepetitionRequest.progressFile`), so that when the child dies — a layout that traps in
/// `prepare()`, say — the parent knows which scenario, item count and mode it was on and what it
/// was doing, fails that mode alone and runs the rest in a new child (`RunSession`).
///
/// One JSON line per record, each written with one `write(2)` (in the kernel when the process
/// dies). Records come only at untimed points: a group's set-up, each mode's build and
/// verification, the interleaved sampling (its modes together: nothing is written between
/// samples), and each mode's allocation count.
package final class ChildProgressLog {
    /// One record: the group, the mode (nil while the group's modes are sampled together or its
    /// fixture is set up) and what it was doing.
    package struct Record: Codable, Hashable, Sendable {
        package var scenario: String
        package var items: Int
        package var mode: String?
        package var doing: String
        /// True while the group's modes are sampled together, in turns: a crash then cannot be
        /// pinned on one mode (`RunSession` samples each alone in the next child).
        package var sampledTogether: Bool? = nil
        /// The step of the group (and its operation), for the failure a death there records.
        package var step: FailureRow.Step? = nil
        package var operation: String? = nil
    }

    private let descriptor: Int32

    /// The exit status of a child that could not write its progress or its output (both in
    /// $TMPDIR): the parent then stops the run with one line naming TMPDIR (`RunSession`).
    package static let unwritableStatus: Int32 = 75

    /// Opens (creating or truncating) the file at `path`; nil when it cannot be opened.
    package init?(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        if descriptor < 0 { return nil }
    }

    deinit { close(descriptor) }

    package func record(
        scenario: String, items: Int, mode: String?, doing: String, step: FailureRow.Step? = nil, operation: String = "",
        sampledTogether: Bool = false
    ) {
        let record = Record(scenario: scenario, items: items, mode: mode, doing: doing, sampledTogether: sampledTogether ? true : nil,
                            step: step, operation: operation.isEmpty ? nil : operation)
        guard var line = try? HarnessJSON.encoder().encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        // A full $TMPDIR: without its records the parent could pin no crash on a mode.
        if FileDescriptorWriting.writeAll(Array(line), to: descriptor) != nil { exit(Self.unwritableStatus) }
    }

    /// The last complete record of the file at `path`, or nil.
    package static func lastRecord(path: String) -> Record? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        for line in lines.reversed() {
            if let record = try? JSONDecoder().decode(Record.self, from: Data(line)) { return record }
        }
        return nil
    }
}

/// One scenario × items group of a repetition and its outcome: what a repetition's child writes
/// to standard output, one JSON line per group as soon as the group ends, so that the groups a
/// child finished before it died keep their rows.
package struct GroupOutcome: Codable {
    package var scenario: String
    package var items: Int
    package var outcome: BenchmarkRunner.Outcome
}
