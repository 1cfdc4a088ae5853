import Foundation
import Testing
@testable import BenchPlatform

/// `runChildProcess` (posix_spawn and waitpid): what the child sees and what comes back.
@Suite struct ChildProcessTests {
    /// Standard input from `input`, output and error merged, the exit status, the environment as
    /// given, the working directory.
    @Test func theChildSeesItsInputEnvironmentAndDirectory() throws {
        let result = try runChildProcess(
            executable: "/bin/sh",
            arguments: ["-c", "read line; echo \"in:$line env:$LB_PROBE dir:$(pwd)\"; echo err >&2; exit 3"],
            environment: ["LB_PROBE": "probe value", "PATH": "/usr/bin:/bin"], directory: "/tmp",
            input: Data("hello\n".utf8))
        #expect(result.status == 3)
        #expect(result.output.contains("in:hello env:probe value dir:/tmp"))
        #expect(result.output.contains("err"))
    }

    /// Without `environment` the child inherits ours; without `input` it reads an empty stream.
    @Test func inheritsTheEnvironmentAndReadsNothing() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let result = try runChildProcess(executable: "/bin/sh", arguments: ["-c", "cat; echo \"path:$PATH\""])
        #expect(result.status == 0)
        #expect(result.output == "path:\(path)\n")
    }

    /// The child starts with SIGINT at its default action even when this process ignores it (as a
    /// background job of a shell does), so an interrupt ends it; it runs in a process group of its own.
    @Test func signalsStartAtTheirDefaults() throws {
        // SignalCleanup installs its handlers on first use; installed now, they cannot replace SIG_IGN.
        SignalCleanup.register([String]())
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        let result = try runChildProcess(executable: "/bin/sh", arguments: ["-c", "kill -INT $$; echo survived"])
        #expect(result.status == SIGINT)
        #expect(!result.output.contains("survived"))
        let group = try runChildProcess(executable: "/bin/sh", arguments: ["-c", "ps -o pgid= -p $$; echo $$"])
        let numbers = group.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1], "\(group.output)")
        #expect(numbers.first != Int(getpgrp()))
    }

    @Test func aMissingExecutableThrows() {
        #expect(throws: (any Error).self) { try runChildProcess(executable: "/nonexistent/program", arguments: []) }
    }
}
