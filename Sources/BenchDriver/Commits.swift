import Foundation
import BenchPlatform
import BenchResults

/// The commits of this repository, as git names them, and their built binaries.
package enum Commits {
    /// The full hash of `reference`, or one clear error.
    package static func resolve(_ reference: String, in directory: String? = nil) throws(DriverError) -> String {
        let result = git(["rev-parse", "--verify", "--quiet", reference + "^{commit}"], in: directory)
        guard result.status == 0, let hash = hashes(result.output).last else {
            throw DriverError("'\(reference)' is not a commit of this repository (try a hash, a branch, a tag or HEAD~1)",
                              details: said(result.output))
        }
        return hash
    }

    /// The short hash git gives `hash` (7 characters, more where needed).
    package static func short(_ hash: String, in directory: String? = nil) -> String {
        let result = git(["rev-parse", "--short", hash], in: directory)
        return result.status == 0 ? hashes(result.output).last ?? String(hash.prefix(7)) : String(hash.prefix(7))
    }

    /// The commits of a range (`A..B`, oldest first), or of one commit.
    /// With `firstParent`, only the commits of its first-parent line (a merge is one step).
    package static func range(_ range: String, firstParent: Bool = false, in directory: String? = nil) throws(DriverError) -> [String] {
        guard range.contains("..") else { return [try resolve(range, in: directory)] }
        let result = git(["rev-list", "--reverse"] + (firstParent ? ["--first-parent"] : []) + [range], in: directory)
        guard result.status == 0 else {
            throw DriverError("'\(range)' is not a revision range of this repository", details: said(result.output))
        }
        return hashes(result.output)
    }

    /// The commit time of `hash` (seconds since 1970), 0 when git does not know it.
    package static func time(_ hash: String, in directory: String? = nil) -> Int {
        let lines = git(["show", "-s", "--format=%ct", hash], in: directory).output.split(separator: "\n")
        return lines.lazy.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first ?? 0
    }

    /// The lines of git's output that are object names (git's own warnings and `fatal:` lines,
    /// which come with them, are not).
    static func hashes(_ output: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { (4...64).contains($0.count) && $0.allSatisfy(\.isHexDigit) }
    }

    /// What git said besides object names (its `fatal:` line), shown after the driver's own line.
    static func said(_ output: String) -> [String] {
        Array(output.split(separator: "\n").map(String.init).filter { !hashes($0 + "\n").contains($0) && !$0.isEmpty }
            .prefix(3)).map { "git: " + $0 }
    }

    static func git(_ arguments: [String], in directory: String? = nil) -> (status: Int32, output: String) {
        guard let git = findOnPath("git") else { return (127, "") }
        do {
            // git's standard error comes back with its output, never on ours: its `fatal:` line
            // is a detail under the driver's own error line, not a line before it.
            let result = try runChildProcess(executable: git, arguments: (directory.map { ["-C", $0] } ?? []) + arguments)
            return (result.status, result.output)
        } catch {
            return (127, "")
        }
    }

    /// Builds commit `hash` with `command` (scripts/build-commit: a worktree of its own in
    /// .build-commits/<hash>, a release build with functions aligned) and returns its binary.
    /// The command's progress and its reasons for failing go to stderr; it prints the binary's
    /// path. A failure is one error line naming the commit and how the command ended (its own
    /// lines, above, say why); a path that is not an executable file is refused.
    ///
    /// The command runs with `TMPDIR` a private directory of its own, removed when it ends however
    /// it ends (an interrupt included): SwiftPM leaves `TemporaryDirectory.*` folders and `*.lock`
    /// files in `TMPDIR` when a build fails or is stopped.
    package static func build(_ hash: String, with command: String) throws(DriverError) -> String {
        let short = String(hash.prefix(7))
        try checkBinary(command, what: "--build-command \(command)")
        let result: (status: Int32, output: String)
        do {
            result = try TemporaryFiles.withToolEnvironment { environment in
                try runChildProcess(executable: command, arguments: [hash], environment: environment, passesErrorThrough: true)
            }
        } catch {
            throw DriverError("\(command): cannot run it (\(describe(error)))")
        }
        guard result.status == 0 else {
            throw DriverError("commit \(short) could not be built: \(command) exited with status \(result.status)")
        }
        let binary = result.output.split(separator: "\n").last.map(String.init) ?? ""
        guard !binary.isEmpty else {
            throw DriverError("commit \(short) could not be built: \(command) printed no path of a layout-bench")
        }
        try checkBinary(binary, what: "\(command) printed '\(binary)' for commit \(short)")
        return binary
    }

    /// Refuses a path that is not an executable regular file: a binary given (`--base-binary`) or
    /// printed by the build command, before anything runs it.
    package static func checkBinary(_ path: String, what: String) throws(DriverError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DriverError("\(what): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DriverError("\(what): \(ResultsFile.kind(mode: info.st_mode) ?? "not a regular file"), not an executable file")
        }
        guard access(path, X_OK) == 0 else { throw DriverError("\(what): not executable") }
    }

    /// An error of Foundation or the system in words (never `NSCocoaErrorDomain error 3584`).
    static func describe(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.domain == NSCocoaErrorDomain ? "the system could not start it" : error.localizedDescription
    }
}

extension DriverError {
    /// A failure whose reason a child already gave on stderr: exit 1 without another line.
    package static let silent = DriverError("")
    package var isSilent: Bool { message.isEmpty }
}
