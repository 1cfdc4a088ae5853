import Foundation
import BenchPlatform
import BenchResults

/// What the drivers (`compare-commits`, `compare-builds`, `history`) say when they stop: one line
/// for the user (`layout-bench: error: …`, naming the file or option: `description(command:)`),
/// exit status 1, nothing of the comparison written.
package struct DriverError: Error, Equatable, CustomStringConvertible {
    package var message: String
    /// Lines shown after the message (the end of a failed child's log), indented.
    package var details: [String]
    /// Compare found no row the two sides share (`CompareError.isNothingInCommon`).
    package var isNothingInCommon = false

    package init(_ message: String, details: [String] = []) {
        self.message = message
        self.details = details
    }

    /// `error: …` and the details: as a driver logs a failure it goes on past (a commit of
    /// history that does not build).
    package var description: String { description(prefix: "error: ") }

    /// The line the command ends with, `<command>: error: …`, as every subcommand's.
    package func description(command: String) -> String { description(prefix: command + ": error: ") }

    private func description(prefix: String) -> String {
        ([prefix + message] + details.map { "    " + $0 }).joined(separator: "\n")
    }
}

/// Progress and warnings of a driver: lines on standard error.
package enum DriverLog {
    nonisolated(unsafe) package static var write: (String) -> Void = { line in
        StandardError.writeLine(line)
    }

    package static func say(_ line: String) { write(line) }

    /// Writes a driver's result (compare.txt, the steps) to standard output; one that cannot be
    /// written (a full disk, a closed descriptor, a pipe whose reader is gone) is an error.
    static func output(_ text: String) throws(DriverError) {
        do { try StandardOutput.write(text) } catch { throw DriverError("\(error)") }
    }
}

/// Files and directories as the drivers use them: plain paths relative to the working directory.
enum Paths {
    static var manager: FileManager { FileManager.default }

    static func exists(_ path: String) -> Bool { manager.fileExists(atPath: path) }

    static func isFile(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return manager.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
    }

    static func makeDirectory(_ path: String) throws(DriverError) {
        do { try manager.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw DriverError("\(path): cannot create the directory (\(error.localizedDescription))")
        }
    }

    static func remove(_ path: String) {
        if exists(path) || (try? manager.destinationOfSymbolicLink(atPath: path)) != nil { try? manager.removeItem(atPath: path) }
    }

    static func move(_ from: String, to: String) throws(DriverError) {
        if rename(from, to) != 0 {
            throw DriverError("\(to): cannot move \(from) there (\(String(cString: strerror(errno))))")
        }
    }

    /// Puts the folder `staging` in the place of `final`, with interrupting signals held back: an
    /// earlier `final` is moved aside first and removed only once `staging` is in place (put
    /// back if that fails), so an interruption or a failure leaves either the earlier results or
    /// the new ones, whole.
    static func replace(_ final: String, with staging: String) throws(DriverError) {
        try SignalCleanup.deferringSignals { () throws(DriverError) in
            let aside = final + ".old-\(getpid())"
            remove(aside)
            let hadEarlier = exists(final)
            if hadEarlier { try move(final, to: aside) }
            do throws(DriverError) { try move(staging, to: final) } catch {
                if hadEarlier { try? move(aside, to: final) }
                throw error
            }
            remove(aside)
        }
    }

    static func read(_ path: String) throws(DriverError) -> String {
        do { return try readTextFile(path) } catch {
            throw DriverError("\(path): cannot read it (\(error.reason))")
        }
    }

    /// Writes `text` through a temporary file renamed into place.
    static func write(_ text: String, to path: String) throws(DriverError) {
        try write(bytes: Array(text.utf8), to: path)
    }

