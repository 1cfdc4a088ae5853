import ArgumentParser
import Foundation
import BenchPlatform
import BenchRunner

/// Internal: what `run` launches for a repetition in a fresh process or a mode under callgrind.
/// It reads one `ChildRequest` as JSON from standard input, so it needs no scenarios directory.
struct ChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "child",
        abstract: "Internal: run one request of `layout-bench run` (JSON on standard input).",
        shouldDisplay: false)

    func run() throws {
        // Not under callgrind: the watchdog thread's wake-ups would be counted inside the regions
        // (instrumentation covers every thread), and the parent there waits for this child anyway.
        if !CallgrindRegion.isUnderValgrind { exitWhenOrphaned() }
        try reportingErrors {
            let request: ChildRequest
            do {
                request = try ChildRequest.decode(FileHandle.standardInput.readDataToEndOfFile())
            } catch {
                throw CommandFailure(message: "child: standard input is not a request of `layout-bench run`: \(error)")
            }
            let output = try ChildProcessWork.run(
                request, progress: { StandardError.writeLine($0) }, output: writeOutput)
            writeOutput(output)
        }
    }
}

/// Writes to standard output, the file in $TMPDIR the parent reads. One that cannot be written (a
/// full disk) ends this child with `ChildProgressLog.unwritableStatus`, which the parent reports
/// as its TMPDIR's problem, not the mode's (Foundation's FileHandle trapped, a SIGILL the parent
/// took for the mode's crash).
private func writeOutput(_ data: Data) {
    guard !data.isEmpty else { return }
    do { try StandardOutput.write(String(decoding: data, as: UTF8.self)) } catch { exit(ChildProgressLog.unwritableStatus) }
}

/// Ends this child when the `run` that started it is gone (interrupted or killed), checking five
/// times a second: a repetition must not keep measuring for nobody.
private func exitWhenOrphaned() {
    let parent = getppid()
    Thread.detachNewThread {
        while true {
            Thread.sleep(forTimeInterval: 0.2)
            if getppid() != parent { exit(1) }
        }
    }
}
