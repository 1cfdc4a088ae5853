import Foundation

/// Runs a child process to completion. Its standard output and error go to a temporary file rather
/// than a pipe (a pipe read in swift-corelibs-foundation traps on EINTR, which the SIGCHLD of a
/// finishing child can cause) and are returned together. `input` becomes its standard input
/// (through a temporary file); with `passesErrorThrough` its standard error goes to ours (live
/// progress) and only its standard output is returned.
func runChildProcess(
    executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    input: Data? = nil, passesErrorThrough: Bool = false
) throws -> (status: Int32, output: String) {
    let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("layout-bench-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    let outputPath = base + ".out", inputPath = base + ".in"
    SignalCleanup.register([outputPath, inputPath])
    defer { SignalCleanup.unregister([outputPath, inputPath]) }
    guard FileManager.default.createFile(atPath: outputPath, contents: nil),
          let output = FileHandle(forWritingAtPath: outputPath)
    else { throw CocoaError(.fileWriteUnknown) }
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    var standardInput = FileHandle.nullDevice
    if let input {
        guard FileManager.default.createFile(atPath: inputPath, contents: input),
              let handle = FileHandle(forReadingAtPath: inputPath)
        else { throw CocoaError(.fileWriteUnknown) }
        standardInput = handle
    }
    defer { if input != nil { try? standardInput.close(); try? FileManager.default.removeItem(atPath: inputPath) } }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardOutput = output
    process.standardError = passesErrorThrough ? FileHandle.standardError : output
    process.standardInput = standardInput
    try process.run()
    SignalCleanup.register(child: process.processIdentifier)
    process.waitUntilExit()
    SignalCleanup.unregister(child: process.processIdentifier)
    try? output.close()
    let text = (try? readTextFile(outputPath)) ?? ""
    return (process.terminationStatus, text)
}
