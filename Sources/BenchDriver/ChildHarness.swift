import Foundation

/// One commit's `layout-bench`, a child of the driver, and what its `run` understands. Old
/// commits' binaries are children too, and know only the hidden options they had; the driver asks
/// each (`run --help-hidden`) and uses what it has:
///
/// - `--verified`: later rounds skip the verification the first did;
/// - `--verify-only`: both commits verify at once, one per core, before any timed round;
/// - `--jobs`: such a verification is told to use one child process (the driver runs them side
///   by side already);
/// - `--brief`: the timed rounds sample each operation briefly (`SamplingPolicy.brief`);
/// - `--max-items`: the exact track's timed part skips counts its callgrind pass does not count;
/// - `--duet DIRECTORY:SELF:PARTNER`: the duet (`DuetBarrier`, `DuetTurns`). Harnesses from
///   before the option read the same specification from the environment variable
///   `LAYOUT_BENCH_DUET_TURNS`; the driver sets it for those children only. A harness with
///   neither cannot meet its partner, and the driver runs the groups back to back.
package struct ChildHarness: Sendable, Equatable {
    package enum DuetSupport: Sendable, Equatable {
        case none
        /// `LAYOUT_BENCH_DUET_TURNS` (harnesses before `run --duet`).
        case environment
        case option
    }

    package var binary: String
    /// The directory the child runs in (its commit's worktree, whose Scenarios/ it reads).
    package var directory: String
    package var verifiesOnce = false
    package var verifiesApart = false
    package var countsJobs = false
    package var samplesBriefly = false
    package var capsItems = false
    package var duet = DuetSupport.none

    package static let legacyDuetVariable = "LAYOUT_BENCH_DUET_TURNS"

    package init(binary: String, directory: String, help: String, binaryHoldsLegacyDuet: Bool) {
        self.binary = binary
        self.directory = directory
        verifiesOnce = help.contains("--verified")
        verifiesApart = help.contains("--verify-only")
        countsJobs = help.contains("--jobs")
        samplesBriefly = help.contains("--brief")
        capsItems = help.contains("--max-items")
        duet = help.contains("--duet") ? .option : (binaryHoldsLegacyDuet ? .environment : .none)
    }

    /// Asks `binary` what its `run` understands.
    package static func probe(binary: String, directory: String) -> ChildHarness {
        let help = ChildRun(executable: binary, arguments: ["run", "--help-hidden"], directory: directory).run(log: nil).output
        return ChildHarness(binary: binary, directory: directory, help: help, binaryHoldsLegacyDuet: fileHolds(binary, legacyDuetVariable))
    }

    /// The worktree of a commit's binary (…/<tree>/.build/release/layout-bench), else its folder.
    package static func tree(of binary: String) -> String {
        let url = URL(fileURLWithPath: binary).standardizedFileURL
        let folder = url.deletingLastPathComponent()
        if folder.deletingLastPathComponent().lastPathComponent == ".build" {
            return folder.deletingLastPathComponent().deletingLastPathComponent().path
        }
        return folder.path
    }

    /// The arguments and environment of a child that samples in a duet with `specification`.
    func duetArguments(_ specification: String) -> (arguments: [String], environment: [String: String]) {
        switch duet {
        case .option: return (["--duet", specification], [:])
        case .environment: return ([], [Self.legacyDuetVariable: specification])
        case .none: return ([], [:])
        }
    }

    /// Whether the file at `path` holds the bytes of `text` (a string constant of a binary).
    static func fileHolds(_ path: String, _ text: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        let needle = Array(text.utf8)
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            let bytes = buffer.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count, let first = needle.first else { return false }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == first {
                    var matched = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        matched = false
                        break
                    }
                    if matched { return true }
                }
                index += 1
            }
            return false
        }
    }
}
