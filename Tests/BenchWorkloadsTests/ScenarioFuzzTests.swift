@testable import BenchStatistics
import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine

/// Seeded mutations of the shipped scenario files (types swapped, numbers pushed to 0, negative,
/// huge, 1e308, NaN text, keys deleted, renamed or duplicated, JSON truncated) through the
/// loader: each either loads — and then lays out and verifies at a tiny item count — or gives
/// one `ScenarioError` naming the file and a JSON path (or, for syntax, a line and column).
///
/// With `LAYOUT_BENCH_FUZZ_CORPUS=DIR`, every 24th mutation is also written to DIR for
/// `scripts/fuzz-cli`, which runs the built executable on them.
@Suite struct ScenarioFuzzTests {
    static let mutationsPerFile = 160

    /// What one file's mutations came to: the counts of each outcome, and the failures, recorded
    /// by its shard once the shard's files have run.
    struct FileOutcome: Sendable {
        var loaded = 0, refused = 0, syntax = 0, laidOut = 0
        var failures: [String] = []
    }

    /// The shipped files, dealt round-robin into this many shards: each shard is a test case of
    /// its own (Swift Testing runs them side by side, beside the other tests, so both cores share
    /// the work), and one file's mutations depend on its index only, so the cases are the same
    /// whichever shard runs them.
    static let shards = 8

    /// What the shards came to so far; the shard that completes the set checks the mix.
    static let tally = Tally()

    actor Tally {
        private var outcomes: [FileOutcome] = []
        private var shardsDone = 0

        /// Adds one shard's outcomes; returns every shard's when this one was the last.
        func add(_ shard: [FileOutcome]) -> [FileOutcome]? {
            outcomes += shard
            shardsDone += 1
            return shardsDone == ScenarioFuzzTests.shards ? outcomes : nil
        }
    }

    /// Each shipped file's mutations run as a child task of their own within the shard; once
    /// every shard has run, the mix is checked over all files.
    @Test(arguments: 0..<shards) func mutatedScenariosLoadOrFailWithOnePath(shard: Int) async throws {
        let files = try ScenarioCatalog.locate().files()
        let corpus = ProcessInfo.processInfo.environment["LAYOUT_BENCH_FUZZ_CORPUS"]
        let outcomes = try await withThrowingTaskGroup(of: FileOutcome.self) { group in
            for (fileIndex, path) in files.enumerated() where fileIndex % Self.shards == shard {
                group.addTask { try Self.mutate(file: path, index: fileIndex, corpus: corpus) }
            }
            return try await group.reduce(into: [FileOutcome]()) { $0.append($1) }
        }
        for failure in outcomes.flatMap(\.failures) { Issue.record(Comment(rawValue: failure)) }
        guard let all = await Self.tally.add(outcomes) else { return }
        let loaded = all.map(\.loaded).reduce(0, +), refused = all.map(\.refused).reduce(0, +)
        let syntax = all.map(\.syntax).reduce(0, +), laidOut = all.map(\.laidOut).reduce(0, +)
        // The mix covers every outcome.
        print("fuzz: \(all.count) files, loaded \(loaded), refused \(refused), syntax errors \(syntax), laid out \(laidOut)")
        #expect(all.count == files.count)
        #expect(loaded > 100 && refused > 1000 && syntax > 100 && laidOut > 15,
                "loaded \(loaded), refused \(refused), syntax errors \(syntax), laid out \(laidOut)")
    }

    /// The seeded mutations of one shipped file through the loader (the type's documentation).
    static func mutate(file path: String, index fileIndex: Int, corpus: String?) throws -> FileOutcome {
        var outcome = FileOutcome()
        // Tiny sweeps, so that what loads also runs quickly (the mutations bring the huge values).
        var original = try JSONParser.parse([UInt8](FileManager.default.contents(atPath: path)!), file: path)
        if case .object(var members) = original, let i = members.firstIndex(where: { $0.key == "items" }) {
            members[i].value = .array([Mutator.number("20"), Mutator.number("50")])
            original = .object(members)
        }
        let name = (path as NSString).lastPathComponent
        var random = SplitMix64(seed: 0xF0A2, stream: UInt64(fileIndex))
        for round in 0..<Self.mutationsPerFile {
            var value = original
            for _ in 0...(random.next(below: 3)) { Mutator.mutate(&value, using: &random) }
            var text = value.description
            if random.next(below: 10) == 0 { text = String(text.prefix(random.next(below: text.utf8.count))) }
            if random.next(below: 12) == 0 { text = Mutator.duplicateAKey(in: text, using: &random) }
            let file = "fuzz/\(name.dropLast(5))-\(round).json"
            if let corpus, round % 24 == 0 {
                try text.write(toFile: corpus + "/" + (file as NSString).lastPathComponent, atomically: false, encoding: .utf8)
            }
            do {
                let scenario = try Scenario(parsing: text, file: file)
                let plan = try BenchmarkPlan(scenario: scenario)
                outcome.loaded += 1
                if outcome.loaded % 5 == 0, try runTiny(plan) { outcome.laidOut += 1 }
            } catch let error as ScenarioError {
                if error.path.isEmpty { outcome.syntax += 1 } else { outcome.refused += 1 }
                if error.file != file { outcome.failures.append("wrong file: \(error)") }
                if error.location == nil && !error.message.contains("at the top level") {
                    outcome.failures.append("no path or position: \(error)")
                }
                if error.description.contains("\n") { outcome.failures.append("more than one line: \(error)") }
            } catch {
                outcome.failures.append("\(file) loaded but failed at a tiny item count: \(error)\n\(text)")
            }
        }
        return outcome
    }

    /// Builds every mode's measurement (which verifies it against the reference) at a tiny item
    /// count and runs each operation twice, when that is cheap; false when skipped.
    static func runTiny(_ plan: BenchmarkPlan) throws -> Bool {
        let items = plan.scenario.data.isExplicit ? plan.itemCounts[0] : Swift.min(plan.itemCounts.min()!, 12)
        let footprint = ScenarioFootprint(plan: plan, items: items)
        guard footprint.memoryBytes < 64e6 else { return false }
        if case .generated(let g) = plan.scenario.data, g.sections > 64 { return false }
        if let query = plan.workload as? QueryWorkload, query.frames > 1_000 { return false }
        if let sticky = plan.workload as? StickyScrollWorkload, sticky.steps > 1_000 { return false }
        try exerciseEveryMode(plan, items: items)
        return true
    }
}

