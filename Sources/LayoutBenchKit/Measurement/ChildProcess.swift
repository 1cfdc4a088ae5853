import Foundation

/// Runs a child process to completion. Its standard output and error go to a temporary file rather
/// than a pipe (a pipe read in swift-corelibs-foundation traps on EINTR, which the SIGCHLD of a
/// finishing child can cause) and are returned together.
func runChildProcess(
    executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil
) throws -> (status: Int32, output: String) {
    let outputPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("layout-bench-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out").path
    guard FileManager.default.createFile(atPath: outputPath, contents: nil),
          let output = FileHandle(forWritingAtPath: outputPath)
    else { throw CocoaError(.fileWriteUnknown) }
    defer { try? FileManager.default.removeItem(atPath: outputPath) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try? output.close()
    let text = (try? readTextFile(outputPath)) ?? ""
    return (process.terminationStatus, text)
}
