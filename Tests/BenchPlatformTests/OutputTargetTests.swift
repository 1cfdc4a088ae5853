import Foundation
import Testing
@testable import BenchPlatform
@testable import LayoutTestSupport

/// What `--out` may replace (issue 34): devices and FIFOs are written through or refused and never
/// renamed over, symbolic links are followed, the command's own inputs are refused, several files
/// appear together or not at all, and long legal names work. Devices are made with mknod in a
/// scratch directory (root only; the test records why it skips otherwise), never in /dev.
@Suite(.serialized) struct OutputTargetTests {
    func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func contents(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// A character device like /dev/null (1, 3) or /dev/full (1, 7) at `path`; false without the right to make one.
    func makeDevice(_ path: String, minor: UInt32) -> Bool {
        // Linux's encoding of (major 1, minor) for numbers below 256.
        mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)) == 0
    }

    @Test func aDeviceIsWrittenThroughNeverReplaced() throws {
        let root = try makeScratchDirectory("out-device")
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard makeDevice(root + "/full", minor: 7), makeDevice(root + "/null", minor: 3) else {
            Issue.record("mknod refused (not root?): the device cases were not checked")
            return
        }
        do {
            try AtomicFile.write("x\n", to: root + "/full", option: "--out")
            Issue.record("writing to a full device succeeded")
        } catch {
            #expect(error.description == "--out \(root)/full: cannot write the file: No space left on device")
        }
        try AtomicFile.write("x\n", to: root + "/null", option: "--out")
        #expect(fileType(root + "/full") == S_IFCHR)
        #expect(fileType(root + "/null") == S_IFCHR)
        #expect(contents(root) == ["full", "null"])
    }

    @Test func aFIFOIsWrittenThroughOrRefusedWithoutWaiting() throws {
        let root = try makeScratchDirectory("out-fifo")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fifo = root + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        // No reader: refused at once.
        #expect(throws: OutputError.self) { try AtomicFile.write("x\n", to: fifo, option: "--out") }
        #expect(fileType(fifo) == S_IFIFO)
        // With a reader: the bytes arrive through it.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write("through\n", to: fifo, option: "--out")
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 8 && String(decoding: buffer[..<8], as: UTF8.self) == "through\n")
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func symbolicLinksAreFollowed() throws {
        let root = try makeScratchDirectory("out-link")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "old\n".write(toFile: root + "/target.csv", atomically: false, encoding: .utf8)
        #expect(symlink("target.csv", root + "/link.csv") == 0)
        try AtomicFile.write("new\n", to: root + "/link.csv", option: "--out")
        #expect(fileType(root + "/link.csv") == S_IFLNK)
        #expect(text(root + "/target.csv") == "new\n")
        // A dangling link: the file is made where it points.
        #expect(symlink("made.csv", root + "/dangling.csv") == 0)
        try AtomicFile.write("made\n", to: root + "/dangling.csv", option: "--out")
        #expect(fileType(root + "/dangling.csv") == S_IFLNK)
        #expect(text(root + "/made.csv") == "made\n")
        // A loop is refused.
        #expect(symlink("loop-b", root + "/loop-a") == 0 && symlink("loop-a", root + "/loop-b") == 0)
        #expect(throws: OutputError.self) { try AtomicFile.write("x", to: root + "/loop-a", option: "--out") }
        #expect(contents(root) == ["dangling.csv", "link.csv", "loop-a", "loop-b", "made.csv", "target.csv"])
    }

    @Test func theCommandsOwnInputsAreRefused() throws {
        let root = try makeScratchDirectory("out-input")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let input = root + "/summary.csv"
        try "input\n".write(toFile: input, atomically: false, encoding: .utf8)
        #expect(link(input, root + "/hardlink.csv") == 0)
        _ = try readFileBytes(input)
        defer { InputFiles.reset() }
        for name in ["/summary.csv", "/hardlink.csv", "/./summary.csv"] {
            do {
                try AtomicFile.write("output\n", to: root + name, option: "--out")
                Issue.record("an input was overwritten through \(name)")
            } catch {
                #expect(error.reason == "is one of this command's inputs; give another path for the output")
            }
        }
        #expect(text(input) == "input\n")
    }

    @Test func aDirectoryIsRefused() throws {
        let root = try makeScratchDirectory("out-dir")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: false)
        #expect(throws: OutputError.self) { try AtomicFile.write("x", to: root + "/dir", option: "--out") }
        #expect(contents(root) == ["dir"] && contents(root + "/dir").isEmpty)
    }

    @Test func filesWrittenTogetherAppearTogetherOrNotAtAll() throws {
        let root = try makeScratchDirectory("out-batch")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/causes.csv", withIntermediateDirectories: false)
        do {
            try AtomicFile.write([(root + "/diff.csv", "table\n"), (root + "/causes.csv", "causes\n")], option: "--out")
            Issue.record("expected the second file to be refused")
        } catch {
            #expect(error.path == root + "/causes.csv")
        }
        #expect(contents(root) == ["causes.csv"])
        try FileManager.default.removeItem(atPath: root + "/causes.csv")
        try AtomicFile.write([(root + "/diff.csv", "table\n"), (root + "/causes.csv", "causes\n")], option: "--out")
        #expect(text(root + "/diff.csv") == "table\n" && text(root + "/causes.csv") == "causes\n")
        #expect(contents(root) == ["causes.csv", "diff.csv"])
    }

    @Test func longLegalNamesWork() throws {
        let root = try makeScratchDirectory("out-long")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for length in [245, 250, 255] {
            let name = String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2)
            #expect(name.utf8.count == length)
            try AtomicFile.write("\(length)\n", to: root + "/" + name, option: "--out")
            #expect(text(root + "/" + name) == "\(length)\n")
            let results = try ResultsDirectory(target: root + "/d" + name.dropFirst(2))
            try results.write("x\n", to: "summary.csv")
            try results.commit()
        }
        #expect(contents(root).count == 6)
        #expect(!contents(root).contains { $0.hasPrefix(".") })
    }

    @Test func temporaryFilesOfDeadProcessesAreSwept() throws {
        let root = try makeScratchDirectory("out-stale")
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A pid above pid_max cannot be running: what a SIGKILLed `dump --out` left.
        try "".write(toFile: root + "/.diff.csv.tmp-99999999-123", atomically: false, encoding: .utf8)
        try "".write(toFile: root + "/.diff.csv.tmp-1-123", atomically: false, encoding: .utf8)  // init is alive
        try "".write(toFile: root + "/.notes.tmp-x", atomically: false, encoding: .utf8)
        try AtomicFile.write("x\n", to: root + "/diff.csv", option: "--out")
        #expect(contents(root) == [".diff.csv.tmp-1-123", ".notes.tmp-x", "diff.csv"])
    }

    @Test func readingNeverWaitsOnAFIFO() throws {
        let root = try makeScratchDirectory("in-fifo")
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkfifo(root + "/scenario.json", 0o644) == 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedBox<String>("waiting")
        Thread.detachNewThread {
            do { _ = try readFileBytes(root + "/scenario.json"); outcome.value = "read" } catch let error as FileReadError {
                outcome.value = error.reason
            } catch {
                outcome.value = "\(error)"
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "readFileBytes blocked on a FIFO")
        #expect(outcome.value == FileReadError.notRegularFile.reason)
        do { _ = try readFileBytes(root); Issue.record("read a directory") } catch {
            #expect(error.reason == "it is a directory, not a file")
        }
    }
}

