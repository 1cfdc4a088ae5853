/// A problem with an output path, in the harness's words: the option, the path the user gave
/// (never a hidden temporary name) and what went wrong.
package struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    package var option: String
    package var path: String
    package var reason: String
    /// The errno behind it, when a system call failed.
    package var code: Int32?

    package init(option: String, path: String, reason: String, code: Int32? = nil) {
        self.option = option
        self.path = path
        self.reason = code.map { $0 == 0 ? reason : "\(reason): \(String(cString: strerror($0)))" } ?? reason
        self.code = code == 0 ? nil : code
    }

    package init(option: String, path: String, doing what: String, errno code: Int32) {
        self.init(option: option, path: path, reason: what, code: code)
    }

    package var description: String { option.isEmpty ? "\(path): \(reason)" : "\(option) \(path): \(reason)" }
}

/// The results directory of one run, which appears whole or not at all.
///
/// The files are written into a private staging directory beside the target
/// (`<parent>/.<name>.partial-<pid>-<random>`, so a rename is atomic), created before measuring
/// so that an unwritable `--out` fails at once. `commit()` then makes them visible:
/// - a new target: one `rename(2)` of the staging directory;
/// - an existing directory: one atomic exchange of the two directories (`renameat2` with
///   `RENAME_EXCHANGE` on Linux, `renamex_np` with `RENAME_SWAP` on Apple platforms) after the
///   directory's other entries were hard-linked into the staging directory (subdirectories are
///   moved after the exchange). The directory therefore always holds one run's complete set:
///   the three files never come from two runs.
///
/// A symbolic link to a directory (`results/latest`) is followed. Every file is registered for
/// removal before it is created, and the commit runs with interrupts held back
/// (`SignalCleanup.deferringSignals`), so the staging directory and every file in it are removed
/// on error, on `discard()`, and on SIGINT, SIGTERM or SIGHUP at any moment (by a signal handler
/// that then lets the signal end the process as usual). After a SIGKILL it stays hidden, and the
/// next run writing beside it removes it (its process is gone). The staging name is shortened so
/// that any legal target name works.
package final class ResultsDirectory {
    package let target: String
    package let option: String
    package private(set) var staging: String
    /// Parent directories created for the target (removed again if the run fails).
    private var createdParents: [String] = []
    private var committed = false
    /// The files written into the staging directory (each registered with `SignalCleanup`).
    private var written: [String] = []
    /// Every path registered with `SignalCleanup`: the files, then the staging directory (the
    /// handler removes files before directories).
    private var registered: [String] { written.map { staging + "/" + $0 } + [staging] }

    package static let fileNames = ["samples.csv.gz", "summary.csv", "run.json", "failures.csv"]
    /// What a run replaces in an existing directory: its own files, the ones a run writes only
    /// sometimes (`profiles.csv.gz` of `--instructions`), the uncompressed samples an earlier
    /// version wrote, and the report `scripts/plot` drew from the earlier run. A reader must never
    /// find two runs' files side by side (`compare` would take one run's profiles for another's).
    static let replacedNames = fileNames + ["profiles.csv.gz", "samples.csv", "report"]

    /// Prepares `target` (given with `option`, for errors): creates missing parents and the
    /// staging directory, after removing stale staging directories of dead runs.
    package init(target: String, option: String = "--out") throws(OutputError) {
        var trimmed = target
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard !trimmed.isEmpty else { throw OutputError(option: option, path: target, reason: "expected a directory path") }
        // A symbolic link (`results/latest`) is followed: the run replaces the directory it names.
        let resolved: OutputTarget
        do { resolved = try OutputTarget.resolve(trimmed) } catch {
            throw OutputError(option: option, path: target, reason: error.reason, code: error.code)
        }
        switch resolved.kind {
        case .missing, .directory: break
        default:
            throw OutputError(option: option, path: target, reason: "exists and is not a directory; give a directory for the results")
        }
        self.target = resolved.path
        self.option = option
        self.staging = ""
        let (parent, name) = Self.split(resolved.path)
        guard !name.isEmpty && name != "." && name != ".." && name != "/" else {
            throw OutputError(option: option, path: target, reason: "give a directory by name (not '.', '..' or '/')")
        }
        try createParents(parent, userPath: target)
        Self.removeStaleStaging(in: parent)
        let directory = parent == "/" ? "/" : parent + "/"
        var created = false
        for _ in 0..<8 where !created {
            let suffix = ".partial-\(getpid())-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let candidate = directory + OutputTarget.hiddenName(for: name, suffix: suffix)
            // Registered before it exists: an interrupt right after mkdir leaves nothing behind.
            SignalCleanup.register([candidate])
            if mkdir(candidate, 0o755) == 0 {
                staging = candidate
                created = true
            } else {
                let code = errno
                SignalCleanup.unregister([candidate])
                if code != EEXIST {
                    removeCreatedParents()
                    throw OutputError(option: option, path: target, doing: "cannot create the results directory", errno: code)
                }
            }
        }
        guard created else {
            removeCreatedParents()
            throw OutputError(option: option, path: target, reason: "cannot create a private staging directory")
        }
        if resolved.kind == .directory { try checkExchangeable(userPath: target) }
    }

    /// Refuses, before anything is measured, an existing target the staging directory cannot be
    /// exchanged with: a mount point (a CI volume, a bind mount), where the exchange at the end
    /// would fail with "Invalid cross-device link" after the whole run. The staging directory is
    /// moved into the target and back (with signals held back): a move across mounts fails with
    /// EXDEV exactly where the exchange would. Other failures of the probe (a read-only target)
    /// say nothing of the exchange and are left to it.
    private func checkExchangeable(userPath: String) throws(OutputError) {
        let inside = target + "/" + Self.split(staging).name
        let code: Int32 = SignalCleanup.deferringSignals {
            guard rename(staging, inside) == 0 else { return errno }
            return rename(inside, staging) == 0 ? 0 : errno
        }
        var info = stat()
        if lstat(staging, &info) != 0 && lstat(inside, &info) == 0 {
            // The move back failed: the staging directory is inside the target, which it could
            // never be exchanged with. Removed from there, and the run refused now.
            SignalCleanup.register([inside])
            SignalCleanup.unregister([staging])
            staging = inside
            discard()
            throw OutputError(option: option, path: userPath, doing: "cannot move its staging directory back out of it", errno: code)
        }
        guard code == EXDEV else { return }
        discard()
        throw OutputError(option: option, path: userPath,
                          reason: "is a mount point or on another file system than its parent directory, where the results are staged; "
                            + "they could not replace it in one step: give a directory inside it (e.g. \(userPath)/results)")
    }

    deinit {
        if !committed { discard() }
    }

    /// Writes one result file into the staging directory (durably: fsync'ed).
    package func write(_ text: String, to name: String) throws(OutputError) {
        try write(bytes: Array(text.utf8), to: name)
    }

    /// Writes `bytes` as the staged file `name` (flushed to disk before the commit).
    package func write(bytes: [UInt8], to name: String) throws(OutputError) {
        precondition(!committed && !name.contains("/"))
        let path = staging + "/" + name
        if !written.contains(name) {
            // Before the file exists, so that an interrupt never leaves it in the staging directory.
            SignalCleanup.register([path])
            written.append(name)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(option: option, path: target, doing: "cannot write \(name)", errno: errno)
        }
        defer { close(descriptor) }
        if let failure = FileDescriptorWriting.writeAndSync(bytes, to: descriptor) {
            throw OutputError(option: option, path: target, doing: "cannot write \(name)", errno: failure.code)
        }
    }

    /// Makes the staged files the target's contents in one step (see the type).
    package func commit() throws(OutputError) {
        precondition(!committed)
        // Held back until the directory is whole: an interrupt between the exchange and the moves
        // of subdirectories would otherwise leave them hidden in the staging directory.
        try SignalCleanup.deferringSignals { () throws(OutputError) in
            var info = stat()
            if lstat(target, &info) != 0 {
                guard rename(staging, target) == 0 else {
                    throw failure("cannot move the results into place", errno)
                }
            } else {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw failure("exists and is not a directory", ENOTDIR)
                }
                try exchangeWithExisting()
            }
            committed = true
            SignalCleanup.unregister(registered)
        }
        FileDescriptorWriting.syncDirectory(Self.split(target).parent)
    }

    /// Removes the staging directory (with the hard links a failed exchange may have left in it)
    /// and any parents created for it.
    package func discard() {
        guard !committed, !staging.isEmpty else { return }
        Self.removeTree(staging)
        SignalCleanup.unregister(registered)
        removeCreatedParents()
        committed = true
    }

    // MARK: Existing directories

    private func exchangeWithExisting() throws(OutputError) {
        // Keep the directory's other entries: hard links of files now, subdirectories after.
        var subdirectories: [String] = []
        for entry in Self.entries(of: target) where !Self.replacedNames.contains(entry) {
            let source = target + "/" + entry
            var info = stat()
            guard lstat(source, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                subdirectories.append(entry)
            } else if link(source, staging + "/" + entry) != 0 {
                throw failure("cannot keep \(entry) (hard link)", errno)
            }
        }
        guard Self.exchange(staging, target) else {
            throw failure("cannot replace the results in place (no atomic directory exchange on this file system)", errno)
        }
        // `staging` now holds the previous contents.
        for entry in subdirectories { rename(staging + "/" + entry, target + "/" + entry) }
        Self.removeTree(staging)
    }

    // MARK: Helpers

    private func failure(_ what: String, _ code: Int32) -> OutputError {
        let error = OutputError(option: option, path: target, doing: what, errno: code)
        discard()
        return error
    }

    private func createParents(_ parent: String, userPath: String) throws(OutputError) {
        var missing: [String] = []
        var path = parent
        var info = stat()
        while stat(path, &info) != 0 {
            guard errno == ENOENT else {
                throw OutputError(option: option, path: userPath, doing: "cannot use the directory \(path)", errno: errno)
            }
            missing.append(path)
            let up = Self.split(path).parent
            if up == path { break }
            path = up
        }
        if missing.isEmpty, info.st_mode & S_IFMT != S_IFDIR {
            throw OutputError(option: option, path: userPath, reason: "\(path) is not a directory")
        }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
                let code = errno
                removeCreatedParents()
                throw OutputError(option: option, path: userPath, doing: "cannot create the directory \(directory)", errno: code)
            }
            createdParents.append(directory)
        }
    }

    private func removeCreatedParents() {
        for directory in createdParents.reversed() { rmdir(directory) }
        createdParents = []
    }

    /// `(parent, last component)` of a path without a trailing slash.
    static func split(_ path: String) -> (parent: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
    }

    static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the staging directories (`.<name>.partial-<pid>-<hex>`) of runs whose process no
    /// longer exists: what a SIGKILL or a crash left beside their targets.
    static func removeStaleStaging(in parent: String) {
        for entry in entries(of: parent) where entry.hasPrefix(".") {
            guard let marker = entry.range(of: ".partial-", options: .backwards) else { continue }
            let rest = entry[marker.upperBound...]
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                  rest[rest.index(after: dash)...].allSatisfy(\.isHexDigit) else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
            removeTree((parent == "/" ? "/" : parent + "/") + entry)
        }
    }

    /// Removes a directory and everything in it, without following symbolic links.
    static func removeTree(_ directory: String) {
        for entry in entries(of: directory) {
            let path = directory + "/" + entry
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { removeTree(path) } else { unlink(path) }
        }
        rmdir(directory)
    }
}
