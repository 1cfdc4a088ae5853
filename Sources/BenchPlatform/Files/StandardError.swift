/// Standard error written so that it can never end the process: progress, warnings and error
/// lines go here, and a stderr that cannot be written (a full disk under `2> ci.log`,
/// `/dev/full`, a pipe whose reader is gone) loses those lines and nothing else.
///
/// Foundation's `FileHandle.write(_:)` traps when write(2) fails, which turned a full log disk
/// into a SIGILL that left a run's staging directory behind; and a closed pipe's SIGPIPE killed
/// the process the same way. Here write(2) is called directly and its failure ignored: the
/// diagnostics have nowhere else to go, and the exit status stays the command's outcome
/// (docs/command-line.md, "Outputs and inputs").
package enum StandardError {
    /// Writes `text` to descriptor 2, as much of it as the descriptor takes; never fails. The
    /// characters that act on a terminal (`DisplayText`) are written escaped: an error line
    /// echoes names and values from the user's files.
    package static func write(_ text: String) {
        _ = FileDescriptorWriting.writeAll(Array(DisplayText.escaped(text).utf8), to: STDERR_FILENO)
    }

    /// Writes `line` and a line feed.
    package static func writeLine(_ line: String) {
        write(line + "\n")
    }

    /// Makes a write to a pipe whose reader is gone fail with EPIPE instead of ending the process
    /// by SIGPIPE (for stderr, ignored as above; for stdout, an error of `StandardOutput`). Call
    /// once at start; child processes start with SIGPIPE at its default again (`runChildProcess`)
    /// and, being this executable, ignore it the same way.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
