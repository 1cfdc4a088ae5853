import Foundation
import BenchPlatform
import BenchResults

/// A comparison split across machines (`compare-commits --shard K/N`, `--merge DIR …`).
///
/// A share runs the K-th of N shares of the scenario groups (both commits, as duets, on one
/// machine) and writes `shard.json` beside its base/ and head/: the comparison it belongs to
/// (commits, options) and what it ran. The merge checks every share before it writes anything
/// (`check`), then merges the samples of each side (`merge`) and judges them together: the
/// verdicts one unsharded comparison of the same samples gives.
package enum Shards {
    package static let schema = 1

    /// `K/N` with 1 ≤ K ≤ N (each at most six digits); nil otherwise.
    package static func parse(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = parseCount(parts[0]), let count = parseCount(parts[1]), index <= count else { return nil }
        return (index, count)
    }

    private static func parseCount(_ text: Substring) -> Int? {
        guard (1...6).contains(text.count), text.first != "0", text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// The K-th share of `items` dealt in turn (item i goes to share i mod N + 1), so that each
    /// share holds groups of every size; the same list always deals the same way.
    package static func share<T>(_ items: [T], index: Int, count: Int) -> [T] {
        items.enumerated().filter { $0.offset % count + 1 == index }.map(\.element)
    }

    /// shard.json of one share.
    package struct Record: Equatable, Codable {
        package var base: String
        package var head: String
        package var shard: Int
        package var shards: Int
        package var options: [String]
        package var scenarios: [String]
        package var compareArguments: [String]
        package var share: [String]
        package var measured: String

        package init(base: String, head: String, shard: Int, shards: Int, options: [String], scenarios: [String],
                    compareArguments: [String], share: [String], measured: String) {
            self.base = base
            self.head = head
            self.shard = shard
            self.shards = shards
            self.options = options
            self.scenarios = scenarios
            self.compareArguments = compareArguments
            self.share = share
            self.measured = measured
        }

        enum CodingKeys: String, CodingKey {
            case schema, base, head, shard, shards, options, scenarios, compareArguments = "compare_args", share, measured
        }

        /// Read from a shard.json `check` has checked: the fields it requires are there and of
        /// their types; `share` and `measured` (for the lines compare.txt ends with) may be missing.
        package init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            base = try container.decode(String.self, forKey: .base)
            head = try container.decode(String.self, forKey: .head)
            shard = try container.decode(Int.self, forKey: .shard)
            shards = try container.decode(Int.self, forKey: .shards)
            options = try container.decode([String].self, forKey: .options)
            scenarios = try container.decode([String].self, forKey: .scenarios)
            compareArguments = try container.decode([String].self, forKey: .compareArguments)
            share = (try? container.decodeIfPresent([String].self, forKey: .share)) ?? []
            measured = (try? container.decodeIfPresent(String.self, forKey: .measured)) ?? "?"
        }

        package func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Shards.schema, forKey: .schema)
            try container.encode(base, forKey: .base)
            try container.encode(head, forKey: .head)
            try container.encode(shard, forKey: .shard)
            try container.encode(shards, forKey: .shards)
            try container.encode(options, forKey: .options)
            try container.encode(scenarios, forKey: .scenarios)
            try container.encode(compareArguments, forKey: .compareArguments)
            try container.encode(share, forKey: .share)
            try container.encode(measured, forKey: .measured)
        }

        package func write(to path: String) throws(DriverError) {
            try JSONFile.write(self, to: path)
        }
    }

    /// The machine facts shares must agree on (CI runners differ in host name only).
    static let machineFacts: [(name: String, object: String, key: String)] = [
        ("CPU", "machine", "cpu_model"), ("cores", "machine", "active_cores"), ("operating system", "os", "pretty_name"),
        ("kernel", "os", "release"), ("Swift", "toolchain", "swift_version"), ("build configuration", "toolchain", "configuration"),
        ("allocator", "allocator", "name"), ("allocator version", "allocator", "version"),
    ]

    static func shown(_ value: CarriedJSON?) -> String { (value ?? .null).shown }

    /// Checks the shares given to `--merge` before anything is written: each a share (shard.json
    /// of this schema, base/ and head/ with samples.csv.gz and run.json), all of one comparison
    /// (commits, options, N), every share 1…N exactly once, all from machines alike. Returns the
    /// records in share order and the merged folder's default path,
    /// results/compare/<base>..<head>; else one error naming the file.
    package static func check(_ directories: [String]) throws(DriverError) -> (records: [(Record, String)], defaultOut: String) {
        var byShare: [Int: String] = [:]
        var records: [(Record, String)] = []
        var first: (path: String, record: CarriedJSON, machine: [String: CarriedJSON?])?
        for directory in directories {
            let path = directory + "/shard.json"
            guard Paths.isFile(path) else { throw DriverError("\(path): no such file (not a share of compare-commits --shard)") }
            let record = try JSONFile.read(CarriedJSON.self, path)
            guard let schema = record["schema"]?.integerValue, schema == Shards.schema else {
                throw DriverError("\(path): schema: expected \(Shards.schema), got \(shown(record["schema"]))")
            }
            for (key, kind) in [("base", "str"), ("head", "str"), ("shard", "int"), ("shards", "int"), ("options", "list"),
                                ("scenarios", "list"), ("compare_args", "list")] {
                let value = record[key]
                let fits: Bool
                switch kind {
                case "str": fits = value?.stringValue != nil
                case "int": fits = value?.integerValue != nil
                default: fits = value?.strings != nil
                }
                if !fits { throw DriverError("\(path): \(key): missing or not a \(kind)") }
            }
            let shard = record["shard"]!.integerValue!, shards = record["shards"]!.integerValue!
            guard 1 <= shard && shard <= shards else {
                throw DriverError("\(path): shard: \(shard) lies outside 1...\(shards)")
            }
            for side in ["base", "head"] {
                let folder = directory + "/" + side
                guard Paths.isFile(folder + "/samples.csv.gz"), Paths.isFile(folder + "/run.json") else {
                    throw DriverError("\(folder): no samples.csv.gz and run.json (an unfinished share?)")
                }
            }
            let runPath = directory + "/base/run.json"
            let run = try JSONFile.read(CarriedJSON.self, runPath)
            var machine: [String: CarriedJSON?] = [:]
            for fact in machineFacts { machine[fact.name] = run[fact.object]?[fact.key] }
            if let first {
                for (key, what) in [("base", "base commit"), ("head", "head commit"), ("shards", "number of shares"),
                                    ("options", "options"), ("scenarios", "scenarios"), ("compare_args", "compare options")]
                where record[key] != first.record[key] {
                    throw DriverError("\(path): \(what) \(shown(record[key])), but \(first.path) has \(shown(first.record[key])): not shares of one comparison")
                }
                for fact in machineFacts where (machine[fact.name] ?? nil) != (first.machine[fact.name] ?? nil) {
                    let firstRun = (first.path as NSString).deletingLastPathComponent + "/base/run.json"
                    throw DriverError("\(runPath): \(fact.name) \(shown(machine[fact.name] ?? nil)), but \(firstRun) has "
                        + "\(shown(first.machine[fact.name] ?? nil)): shares measured on machines that differ cannot be judged together")
                }
            } else {
                first = (path, record, machine)
            }
            if let earlier = byShare[shard] {
                throw DriverError("\(path): share \(shard) of \(shards) given twice (also \(earlier))")
            }
            byShare[shard] = path
            records.append((try JSONFile.read(Record.self, path), directory))
        }
        guard let first else { throw DriverError("--merge needs the shares' result folders") }
        let count = first.record["shards"]!.integerValue!
        let missing = (1...count).filter { byShare[$0] == nil }
        if !missing.isEmpty {
            throw DriverError("share\(missing.count > 1 ? "s" : "") \(missing.map(String.init).joined(separator: ", ")) of \(count) missing (given: "
                + byShare.values.sorted().joined(separator: ", ") + ")")
        }
        records.sort { $0.0.shard < $1.0.shard }
        let base = first.record["base"]!.stringValue!, head = first.record["head"]!.stringValue!
        return (records, "results/compare/\(base.prefix(7))..\(head.prefix(7))")
    }

    /// What a merged comparison's folder holds: what `--merge --out` may replace.
    static let comparisonEntries: Set<String> = ["base", "head", "compare.csv", "compare.txt", "causes.csv", "report"]

    /// The folder `--merge --out` names, checked before anything is merged, as `run`, `dump`,
    /// `compare` and `export` check theirs: a missing path, or an earlier merged comparison (only
    /// the entries a comparison writes), is replaced whole (`Paths.replace`); a symbolic link is
    /// followed to the directory it names. Refused, with one line: a regular file, a device, a
    /// FIFO or a socket; a directory holding anything a comparison does not write (the user's
    /// files); a share (shard.json), one of the shares given, or a directory that holds one.
    /// Returns the path to replace.
    package static func checkOut(_ given: String, shares: [String]) throws(DriverError) -> String {
        var out = given
        while out.count > 1 && out.hasSuffix("/") { out.removeLast() }
        guard !out.isEmpty else { throw DriverError("--out: expected a directory path") }
        func refuse(_ reason: String) -> DriverError { DriverError("--out \(given): \(reason)") }
        var info = stat()
        guard lstat(out, &info) == 0 else {
            guard errno == ENOENT else { throw refuse("cannot use the path (\(String(cString: strerror(errno))))") }
            return out
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realPath(out), stat(resolved, &info) == 0 else {
                throw refuse("a symbolic link to nothing; give a directory for the merged comparison")
            }
            out = resolved
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw refuse("exists and is \(ResultsFile.kind(mode: info.st_mode) ?? "a regular file"), not a directory; give a directory for the merged comparison")
        }
        guard let real = realPath(out), real != "/" else { throw refuse("give a directory by name, not the root") }
        for share in shares {
            guard let shareReal = realPath(share) else { continue }
            if shareReal == real || shareReal.hasPrefix(real + "/") {
                throw refuse("is \(shareReal == real ? "" : "a directory holding ")the share \(share) given to --merge; give another directory")
            }
        }
        let entries = Paths.entries(out)
        if entries.contains("shard.json") {
            throw refuse("is a share of compare-commits --shard (it holds shard.json); a merge never replaces one: give another directory")
        }
        if let foreign = entries.first(where: { !comparisonEntries.contains($0) }) {
            throw refuse("holds '\(foreign)', which a comparison does not write; give a new directory or an earlier merged comparison's")
        }
        return out
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Merges checked shares into `out`: per side the samples of every share (disjoint scenario
    /// groups, their repetition numbers kept, so a group's two commits stay paired by round) and
    /// the first share's run.json (merged runs summed, times spanning all, the busiest machine
    /// any share found before it started). Returns the lines compare.txt ends with.
    package static func merge(_ records: [(Record, String)], into out: String) throws(DriverError) -> String {
        for side in ["base", "head"] {
            let folder = out + "/" + side
            try Paths.makeDirectory(folder)
            var header: [UInt8]?
            var rows: [UInt8] = []
            for (_, directory) in records {
                let path = directory + "/" + side + "/samples.csv.gz"
                let bytes: [UInt8]
                do { bytes = try ResultsFile.contents(of: path) } catch { throw DriverError("\(error)") }
                let end = bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
                let first = Array(bytes[..<end])
                if let header {
                    guard header == first else {
                        throw DriverError("\(path): its header differs from the first share's (results of another schema)")
                    }
                } else {
                    header = first
                }
                rows.append(contentsOf: bytes[end...])
                if let last = rows.last, last != UInt8(ascii: "\n") { rows.append(UInt8(ascii: "\n")) }
            }
            let compressed: [UInt8]
            do { compressed = try Gzip.compress((header ?? []) + rows) } catch {
                throw DriverError("\(folder)/samples.csv.gz: cannot compress it (\(error))")
            }
            try Paths.write(bytes: compressed, to: folder + "/samples.csv.gz")
            var manifests: [RunManifest] = []
            for (_, directory) in records { manifests.append(try JSONFile.read(RunManifest.self, directory + "/" + side + "/run.json")) }
            var merged = manifests[0]
            merged.mergedRuns = manifests.reduce(0) { $0 + ($1.mergedRuns ?? 1) }
            merged.startTime = manifests.map { $0.startTime ?? "" }.min() ?? ""
            merged.endTime = manifests.map { $0.endTime ?? "" }.max() ?? ""
            merged.shards = manifests.count
            if let busiest = manifests.filter({ $0.load?.before != nil }).max(by: { $0.busiestBefore < $1.busiestBefore }) {
                var load = merged.load ?? RunManifest.Load(start: nil, end: nil)
                load.before = busiest.load?.before
                merged.load = load
            }
            try JSONFile.write(merged, to: folder + "/run.json")
        }
        var lines = "\nmerged from \(records.count) shares:\n"
        for (record, directory) in records {
            lines += "  share \(record.shard) of \(record.shards) (\(directory)): \(record.share.count) groups, measured in \(record.measured)\n"
        }
        return lines
    }
}
