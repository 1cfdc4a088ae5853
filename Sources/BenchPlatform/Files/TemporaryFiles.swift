import Foundation
/// The harness's files in `$TMPDIR`: `layout-bench-<kind>-<pid>-…` (a child's input and output,
/// callgrind's dump directory, the debug-stripped copy of the executable, a private directory for
/// the tools it runs). An interrupt removes them (`SignalCleanup`); what a SIGKILL or a crash left
/// is removed by the next run (`sweep()`), once the process that made it is gone.
package enum TemporaryFiles {
    static let prefix = "layout-bench-"

    /// The kinds of entries the harness makes, by the word after the prefix.
    static let kinds: Set<String> = ["child", "callgrind", "tools", "progress"]

    static var directory: String {
        var path = FileManager.default.temporaryDirectory.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The process id in an entry's name, when it is one of the harness's: `layout-bench-<kind>-<pid>`
    /// followed by the end of the name, `-` or `.`.
    static func owner(of name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), kinds.contains(String(rest[..<dash])) else { return nil }
        let digits = rest[rest.index(after: dash)...].prefix { $0.isASCII && $0.isNumber }
        let after = rest[rest.index(after: dash)...].dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 9, after.isEmpty || after.first == "-" || after.first == "." else { return nil }
        return pid_t(digits)
    }

    /// Removes the entries of processes that no longer exist.
    package static func sweep() {
        let directory = directory
        for name in ResultsDirectory.entries(of: directory) {
            guard let pid = owner(of: name), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR { ResultsDirectory.removeTree(path) } else { unlink(path) }
        }
    }

    /// Runs `body` with the environment for a tool this process starts: ours, with `TMPDIR` a
    /// private directory for the tool's own temporary files (the Swift driver leaves a
    /// `TemporaryDirectory.*` behind each call), removed afterwards. nil (inherit ours) when the
    /// directory cannot be created.
    package static func withToolEnvironment<T>(_ body: ([String: String]?) throws -> T) rethrows -> T {
        var template = Array((directory + "/" + prefix + "tools-\(getpid())-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard created else { return try body(nil) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        SignalCleanup.register(tree: path)
        defer {
            ResultsDirectory.removeTree(path)
            SignalCleanup.unregister(tree: path)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = path
        return try body(environment)
    }
}
