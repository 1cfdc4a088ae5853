/// Standard output written so that a failure is an error, not a silent exit 0: `dump`, `export`,
/// the `compare` table and `list` write their results here, and a full disk, a closed descriptor
/// or `/dev/full` ends the command with status 1 and one line on stderr.
package enum StandardOutput {
    /// Whether descriptor 1 was closed when the process started.
    nonisolated(unsafe) private static var closedAtStart = false

    /// Call first: a closed standard descriptor (0, 1 or 2) would be handed to the next file
    /// this process opens, and a result meant for stdout would land in a scenario or results
    /// file. Each closed one is opened on /dev/null; writes to a closed stdout still fail.
    package static func secureStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            if descriptor == STDOUT_FILENO { closedAtStart = true }
            let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }

    /// Writes `text` to standard output, all of it, or throws naming what failed.
    package static func write(_ text: String) throws(OutputError) {
        guard !closedAtStart else {
            throw OutputError(option: "", path: "standard output", doing: "cannot write", errno: EBADF)
        }
        if let code = FileDescriptorWriting.writeAll(Array(text.utf8), to: STDOUT_FILENO) {
            throw OutputError(option: "", path: "standard output", doing: "cannot write", errno: code)
        }
    }
}
