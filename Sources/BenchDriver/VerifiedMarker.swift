import Foundation
import BenchPlatform

/// A verification that passed, remembered beside the commit's build:
/// .build-commits/<commit>.verified-KEY. compare-commits and history both read and write them, so
/// a commit verified by one is not verified again by the other on the same input.
///
/// KEY is a hash of what the verification depends on, by content, never by name: the binary, the
/// run options, the SCENARIO arguments, the environment the child reads (`LAYOUT_BENCH_SCENARIOS`,
/// `LAYOUT_BENCH_FONT_DIRS`), and the content of every scenario file the child reads (each given
/// by path; every file of its scenarios directory when a scenario is named, or none) and of each
/// one's `data.file`. A scenario edited in place, or a data file rewritten, verifies again.
enum VerifiedMarker {
    static let environment = ["LAYOUT_BENCH_SCENARIOS", "LAYOUT_BENCH_FONT_DIRS"]

    /// The marker's path (under `root`, else the working directory); nil where no SHA-256 tool
    /// is, or a file cannot be read (the verification then runs). `directory`: where the child
    /// runs (its commit's worktree), which relative paths and `Scenarios/` are relative to.
    static func path(root: String?, commit: String, binary: String, scenarios: [String], options: [String],
                     directory: String) -> String? {
        guard let binaryHash = sha256(file: binary) else { return nil }
        let files = inputFiles(scenarios: scenarios, directory: directory)
        guard let contents = files.isEmpty ? "" : sha256(files: files) else { return nil }
        let variables = ProcessInfo.processInfo.environment
        let listed = scenarios + options + environment.map { "\($0)=\(variables[$0] ?? "")" }
        let text = binaryHash + "\n" + (listed.isEmpty ? "\n" : listed.map { $0 + "\n" }.joined()) + contents
        guard let key = sha256(text: text) else { return nil }
        return "\(root.map { $0 + "/" } ?? "").build-commits/\(commit).verified-\(key.prefix(16))"
    }

    /// The files a child running in `directory` reads for `scenarios` (see the type), sorted.
    static func inputFiles(scenarios: [String], directory: String) -> [String] {
        func inTree(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        var files: [String] = []
        let isPath = { (argument: String) in argument.contains("/") || argument.hasSuffix(".json") }
        if scenarios.isEmpty || scenarios.contains(where: { !isPath($0) }) {
            let named = ProcessInfo.processInfo.environment["LAYOUT_BENCH_SCENARIOS"].flatMap { $0.isEmpty ? nil : $0 }
            let folder = inTree(named ?? "Scenarios")
            files += Paths.entries(folder).map { folder + "/" + $0 }.filter(isRegularFile)
        }
        files += scenarios.filter(isPath).map(inTree)
        for file in files where file.hasSuffix(".json") && isRegularFile(file) {
            if let data = dataFile(of: file) { files.append(data) }
        }
        return files.filter(isRegularFile).uniqued().sorted()
    }

    /// The `data.file` a scenario file names, relative to its folder (nil when it names none).
    static func dataFile(of scenario: String) -> String? {
        guard let bytes = FileManager.default.contents(atPath: scenario),
              let object = try? JSONDecoder().decode(CarriedJSON.self, from: bytes),
              let file = object["data"]?["file"]?.stringValue, !file.isEmpty else { return nil }
        return file.hasPrefix("/") ? file : (scenario as NSString).deletingLastPathComponent + "/" + file
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Remembers a verification that passed (nothing when the folder is not there).
    static func write(_ path: String?) {
        if let path { try? Paths.write(utcNow() + "\n", to: path) }
    }
}

func utcNow() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
    return formatter.string(from: Date())
}

/// SHA-256 of a file or a text, by sha256sum (or shasum -a 256); nil where neither exists.
func sha256(file: String) -> String? {
    if let tool = findOnPath("sha256sum") {
        return firstWord(ChildRun(executable: tool, arguments: [file]).run(log: nil))
    }
    if let tool = findOnPath("shasum") {
        return firstWord(ChildRun(executable: tool, arguments: ["-a", "256", file]).run(log: nil))
    }
    return nil
}

func sha256(text: String) -> String? {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-key-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { return nil }
    defer { unlink(path) }
    return sha256(file: path)
}

private func firstWord(_ result: (status: Int32, output: String)) -> String? {
    guard result.status == 0, let word = result.output.split(separator: " ").first, word.count == 64 else { return nil }
    return String(word)
}

/// sha256sum's lines for `files` (each file's hash and path), nil when one cannot be read.
func sha256(files: [String]) -> String? {
    let tool = findOnPath("sha256sum").map { ($0, files) } ?? findOnPath("shasum").map { ($0, ["-a", "256"] + files) }
    guard let (executable, arguments) = tool else { return nil }
    let result = ChildRun(executable: executable, arguments: arguments).run(log: nil)
    return result.status == 0 ? result.output : nil
}
