#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A problem with an output path, in the harness's words: the option, the path the user gave
/// (never a hidden temporary name) and what went wrong.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    public var option: String
    public var path: String
    public var reason: String

    public init(option: String, path: String, reason: String) {
        self.option = option
        self.path = path
        self.reason = reason
    }

    public init(option: String, path: String, doing what: String, errno code: Int32) {
        self.init(option: option, path: path, reason: "\(what): \(String(cString: strerror(code)))")
    }

    public var description: String { "\(option) \(path): \(reason)" }
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
/// The staging directory is removed on error, on `discard()`, and on SIGINT or SIGTERM (by a
/// signal handler that then lets the signal end the process as usual). After a SIGKILL it stays
/// hidden, and the next run writing beside it removes it (its process is gone).
public final class ResultsDirectory {
    public let target: String
    public let option: String
    public private(set) var staging: String
    /// Parent directories created for the target (removed again if the run fails).
    private var createdParents: [String] = []
    private var committed = false

    public static let fileNames = ["samples.csv.gz", "summary.csv", "run.json"]
    /// Files a run replaces in an existing directory: its own, and the uncompressed samples an
    /// earlier version wrote (a reader that finds both must not mix two runs).
    static let replacedNames = fileNames + ["samples.csv"]

    /// Prepares `target` (given with `option`, for errors): creates missing parents and the
    /// staging directory, after removing stale staging directories of dead runs.
    public init(target: String, option: String = "--out") throws(OutputError) {
        var trimmed = target
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard !trimmed.isEmpty else { throw OutputError(option: option, path: target, reason: "expected a directory path") }
        self.target = trimmed
        self.option = option
        self.staging = ""
        var info = stat()
        if lstat(trimmed, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw OutputError(option: option, path: target, reason: "exists and is not a directory; give a directory for the results")
            }
        }
        let (parent, name) = Self.split(trimmed)
        guard name != "." && name != ".." && name != "/" else {
            throw OutputError(option: option, path: target, reason: "give a directory by name (not '.', '..' or '/')")
        }
        try createParents(parent, userPath: target)
        Self.removeStaleStaging(in: parent)
        let prefix = (parent == "/" ? "/" : parent + "/") + ".\(name).partial-\(getpid())-"
        var created = false
        for _ in 0..<8 where !created {
            let candidate = prefix + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            if mkdir(candidate, 0o755) == 0 {
                staging = candidate
                created = true
            } else if errno != EEXIST {
                let code = errno
                removeCreatedParents()
                throw OutputError(option: option, path: target, doing: "cannot create the results directory", errno: code)
            }
        }
        guard created else {
            removeCreatedParents()
            throw OutputError(option: option, path: target, reason: "cannot create a private staging directory")
        }
        SignalCleanup.register(Self.fileNames.map { staging + "/" + $0 } + [staging])
    }

    deinit {
        if !committed { discard() }
    }

    /// Writes one result file into the staging directory (durably: fsync'ed).
    public func write(_ text: String, to name: String) throws(OutputError) {
        try write(bytes: Array(text.utf8), to: name)
    }

    /// Writes `bytes` as the staged file `name` (flushed to disk before the commit).
    public func write(bytes: [UInt8], to name: String) throws(OutputError) {
        precondition(!committed && !name.contains("/"))
        let path = staging + "/" + name
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
    public func commit() throws(OutputError) {
        precondition(!committed)
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
        SignalCleanup.unregister(Self.fileNames.map { staging + "/" + $0 } + [staging])
        FileDescriptorWriting.syncDirectory(Self.split(target).parent)
    }

    /// Removes the staging directory (with the hard links a failed exchange may have left in it)
    /// and any parents created for it.
    public func discard() {
        guard !committed, !staging.isEmpty else { return }
        Self.removeTree(staging)
        SignalCleanup.unregister(Self.fileNames.map { staging + "/" + $0 } + [staging])
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

    /// Atomically swaps two directories.
    static func exchange(_ a: String, _ b: String) -> Bool {
        #if canImport(Darwin)
        return renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
        #else
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else {
            errno = ENOSYS
            return false
        }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
        #endif
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

    /// Removes a directory of plain files (and hard links), one level deep.
    static func removeTree(_ directory: String) {
        for entry in entries(of: directory) { unlink(directory + "/" + entry) }
        rmdir(directory)
    }
}
