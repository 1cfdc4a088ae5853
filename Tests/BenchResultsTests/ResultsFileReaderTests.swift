@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import LayoutTestSupport

/// Results files read as a stream (`ResultsFile`, `CSVRecordStream`): the records `CSVParser`
/// reads, whatever the chunks the bytes arrive in; memory that holds values, not text; a cap on
/// what one file may expand to; one error naming the file and line.
@Suite struct ResultsFileReaderTests {
    /// Bytes handed out a few at a time, so that records, quotes and CRLFs straddle the chunks.
    struct ChunkedSource: ResultsByteSource {
        var bytes: [UInt8]
        var offset = 0
        var generator: SplitMix64
        var largest: Int

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CompareError) -> Int {
            let count = Swift.min(buffer.count, bytes.count - offset, Int(generator.next() % UInt64(largest)) + 1)
            for i in 0..<count { buffer[i] = bytes[offset + i] }
            offset += count
            return count
        }
    }

    static func records(_ text: String, seed: UInt64, largest: Int) throws(CompareError) -> [[String]] {
        let stream = CSVRecordStream(source: ChunkedSource(bytes: Array(text.utf8), generator: SplitMix64(seed: seed), largest: largest), file: "x.csv")
        var records: [[String]] = []
        while try stream.next() { records.append(stream.strings) }
        return records
    }

    /// Random CSV (every quoting case `CSVWriter` makes, LF and CRLF ends, a last record with and
    /// without one) reads as `CSVParser` reads it, in chunks of 1 to 7 bytes and of up to 300.
    @Test func recordsAreTheRecordsCSVParserReads() throws {
        let pieces = ["", "a", "plain", "a,b", "say \"hi\"", "\"", "line\nbreak", "cr\rhere", "crlf\r\n", "ünïcödé", "12.5", ",", "\"\""]
        var generator = SplitMix64(seed: 5)
        for round in 0..<300 {
            var text = ""
            let records = Int(generator.next() % 6) + 1
            for index in 0..<records {
                let fields = Int(generator.next() % 4) + 2
                text += (0..<fields).map { _ in CSVWriter.escape(pieces[Int(generator.next() % UInt64(pieces.count))]) }.joined(separator: ",")
                if index < records - 1 || generator.next() % 2 == 0 { text += generator.next() % 3 == 0 ? "\r\n" : "\n" }
            }
            let expected = try CSVParser.parse(text)
            for largest in [7, 300] {
                #expect(try Self.records(text, seed: UInt64(round), largest: largest) == expected, "\(text.debugDescription)")
            }
        }
    }

    /// Malformed CSV is refused at the line `CSVParser` names.
    @Test func malformedCSVIsRefusedAtItsLine() {
        for text in ["a,b\nc\"d,e\n", "a,b\n\"c\"d,e\n", "a,b\n\"c,d\n", "a,\"b\nc\"x\n", "a,b\r\nc,\"d\"\r"] {
            var expectedLine = -1
            do { _ = try CSVParser.parse(text); Issue.record("CSVParser accepted \(text.debugDescription)") } catch let error as CSVParser.ParseError {
                expectedLine = error.line
            } catch { Issue.record("\(error)") }
            for largest in [1, 300] {
                do { _ = try Self.records(text, seed: 1, largest: largest); Issue.record("accepted \(text.debugDescription)") } catch {
                    #expect(error.file == "x.csv" && error.message.hasPrefix("line \(expectedLine): "), "\(text.debugDescription): \(error)")
                }
            }
        }
    }

    /// A blank line is an error at its line, wherever it is, the end included (a results file
    /// ends in one line end); a last record without a line end and CRLF line ends are fine.
    @Test func aBlankLineIsAnErrorAtItsLine() throws {
        let rows = ResultsFixtures.samples(center: 100, spread: 0.01, repetitions: 1, count: 5, seed: 1)
        let text = ResultsFixtures.csv(rows)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        lines.insert("", at: 3)
        for (variant, line) in [(lines.joined(separator: "\n"), 4), (text + "\n", 7), (text + "\n\n\n", 7),
                                (lines.joined(separator: "\r\n"), 4)] {
            #expect { try ResultSet.parse(variant, file: "x.csv") } throws: {
                ($0 as? CompareError)?.description == "x.csv: line \(line): a blank line (a results file has none: a truncated or padded file?)"
            }
        }
        #expect(try ResultSet.parse(String(text.dropLast()), file: "x.csv").series.first?.value.count == 5)
        let crlf = text.split(separator: "\n").joined(separator: "\r\n") + "\r\n"
        #expect(try ResultSet.parse(crlf, file: "x.csv").series == ResultSet.parse(text, file: "x.csv").series)
    }

    /// Issue 34's bomb, scaled down: valid samples, then 16 MiB of newlines in 16 KB of gzip. Read
    /// as a stream it fails at the first blank line, holding next to nothing. Read whole (as
    /// before), every blank line became a record of its own: this took about 1 GB (with 1 GiB
    /// of newlines, 24 GB, and the kernel killed the test).
    @Test func aNewlineBombFailsAtItsFirstLineInLittleMemory() throws {
        let directory = try makeScratchDirectory("bomb")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = ResultsFixtures.csv(ResultsFixtures.samples(center: 100, spread: 0.01, repetitions: 2, count: 50, seed: 1))
        let newlines = try Gzip.compress([UInt8](repeating: 0x0A, count: 1 << 20))
        var bomb = try Gzip.compress(Array(text.utf8))
        for _ in 0..<16 { bomb += newlines }
        try Data(bomb).write(to: URL(fileURLWithPath: directory + "/samples.csv.gz"))
        #expect(bomb.count < 64 << 10)

        let before = Self.peakResidentBytes()
        #expect { try ResultSet.load(directory) } throws: {
            ($0 as? CompareError)?.description == "\(directory)/samples.csv.gz: line 102: a blank line (a results file has none: a truncated or padded file?)"
        }
        #expect(Self.peakResidentBytes() - before < 128 << 20)
    }

    /// A file that expands past the cap is refused, gzip or plain, before its rows are judged.
    @Test func aFileLargerThanTheCapIsRefused() throws {
        let directory = try makeScratchDirectory("cap")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = ResultsFixtures.csv(ResultsFixtures.samples(center: 100, spread: 0.01, repetitions: 2, count: 50, seed: 1))
        try Data(try Gzip.compress(Array(text.utf8))).write(to: URL(fileURLWithPath: directory + "/samples.csv.gz"))
        #expect(try ResultSet.load(directory, limit: text.utf8.count).series.count == 1)
        #expect { try ResultSet.load(directory, limit: 4096) } throws: {
            ($0 as? CompareError)?.description
                == "\(directory)/samples.csv.gz: decompresses to more than 4 KiB, the most one results file may hold (a gzip bomb?)"
        }
        try FileManager.default.removeItem(atPath: directory + "/samples.csv.gz")
        try text.write(toFile: directory + "/samples.csv", atomically: true, encoding: .utf8)
        #expect { try ResultSet.load(directory, limit: 1000) } throws: {
            ($0 as? CompareError)?.description == "\(directory)/samples.csv: larger than 1000 bytes, the most one results file may hold"
        }
        #expect(ResultsFile.maxBytes == 4 << 30 && ResultsFile.bytes(ResultsFile.maxBytes) == "4 GiB")
    }

    /// An empty file is one error, whatever reads it.
    @Test func anEmptyFileIsRefused() {
        #expect { try ResultSet.parse("", file: "x.csv") } throws: { ($0 as? CompareError)?.description == "x.csv: empty: no header (expected a samples.csv)" }
        #expect(throws: CompareError.self) { try RunSummaryFile.parse("", path: "x.csv") }
        #expect(throws: CompareError.self) { try FunctionProfileRow.parse("", file: "x.csv") }
    }

    /// One record may not run on for ever (a quote that never closes, a file of one long line).
    @Test func aRecordLongerThanTheLimitIsRefused() {
        let text = CSVSchema.samplesHeader.joined(separator: ",") + "\n2,\"" + String(repeating: "x", count: ResultsFile.maxRecordBytes + 10)
        #expect { try ResultSet.parse(text, file: "x.csv") } throws: {
            ($0 as? CompareError)?.description == "x.csv: line 2: a record longer than 1 MiB (not a results file?)"
        }
    }

    /// The process's peak resident memory so far (bytes).
    static func peakResidentBytes() -> Int { Int(PeakMemory.residentBytes().peakBytes) }
}
