import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import TextShaping

/// Hardening round 4 (issue 48) at the unit level: runs of combining marks, the escaping of what
/// acts on a terminal, font files that are not regular files, the results directory on another
/// file system. The command-line behaviour is the fuzz test's `streams` class
/// (Tests/CLI/hardening_streams.py) and Tests/CLI/text_input_test.py.
@Suite("streams and text limits")
struct StreamsAndTextLimitsTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func markRunsPastTheLimitAreFoundWhereTheyStart() throws {
        let limit = TextLimits.maximumMarkRun
        #expect(TextLimits.longMarkRun(in: Self.bytes("plain ASCII text")) == nil)
        #expect(TextLimits.longMarkRun(in: Self.bytes("a" + String(repeating: "\u{301}", count: limit))) == nil)
        let over = try #require(TextLimits.longMarkRun(in: Self.bytes("ab" + String(repeating: "\u{301}", count: 32_000))))
        #expect(over.offset == 2 && over.count == 32_000)
        // Default-ignorables between the marks do not end the run (HarfBuzz skips them looking
        // back for the base); a base character or a space does.
        let joined = try #require(TextLimits.longMarkRun(in: Self.bytes("x" + String(repeating: "\u{301}\u{2060}", count: 17))))
        #expect(joined.count == 34)
        #expect(TextLimits.longMarkRun(in: Self.bytes(String(repeating: "e" + String(repeating: "\u{316}", count: limit), count: 100))) == nil)
        #expect(TextLimits.longMarkRun(in: Self.bytes(String(repeating: "\u{2764}" + String(repeating: "\u{FE0F}", count: 40), count: 2)))?.offset == 3)
        // A run at the very end counts too, and offsets are UTF-8 bytes.
        let end = try #require(TextLimits.longMarkRun(in: Self.bytes("日本" + String(repeating: "\u{20D0}", count: 33))))
        #expect(end.offset == 6 && end.count == 33)
    }

    @Test func aScenarioTextWithALongMarkRunIsRefusedNamingItsField() {
        let text = "a" + String(repeating: "\u{301}", count: 100)
        let json = #"{"sections": [[{"template": "row", "text": "TEXT"}]]}"#.replacingOccurrences(of: "TEXT", with: text)
        do {
            let root = JSONNode(try JSONParser.parse(Array(json.utf8), file: "s.json"), file: "s.json", path: "")
            let item = try root.object().array("sections")[0].array()[0]
            _ = try ScenarioData.labelText(try item.object().require("text"))
            Issue.record("a run of 100 marks was accepted")
        } catch {
            #expect("\(error)".contains("sections[0][0].text"))
            #expect("\(error)".contains("100 combining marks"))
        }
    }

    @Test func displayTextEscapesWhatActsOnATerminal() {
        #expect(DisplayText.escaped("list-query 1000\n") == "list-query 1000\n")
        #expect(DisplayText.escaped("a\u{7}b\u{1B}[31mc\u{202E}d\u{85}e\u{7F}\tf\n") == "a\\u0007b\\u001B[31mc\\u202Ed\\u0085e\\u007F\tf\n")
        #expect(DisplayText.escaped("a\nb\tc", keepingLines: false) == "a\\u000Ab\\u0009c")
        #expect(DisplayText.escaped("日本語 — é") == "日本語 — é")
        #expect(JSONValue.quoted("x\u{0}\u{1B}\u{2066}y") == "\"x\\u0000\\u001B\\u2066y\"")
        let long = String(repeating: "y", count: 100_000)
        #expect(DisplayText.bounded(long).hasSuffix("… (100000 characters)"))
        #expect(DisplayText.bounded(long).count < 200)
        #expect(DisplayText.bounded("short") == "short")
    }

    @Test func aFontFileThatIsAFIFOIsRefusedNotWaitedOn() throws {
        let directory = NSTemporaryDirectory() + "layout-bench-font-fifo-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/DejaVuSans.ttf"
        #expect(mkfifo(fifo, 0o644) == 0)
        do {
            _ = try FontLibrary.open(path: fifo, faceIndex: 0, family: "DejaVu Sans")
            Issue.record("a FIFO was opened as a font")
        } catch {
            #expect(error.message.contains("not a regular file"))
        }
    }

    @Test func anEmptyFontFileIsRefusedAndARealOneOpensTwice() throws {
        let directory = NSTemporaryDirectory() + "layout-bench-font-map-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = directory + "/DejaVuSans.ttf"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        do {
            _ = try FontLibrary.open(path: empty, faceIndex: 0, family: "DejaVu Sans")
            Issue.record("an empty file was opened as a font")
        } catch {
            #expect(error.message.contains("it is empty"))
        }
        // A real face, opened twice from two mappings, reads alike.
        let path = FontLibrary.systemDirectories.map { $0 + "/truetype/dejavu/DejaVuSans.ttf" }
            .first { FileManager.default.isReadableFile(atPath: $0) }
        guard let path else { return }
        let first = try FontLibrary.open(path: path, faceIndex: 0, family: "DejaVu Sans")
        let second = try FontLibrary.open(path: path, faceIndex: 0, family: "DejaVu Sans")
        #expect(first.unitsPerEm == 2048 && second.unitsPerEm == 2048)
        #expect(first.lineHeight(size: 17) == second.lineHeight(size: 17))
    }

    /// /dev/shm is another file system than the temporary directory where a tmpfs is mounted
    /// there; the test is reported skipped where none is (the CLI's streams class mounts one as root).
    static var sharedMemoryIsAnotherFileSystem: Bool {
        var tmp = stat(), shm = stat()
        return stat("/dev/shm", &shm) == 0 && stat(NSTemporaryDirectory(), &tmp) == 0 && shm.st_dev != tmp.st_dev
            && access("/dev/shm", W_OK) == 0
    }

    @Test(.enabled(if: sharedMemoryIsAnotherFileSystem, "/dev/shm is a writable file system of its own"))
    func aResultsDirectoryOnAnotherFileSystemIsRefusedBeforeAnythingIsStaged() throws {
        do {
            _ = try ResultsDirectory(target: "/dev/shm")
            Issue.record("/dev/shm, a mount point, was accepted as --out")
        } catch {
            #expect(error.reason.contains("mount point"))
        }
        #expect(!ResultsDirectory.entries(of: "/dev").contains { $0.hasPrefix(".shm.partial-") })
    }
}
