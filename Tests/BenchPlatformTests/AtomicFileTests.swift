import Foundation
import Testing
@testable import BenchPlatform

@Suite struct AtomicFileTests {
    @Test func writesAndLeavesNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atomicfile-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/summary.csv"
        try AtomicFile.write("first\n", to: path)
        try AtomicFile.write("second, longer\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second, longer\n")
        try AtomicFile.write([0x61, 0x0A], to: directory + "/bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["bytes", "summary.csv"])
    }

    @Test func failureLeavesNothing() {
        #expect(throws: AtomicFileError.self) {
            try AtomicFile.write("x", to: "/nonexistent-directory-\(UInt32.random(in: 0...UInt32.max))/file.csv")
        }
    }
}