/// Results directories follow a symbolic link (`results/latest`) and replace every file a run
/// writes, so a directory never holds two runs' files; every staged file is removed on interrupt.
@Suite struct ResultsDirectorySetTests {
    func contents(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func aLinkToADirectoryIsFollowed() throws {
        let root = try makeScratchDirectory("results-link")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/run-1", withIntermediateDirectories: false)
        #expect(symlink("run-1", root + "/latest") == 0)
        let results = try ResultsDirectory(target: root + "/latest")
        try results.write("new\n", to: "summary.csv")
        try results.commit()
        var info = stat()
        #expect(lstat(root + "/latest", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(contents(root + "/run-1") == ["summary.csv"])
        #expect(contents(root) == ["latest", "run-1"])
    }

    @Test func aRerunLeavesNoFileOfTheEarlierRun() throws {
        let root = try makeScratchDirectory("results-rerun")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/run"
        let first = try ResultsDirectory(target: target)
        for name in ResultsDirectory.fileNames + ["profiles.csv.gz"] { try first.write("first\n", to: name) }
        try first.commit()
        try FileManager.default.createDirectory(atPath: target + "/report", withIntermediateDirectories: false)
        try "old chart".write(toFile: target + "/report/index.html", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: target + "/mine", withIntermediateDirectories: false)
        try "kept".write(toFile: target + "/mine/notes", atomically: false, encoding: .utf8)
        let second = try ResultsDirectory(target: target)
        for name in ResultsDirectory.fileNames { try second.write("second\n", to: name) }
        try second.commit()
        #expect(contents(target) == ["failures.csv", "mine", "run.json", "samples.csv.gz", "summary.csv"])
        #expect(contents(root) == ["run"])
    }

    @Test func everyStagedFileIsRegisteredForCleanup() throws {
        let root = try makeScratchDirectory("results-register")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let results = try ResultsDirectory(target: root + "/run")
        try results.write("x", to: "profiles.csv.gz")
        let path = results.staging + "/profiles.csv.gz"
        #expect(SignalCleanup.isRegistered(path))
        #expect(SignalCleanup.isRegistered(results.staging))
        results.discard()
        #expect(!SignalCleanup.isRegistered(path))
    }
}

/// A value shared with a thread the test starts.
final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
