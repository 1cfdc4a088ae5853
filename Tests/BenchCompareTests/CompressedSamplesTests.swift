@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
@testable import LayoutTestSupport

/// `samples.csv.gz`: what `run` writes is gzip that the system's gzip reads, `compare` reads it and
/// the older `samples.csv` alike, and a corrupt file is one clear error.
@Suite struct CompressedSamplesTests {
    @Test func roundTripOfSeededText() throws {
        var generator = SplitMix64(seed: 7)
        for size in [0, 1, 100, 70_000, 300_000] {
            var bytes = [UInt8]()
            for _ in 0..<size { bytes.append(UInt8(truncatingIfNeeded: generator.next() % 40 + 44)) }
            let compressed = try Gzip.compress(bytes)
            #expect(compressed.starts(with: [0x1f, 0x8b]), "a gzip header")
            #expect(try Gzip.decompress(compressed, limit: size + 1) == bytes)
            if size > 0 {
                #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(compressed.dropLast(9)), limit: size + 1) }
                #expect(throws: Gzip.Failure.self) { try Gzip.decompress(compressed, limit: size - 1) }
            }
        }
        // Two members one after the other, as `cat a.gz b.gz` makes.
        let joined = try Gzip.compress(Array("a,b\n".utf8)) + Gzip.compress(Array("c,d\n".utf8))
        #expect(try Gzip.decompress(joined, limit: 100) == Array("a,b\nc,d\n".utf8))
    }

    /// The streaming inflater fed one byte at a time into a one-byte buffer, with an empty input
    /// now and then: most calls make no output (`Z_OK` on a header byte) or need more input
    /// (`Z_BUF_ERROR` with the input used up), and neither may be taken for an error or loop. The
    /// one-shot decoder never met them (it hands zlib all the input at once, so `Z_BUF_ERROR`
    /// could not happen with input left); the streaming reader of results files does.
    @Test func theInflaterTakesAByteAtATime() throws {
        var generator = SplitMix64(seed: 11)
        let text = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: generator.next() % 40 + 44) }
        let compressed = try Gzip.compress(text) + Gzip.compress(Array("tail\n".utf8))
        let expected = text + Array("tail\n".utf8)

        /// Inflates `input`; nil when it ends before its last member does.
        func inflateByteByByte(_ input: [UInt8]) throws -> [UInt8]? {
            let inflater = try Gzip.Inflater()
            var output: [UInt8] = [], out: [UInt8] = [0]
            var consumed = 0, calls = 0, memberEnded = false
            while true {
                calls += 1
                guard calls < 10 * (input.count + expected.count) + 100 else { Issue.record("no progress"); return nil }
                if memberEnded {
                    if consumed == input.count { return output }
                    try inflater.reset()
                    memberEnded = false
                }
                // Every seventh call offers no input: zlib has nothing to do, which is not an error.
                let end = calls % 7 == 0 ? consumed : Swift.min(consumed + 1, input.count)
                let step = try input[consumed..<end].withUnsafeBytes { bytes in
                    try out.withUnsafeMutableBytes { try inflater.inflate(bytes, into: $0) }
                }
                if step.consumed == 0 && step.produced == 0 && !step.memberEnded && consumed == input.count { return nil }
                consumed += step.consumed
                output += out[..<step.produced]
                memberEnded = step.memberEnded
            }
        }
        #expect(try inflateByteByByte(compressed) == expected)
        for cut in stride(from: 0, to: compressed.count, by: 97) {
            #expect(try inflateByteByByte(Array(compressed[..<cut])) == nil, "cut at \(cut)")
        }
    }

    /// Issue 34, item 10: a `samples.csv.gz` that is a directory (or a FIFO) is said to be one,
    /// not "missing" (nor waited on).
    @Test func aSamplesFileThatIsNotAFileIsNamedForWhatItIs() throws {
        let directory = try makeScratchDirectory("gz")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/samples.csv.gz", withIntermediateDirectories: false)
        #expect { try ResultSet.load(directory) } throws: {
            ($0 as? CompareError)?.description == "\(directory)/samples.csv.gz: is a directory, not a results file"
        }
        try FileManager.default.removeItem(atPath: directory + "/samples.csv.gz")
        #expect(mkfifo(directory + "/samples.csv.gz", 0o600) == 0)
        #expect { try ResultSet.load(directory) } throws: {
            ($0 as? CompareError)?.description == "\(directory)/samples.csv.gz: is a FIFO, not a results file"
        }
    }

    /// A directory with samples but neither run.json nor summary.csv is not what `run` writes:
    /// `compare` still compares its samples, and says so (on stderr, from `notices`). Without
    /// summary.csv alone (rounds merged by scripts/compare-commits) it says nothing.
    @Test func aDirectoryOfSamplesAloneIsNoticed() throws {
        let directory = try makeScratchDirectory("gz")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = ResultsFixtures.csv(ResultsFixtures.samples(center: 100, spread: 0.01, seed: 1))
        try Data(try Gzip.compress(Array(text.utf8))).write(to: URL(fileURLWithPath: directory + "/samples.csv.gz"))
        #expect(try ResultSet.load(directory).notices == [
            "\(directory): no run.json and no summary.csv beside samples.csv.gz (not a whole results directory of `layout-bench run`); "
                + "comparing its samples alone, machines and builds not checked"])
        #expect(try ResultSet.load(directory + "/samples.csv.gz").notices.count == 1)
        try "{}".write(toFile: directory + "/run.json", atomically: true, encoding: .utf8)
        #expect(try ResultSet.load(directory).notices == [])
        try FileManager.default.removeItem(atPath: directory + "/run.json")
        try "x".write(toFile: directory + "/summary.csv", atomically: true, encoding: .utf8)
        #expect(try ResultSet.load(directory).notices == [
            "\(directory): no run.json beside samples.csv.gz; comparing its samples alone, machines and builds not checked"])
    }

    @Test func theSystemGzipReadsIt() throws {
        let directory = try makeScratchDirectory("gz")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = ResultsFixtures.csv(ResultsFixtures.samples(center: 100, spread: 0.1, seed: 3))
        try Data(try Gzip.compress(Array(text.utf8))).write(to: URL(fileURLWithPath: directory + "/samples.csv.gz"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc '\(directory)/samples.csv.gz'"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: output, as: UTF8.self) == text)
    }

    @Test func compareReadsCompressedAndPlainResults() throws {
        let base = try makeScratchDirectory("gz"), head = try makeScratchDirectory("gz")
        defer { try? FileManager.default.removeItem(atPath: base); try? FileManager.default.removeItem(atPath: head) }
        let baseText = ResultsFixtures.csv(ResultsFixtures.samples(center: 100, spread: 0.01, seed: 1))
        let headText = ResultsFixtures.csv(ResultsFixtures.samples(center: 110, spread: 0.01, seed: 2))
        try baseText.write(toFile: base + "/samples.csv", atomically: true, encoding: .utf8)
        try Data(try Gzip.compress(Array(headText.utf8))).write(to: URL(fileURLWithPath: head + "/samples.csv.gz"))
        let report = try ComparisonReport(base: ResultSet.load(base), head: ResultSet.load(head))
        #expect(report.rows.first?.verdict == .regressed)
        #expect(try ResultSet.load(head + "/samples.csv.gz").series == ResultSet.load(head).series)

        try Data([0x1f, 0x8b, 1, 2, 3]).write(to: URL(fileURLWithPath: head + "/samples.csv.gz"))
        do { _ = try ResultSet.load(head); Issue.record("a corrupt file was read") } catch {
            #expect(error.description.contains("samples.csv.gz: cannot be decompressed"))
        }
    }
}