/// Random edits of a JSON tree, for the fuzz tests.
enum Mutator {
    /// Values that break assumptions: zero, negatives, fractions, huge, overflowing, text numbers.
    static let numbers = ["0", "-1", "-0.5", "0.5", "1", "3", "1000000000000", "9223372036854775807",
                          "-9223372036854775808", "1e308", "-1e308", "1e999", "1e-320", "1e9", "100000000"]
    static let strings = ["NaN", "Infinity", "", " ", "-1", "1e308", "list", "waterfall", "flow", "none", "stacked"]

    static func mutate(_ value: inout JSONValue, using random: inout SplitMix64) {
        var count = 0
        countNodes(value, &count)
        var target = random.next(below: count)
        edit(&value, target: &target, using: &random)
    }

    static func countNodes(_ value: JSONValue, _ count: inout Int) {
        count += 1
        switch value {
        case .array(let elements): for element in elements { countNodes(element, &count) }
        case .object(let members): for member in members { countNodes(member.value, &count) }
        default: break
        }
    }

    /// Walks to the `target`-th node in pre-order and edits it (or one of its members).
    static func edit(_ value: inout JSONValue, target: inout Int, using random: inout SplitMix64) {
        if target == 0 {
            value = replacement(for: value, using: &random)
            target = -1
            return
        }
        target -= 1
        switch value {
        case .array(var elements):
            for i in elements.indices where target >= 0 { edit(&elements[i], target: &target, using: &random) }
            value = .array(elements)
        case .object(var members):
            for i in members.indices where target >= 0 { edit(&members[i].value, target: &target, using: &random) }
            value = .object(members)
        default: break
        }
    }

    static func number(_ literal: String) -> JSONValue {
        let value = Double(literal) ?? .infinity
        let integer = literal.contains(where: { ".eE".contains($0) }) ? nil : Int(literal)
        return .number(JSONNumber(value: value, integer: integer, isIntegerLiteral: integer != nil, literal: literal))
    }

    static func replacement(for value: JSONValue, using random: inout SplitMix64) -> JSONValue {
        switch (value, random.next(below: 4)) {
        case (.object(var members), 0) where !members.isEmpty:
            members.remove(at: random.next(below: members.count))  // a key deleted
            return .object(members)
        case (.object(var members), 1) where !members.isEmpty:
            let i = random.next(below: members.count)                // a key renamed
            members[i].key = random.next(below: 2) == 0 ? members[i].key + "s" : String(members[i].key.dropLast())
            return .object(members)
        case (.array(var elements), 0) where !elements.isEmpty:
            elements.removeLast()
            return .array(elements)
        case (.array(var elements), 1) where !elements.isEmpty:
            elements.append(elements[random.next(below: elements.count)])
            return .array(elements)
        case (_, 2):
            // A type swapped.
            switch random.next(below: 6) {
            case 0: return .string(strings[random.next(below: strings.count)])
            case 1: return .array([])
            case 2: return .object([])
            case 3: return .null
            case 4: return .bool(true)
            default: return number(numbers[random.next(below: numbers.count)])
            }
        default:
            switch value {
            case .number: return number(numbers[random.next(below: numbers.count)])
            case .string: return .string(strings[random.next(below: strings.count)])
            case .bool(let b): return .bool(!b)
            default: return number(numbers[random.next(below: numbers.count)])
            }
        }
    }

    /// Repeats the first member of a random object right after its opening brace (`{"a": 1, "a": 1, …}`).
    static func duplicateAKey(in text: String, using random: inout SplitMix64) -> String {
        let bytes = Array(text.utf8)
        let braces = bytes.indices.filter { bytes[$0] == UInt8(ascii: "{") && $0 + 1 < bytes.count && bytes[$0 + 1] == UInt8(ascii: "\"") }
        guard !braces.isEmpty else { return text }
        let start = braces[random.next(below: braces.count)] + 1
        // The first member ends at the first ',' or '}' outside strings and nested containers.
        var depth = 0, inString = false, i = start
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\") { i += 1 } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                if depth == 0 { break }
                depth -= 1
            } else if b == UInt8(ascii: ","), depth == 0 {
                break
            }
            i += 1
        }
        let member = bytes[start..<i]
        return String(decoding: bytes[..<start] + member + Array(",".utf8) + bytes[start...], as: UTF8.self)
    }
}
