import Foundation
/// Runs a child process to completion. Its standard output and error go to a temporary file rather
/// than a pipe (no reader thread, no EINTR on a pipe read) and are returned together. `input`
/// becomes its standard input (through a temporary file); with `passesErrorThrough` its standard
/// error goes to ours (live progress) and only its standard output is returned.
///
/// Spawned with `posix_spawn` and reaped with a blocking `waitpid`, not Foundation's `Process`:
/// `Process.waitUntilExit()` polls its run loop every 50 ms, which cost each `run` of a scenario
/// group 0.1–0.2 s of waiting (a child for the repetition, `swift --version`, two git commands),
/// a minute per round of `scripts/compare-commits`. Like `Process`, the child gets a process group
/// of its own (an interrupt reaches it through `SignalCleanup`), and it starts with SIGINT, SIGTERM
/// and SIGHUP at their default actions and no signal blocked, whatever this process inherited.
package func runChildProcess(
    executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    input: Data? = nil, passesErrorThrough: Bool = false
) throws -> (status: Int32, output: String) {
    let child = try runChildProcessReportingSignal(
        executable: executable, arguments: arguments, environment: environment, directory: directory,
        input: input, passesErrorThrough: passesErrorThrough)
    return (child.status, child.output)
}

/// `runChildProcess`, also saying whether a signal ended the child (then `status` is its number).
package func runChildProcessReportingSignal(
    executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    input: Data? = nil, passesErrorThrough: Bool = false, stalled: (() -> Bool)? = nil
) throws -> (status: Int32, signaled: Bool, output: String) {
    let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("layout-bench-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    let outputPath = base + ".out", inputPath = base + ".in"
    SignalCleanup.register([outputPath, inputPath])
    defer { SignalCleanup.unregister([outputPath, inputPath]) }
    let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw TemporaryDirectory.unwritable(what: "cannot create a child process's output file") }
    defer { close(output); unlink(outputPath) }
    var standardInput: Int32
    if let input {
        // Written in place, under the name SignalCleanup knows: FileManager.createFile writes
        // through a hidden temporary file beside it, which an interrupt would leave in $TMPDIR.
        let file = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw TemporaryDirectory.unwritable(what: "cannot create a child process's input file") }
        let failure = FileDescriptorWriting.writeAll([UInt8](input), to: file)
        close(file)
        if let failure {
            unlink(inputPath)
            throw OutputError(option: "TMPDIR", path: TemporaryDirectory.path, doing: "cannot write a child process's input", errno: failure)
        }
        standardInput = open(inputPath, O_RDONLY | O_CLOEXEC)
    } else {
        standardInput = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
    guard standardInput >= 0 else { throw CocoaError(.fileReadUnknown) }
    defer { close(standardInput); if input != nil { unlink(inputPath) } }

    let pid = try SignalCleanup.startChild {
        try spawn(
            executable: executable, arguments: arguments, environment: environment, directory: directory,
            standardInput: standardInput, standardOutput: output, standardError: passesErrorThrough ? STDERR_FILENO : output)
    }
    defer { SignalCleanup.unregister(child: pid) }
    var status: Int32 = 0
    if let stalled {
        // Polled ten times a second: a child that `stalled()` says makes no progress is killed
        // (SIGKILL), and its end reported as any other signal's.
        var killed = false
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { break }
            if ended == -1 {
                guard errno == EINTR else { throw CocoaError(.executableLoad) }
                continue
            }
            if !killed && stalled() {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(100_000)
        }
    } else {
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw CocoaError(.executableLoad) }
        }
    }
    let text = (try? readTextFile(outputPath)) ?? ""
    // Exit status, or the number of the signal that ended it (as Process reports it).
    let signal = status & 0x7f
    return (signal == 0 ? (status >> 8) & 0xff : signal, signal != 0, text)
}

#if canImport(Darwin)
private typealias SpawnFileActions = posix_spawn_file_actions_t?
#else
private typealias SpawnFileActions = posix_spawn_file_actions_t
#endif
/// `posix_spawn_file_actions_addchdir_np` (glibc 2.29, macOS 10.15), looked up at run time: the
/// Glibc module does not declare it.
private let addChdirAction: (@convention(c) (UnsafeMutablePointer<SpawnFileActions>, UnsafePointer<CChar>) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<SpawnFileActions>, UnsafePointer<CChar>) -> Int32).self)
}()

/// posix_spawn with the three standard descriptors, an optional working directory, a new process
/// group and default signal dispositions; returns the child's process id.
private func spawn(
    executable: String, arguments: [String], environment: [String: String]?, directory: String?,
    standardInput: Int32, standardOutput: Int32, standardError: Int32
) throws -> pid_t {
    guard access(executable, X_OK) == 0 else { throw CocoaError(.executableNotLoadable) }
    #if canImport(Darwin)
    var actions: SpawnFileActions = nil
    var attributes: posix_spawnattr_t? = nil
    #else
    var actions = SpawnFileActions()
    var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
    if standardError != STDERR_FILENO { posix_spawn_file_actions_adddup2(&actions, standardError, STDERR_FILENO) }
    if let directory {
        guard let addChdir = addChdirAction, addChdir(&actions, directory) == 0 else { throw CocoaError(.fileReadUnknown) }
    }
    var defaults = sigset_t(), none = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let variables = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { variables?.forEach { free($0) } }
    var pid: pid_t = 0
    let result = argv.withUnsafeBufferPointer { argvBuffer in
        if let variables {
            return variables.withUnsafeBufferPointer { envBuffer in
                posix_spawn(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, envBuffer.baseAddress!)
            }
        }
        return posix_spawn(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, inheritedEnvironment())
    }
    guard result == 0 else { throw CocoaError(.executableLoad) }
    return pid
}

/// This process's environment, for a child that inherits it: `environ` on Linux; on Apple
/// platforms a program (as opposed to a library) may not name `environ`, `_NSGetEnviron()` gives it.
private func inheritedEnvironment() -> UnsafePointer<UnsafeMutablePointer<CChar>?> {
    #if canImport(Darwin)
    return UnsafePointer(_NSGetEnviron().pointee!)
    #else
    return UnsafePointer(environ)
    #endif
}

/// The first executable named `name` in the PATH directories.
package func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
