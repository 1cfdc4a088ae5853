import Foundation
import BenchPlatform

/// The commits of this repository, as git names them, and their built binaries.
public enum Commits {
    /// The full hash of `reference`, or one clear error.
    public static func resolve(_ reference: String, in directory: String? = nil) throws(DriverError) -> String {
        let result = git(["rev-parse", "--verify", "--quiet", reference + "^{commit}"], in: directory)
        let hash = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !hash.isEmpty else {
            throw DriverError("'\(reference)' is not a commit of this repository (try a hash, a branch, a tag or HEAD~1)")
        }
        return hash
    }

    /// The short hash git gives `hash` (7 characters, more where needed).
    public static func short(_ hash: String, in directory: String? = nil) -> String {
        let result = git(["rev-parse", "--short", hash], in: directory)
        let short = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && !short.isEmpty ? short : String(hash.prefix(7))
    }

    /// The commits of a range (`A..B`, oldest first), or of one commit.
    /// With `firstParent`, only the commits of its first-parent line (a merge is one step).
    public static func range(_ range: String, firstParent: Bool = false, in directory: String? = nil) throws(DriverError) -> [String] {
        guard range.contains("..") else { return [try resolve(range, in: directory)] }
        let result = git(["rev-list", "--reverse"] + (firstParent ? ["--first-parent"] : []) + [range], in: directory)
        guard result.status == 0 else { throw DriverError("'\(range)' is not a revision range of this repository") }
        return result.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// The commit time of `hash` (seconds since 1970), 0 when git does not know it.
    public static func time(_ hash: String, in directory: String? = nil) -> Int {
        Int(git(["show", "-s", "--format=%ct", hash], in: directory).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    static func git(_ arguments: [String], in directory: String? = nil) -> (status: Int32, output: String) {
        guard let git = findOnPath("git") else { return (127, "") }
        do {
            let result = try runChildProcess(executable: git, arguments: (directory.map { ["-C", $0] } ?? []) + arguments, passesErrorThrough: true)
            return (result.status, result.output)
        } catch {
            return (127, "")
        }
    }

    /// Builds commit `hash` with `command` (scripts/build-commit: a worktree of its own in
    /// .build-commits/<hash>, a release build with functions aligned) and returns its binary.
    /// The command's progress goes to stderr; it prints the binary's path.
    public static func build(_ hash: String, with command: String) throws(DriverError) -> String {
        let result: (status: Int32, output: String)
        do { result = try runChildProcess(executable: command, arguments: [hash], passesErrorThrough: true) } catch {
            throw DriverError("\(command): cannot run it (\(error))")
        }
        let binary = result.output.split(separator: "\n").last.map(String.init) ?? ""
        // The command said why it failed (one line on stderr).
        guard result.status == 0, !binary.isEmpty else { throw DriverError.silent }
        return binary
    }
}

extension DriverError {
    /// A failure whose reason a child already gave on stderr: exit 1 without another line.
    public static let silent = DriverError("")
    public var isSilent: Bool { message.isEmpty }
}
