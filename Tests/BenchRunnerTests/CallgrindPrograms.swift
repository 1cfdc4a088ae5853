import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// Whether C programs can be built and run under callgrind here (valgrind, a C compiler and
/// callgrind's client-request header): the end-to-end callgrind tests need all three.
let canRunCallgrindPrograms = CallgrindRunner.isAvailable && findOnPath("cc") != nil
    && FileManager.default.fileExists(atPath: "/usr/include/valgrind/callgrind.h")

/// A temporary folder of small C programs for the end-to-end callgrind tests.
struct CallgrindPrograms {
    let directory: String

    init(_ name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Compiles `source` with `-O1` and `flags` into an executable named `name`; returns its path.
    func compile(_ source: String, name: String, flags: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let file = directory + "/" + name + ".c", executable = directory + "/" + name
        try source.write(toFile: file, atomically: false, encoding: .utf8)
        let compiler = try #require(findOnPath("cc"), sourceLocation: sourceLocation)
        let compiled = try runChildProcess(executable: compiler, arguments: ["-O1"] + flags + ["-o", executable, file])
        #expect(compiled.status == 0, "\(compiled.output)", sourceLocation: sourceLocation)
        return executable
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
