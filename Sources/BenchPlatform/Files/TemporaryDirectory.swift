import Foundation
/// Where a run's child processes keep their input and output (`runChildProcess`), and the copy
/// callgrind runs: `$TMPDIR`, or /tmp when it is unset. `run` checks it before anything else, so
/// that a missing or read-only one is one line naming TMPDIR rather than a Foundation error in
/// the middle of the run (or a run.json silently without its commit and toolchain).
package enum TemporaryDirectory {
    /// The directory as Foundation resolves it (`$TMPDIR`, else `/tmp/`).
    package static var path: String { FileManager.default.temporaryDirectory.path }

    /// Throws unless `path` is a directory this process can create files in; the error's option
    /// is `TMPDIR`.
    package static func check(_ path: String = TemporaryDirectory.path) throws(OutputError) {
        func failure(_ reason: String) -> OutputError {
            OutputError(option: "TMPDIR", path: path,
                        reason: reason + "; a run keeps its child processes' input and output there: set TMPDIR to a writable directory (unset, /tmp)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw failure("not a directory") }
        guard access(path, W_OK | X_OK) == 0 else { throw failure("cannot create files in it: " + String(cString: strerror(errno))) }
    }

    /// The error of a temporary directory that `what` ("a child process could not write its
    /// output there"), with the reason a probe write of 64 KiB gives now (No space left on
    /// device on a full disk): the run stops on it instead of blaming the modes.
    package static func unwritable(what: String, _ path: String = TemporaryDirectory.path) -> OutputError {
        var reason = what
        if let code = probeWrite(path) { reason += ": " + String(cString: strerror(code)) }
        return OutputError(option: "TMPDIR", path: path, reason: reason + "; free space there or set TMPDIR to another directory")
    }

    /// The errno of writing 64 KiB to a new file in `path` (removed again), or nil when it worked.
    static func probeWrite(_ path: String) -> Int32? {
        let probe = path + "/" + TemporaryFiles.prefix + "child-\(getpid())-probe"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor); unlink(probe) }
        return FileDescriptorWriting.writeAll([UInt8](repeating: 0, count: 65_536), to: descriptor)
    }
}