    static func write(bytes: [UInt8], to path: String) throws(DriverError) {
        try checkOwnFile(path)
        let temporary = path + ".tmp-\(getpid())"
        guard manager.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw DriverError("\(path): cannot write it")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw DriverError("\(path): cannot write it (\(String(cString: strerror(errno))))")
        }
    }

    /// Refuses to replace `path` unless it is missing or a regular file: the drivers' own files
    /// (commits.txt, steps.csv, compare.txt, …) are replaced through a rename, which would put a
    /// regular file in the place of a FIFO, a device or a symbolic link (and lose the link).
    static func checkOwnFile(_ path: String) throws(DriverError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let kind = info.st_mode & S_IFMT
        guard kind != S_IFREG else { return }
        let what = kind == S_IFLNK ? "a symbolic link" : ResultsFile.kind(mode: info.st_mode) ?? "not a regular file"
        throw DriverError("\(path): is \(what), not a regular file; the driver writes its own file there and replaces only "
            + "a regular file: remove it")
    }

    static func append(_ text: String, to path: String) {
        // write(2), not FileHandle, whose write traps on a full disk; a log line lost there is
        // no reason to stop.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = FileDescriptorWriting.writeAll(Array(text.utf8), to: descriptor)
    }

    /// The directory's entries, sorted; empty when it is not there.
    static func entries(_ path: String) -> [String] {
        ((try? manager.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    static var workingDirectory: String { manager.currentDirectoryPath }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : workingDirectory + "/" + path
    }
}

/// `text` in single quotes for a message: control characters and non-ASCII shown as `\u{…}`,
/// at most 80 characters (a name given on the command line is echoed, never its raw bytes).
func quotedForMessage(_ text: String) -> String {
    var shown = ""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == 80 { shown += "…"; break }
        shown += scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
    }
    return "'" + shown + "'"
}

/// The drivers' own JSON files (run.json as they merge it, `RunManifest`; shard.json,
/// `Shards.Record`), read and written as `Codable` records: pretty-printed, keys sorted and as
/// written (`HarnessJSON.Style.fileKeysAsWritten`), ending with a newline.
enum JSONFile {
    /// The file's one JSON object, as `T`; else one error naming the file.
    static func read<T: Decodable>(_ type: T.Type, _ path: String) throws(DriverError) -> T {
        let data = Data(try Paths.read(path).utf8)
        let tree: CarriedJSON
        do { tree = try JSONDecoder().decode(CarriedJSON.self, from: data) } catch {
            throw DriverError("\(path): cannot read it (not JSON: \(error.localizedDescription))")
        }
        guard case .object = tree else { throw DriverError("\(path): not a JSON object") }
        if let tree = tree as? T { return tree }
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw DriverError("\(path): cannot read it (\(reason(error)))")
        }
    }

    static func text<T: Encodable>(_ value: T) throws(DriverError) -> String {
        do { return String(decoding: try HarnessJSON.encoder(.fileKeysAsWritten).encode(value), as: UTF8.self) + "\n" } catch {
            throw DriverError("cannot encode \(T.self) (\(error))")
        }
    }

    static func write<T: Encodable>(_ value: T, to path: String) throws(DriverError) {
        try Paths.write(try text(value), to: path)
    }

    /// A decoding error as a field and what was wrong with it ("load.before.average: expected …").
    private static func reason(_ error: Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\((path(context).isEmpty ? "" : path(context) + ".") + key.stringValue): missing"
        default:
            return "\(error)"
        }
    }
}

/// A child process of a driver: its command, where it runs, and its output appended to a log.
struct ChildRun {
    var executable: String
    var arguments: [String]
    var directory: String?
    /// Extra environment variables (only for harnesses that predate an option; see `ChildHarness`).
    var environment: [String: String] = [:]

    /// Runs it to its end; its standard output and error are appended to `log` (when given) or
    /// returned. Status 0: success.
    @discardableResult
    func run(log: String?) -> (status: Int32, output: String) {
        var variables: [String: String]?
        if !environment.isEmpty {
            variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let result: (status: Int32, output: String)
        do {
            result = try runChildProcess(executable: executable, arguments: arguments, environment: variables, directory: directory)
        } catch {
            result = (127, "cannot start \(executable): \(error)\n")
        }
        if let log { Paths.append(result.output, to: log) }
        return result
    }
}

/// The last `count` lines of a log file (what a failed child said last).
func lastLines(of path: String, _ count: Int, matching filter: ((String) -> Bool)? = nil) -> [String] {
    let text = (try? readTextFile(path)) ?? ""
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    if let filter { lines = lines.filter(filter) }
    return Array(lines.suffix(count))
}

/// Runs `bodies` at once, one thread each, and waits for all.
func concurrently(_ bodies: [@Sendable () -> Void]) {
    if bodies.count == 1 { bodies[0](); return }
    let group = DispatchGroup()
    for body in bodies {
        DispatchQueue.global().async(group: group) { body() }
    }
    group.wait()
}

/// Seconds on the monotonic clock since an arbitrary start.
func monotonicSeconds() -> Double {
    Double(MonotonicClock.now()) / 1e9
}

/// "3m05s"-style durations of the progress lines: whole minutes and seconds.
func minutesSeconds(_ seconds: Int) -> String { "\(seconds / 60)m\(seconds % 60)s" }

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
