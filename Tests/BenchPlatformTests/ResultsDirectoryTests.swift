import Foundation
import Testing
@testable import BenchPlatform
@testable import LayoutTestSupport

/// Results appear as a set: a new directory in one rename, an existing one in one exchange,
/// nothing at all on failure; errors name the option and the user's path.
@Suite struct ResultsDirectoryTests {
    func contents(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func writeSet(_ results: ResultsDirectory, _ tag: String) throws {
        for name in ResultsDirectory.fileNames { try results.write("\(tag) \(name)\n", to: name) }
    }

    @Test func newDirectoryAppearsWhole() throws {
        let root = try makeScratchDirectory("results")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/nested/run"
        let results = try ResultsDirectory(target: target)
        try writeSet(results, "first")
        // Before the commit only the hidden staging directory exists.
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(contents(root + "/nested").count == 1 && contents(root + "/nested")[0].hasPrefix(".run.partial-"))
        try results.commit()
        #expect(contents(root + "/nested") == ["run"])
        #expect(contents(target) == ["failures.csv", "run.json", "samples.csv.gz", "summary.csv"])
    }

    @Test func existingDirectoryIsExchangedKeepingOtherEntries() throws {
        let root = try makeScratchDirectory("results")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/run"
        let first = try ResultsDirectory(target: target)
        try writeSet(first, "first")
        try first.commit()
        try "mine\n".write(toFile: target + "/notes.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: target + "/plots", withIntermediateDirectories: false)
        try "png\n".write(toFile: target + "/plots/a.png", atomically: false, encoding: .utf8)

        let second = try ResultsDirectory(target: target)
        try writeSet(second, "second")
        // The first run's files stay complete until the commit.
        #expect(try String(contentsOfFile: target + "/summary.csv", encoding: .utf8) == "first summary.csv\n")
        try second.commit()
        for name in ResultsDirectory.fileNames {
            #expect(try String(contentsOfFile: target + "/" + name, encoding: .utf8) == "second \(name)\n")
        }
        #expect(try String(contentsOfFile: target + "/notes.txt", encoding: .utf8) == "mine\n")
        #expect(try String(contentsOfFile: target + "/plots/a.png", encoding: .utf8) == "png\n")
        #expect(contents(root) == ["run"])
    }

    @Test func failureLeavesNothing() throws {
        let root = try makeScratchDirectory("results")
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            let results = try ResultsDirectory(target: root + "/a/b/run")
            try writeSet(results, "partial")
            results.discard()
        }
        #expect(contents(root).isEmpty)
        // Dropped without a commit (an error unwinding): removed too.
        do {
            let results = try ResultsDirectory(target: root + "/run")
            try writeSet(results, "partial")
        }
        #expect(contents(root).isEmpty)
    }

    @Test func staleStagingOfDeadRunsIsRemoved() throws {
        let root = try makeScratchDirectory("results")
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A pid that cannot exist (above pid_max), as a SIGKILLed run leaves it.
        let stale = root + "/.old.partial-99999999-abc123"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: false)
        try "x".write(toFile: stale + "/samples.csv", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/.keep.partial-notapid", withIntermediateDirectories: false)
        let results = try ResultsDirectory(target: root + "/new")
        try writeSet(results, "new")
        try results.commit()
        #expect(contents(root) == [".keep.partial-notapid", "new"])
    }

    @Test func errorsNameTheOptionAndTheUsersPath() throws {
        let root = try makeScratchDirectory("results")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "x".write(toFile: root + "/file", atomically: false, encoding: .utf8)
        func message(_ target: String) -> String {
            do {
                _ = try ResultsDirectory(target: target, option: "--out")
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(message(root + "/file") == "--out \(root)/file: exists and is not a directory; give a directory for the results")
        #expect(message(root + "/file/sub") == "--out \(root)/file/sub: \(root)/file is not a directory")
        #expect(message("/proc/x").hasPrefix("--out /proc/x: cannot create the results directory: "))
        do {
            try AtomicFile.write("x", to: "/proc/x/y.csv", option: "--out")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "--out /proc/x/y.csv: cannot write the file: No such file or directory")
        }
        #expect(contents(root) == ["file"])
    }
}
