@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios

/// `JSONParser` against Foundation's `JSONSerialization` on generated documents, and the
/// parser's results on reformatted copies of the shipped scenarios.
@Suite struct JSONParserDifferentialTests {
    // MARK: Generated documents

    /// A random JSON document as text, with random whitespace, escapes, non-ASCII text and
    /// numbers of every shape. Keys come from a small set, so some objects repeat a key.
    struct DocumentWriter {
        var rng: SplitMix64
        var text = ""

        mutating func space() {
            for _ in 0..<rng.next(below: 3) { text += [" ", "\n", "\t", "\r\n"][rng.next(below: 4)] }
        }

        mutating func value(depth: Int) {
            space()
            switch rng.next(below: depth > 3 ? 5 : 7) {
            case 0: text += ["null", "true", "false"][rng.next(below: 3)]
            case 1, 2: number()
            case 3, 4: string(keys: false)
            case 5:
                text += "["
                let count = rng.next(below: 5)
                for i in 0..<count {
                    if i > 0 { text += "," }
                    value(depth: depth + 1)
                }
                space()
                text += "]"
            default:
                text += "{"
                let count = rng.next(below: 5)
                for i in 0..<count {
                    if i > 0 { text += "," }
                    space()
                    string(keys: true)
                    space()
                    text += ":"
                    value(depth: depth + 1)
                }
                space()
                text += "}"
            }
            space()
        }

        mutating func number() {
            if rng.next(below: 4) == 0 { text += "-" }
            switch rng.next(below: 6) {
            case 0: text += "0"
            case 1: text += String(rng.next(below: 1_000_000))
            case 2: text += String(rng.next(below: 1000)) + "." + String(rng.next(below: 100_000))
            case 3: text += String(1 + rng.next(below: 9)) + ["e", "E", "e+", "e-"][rng.next(below: 4)] + String(rng.next(below: 300))
            case 4: text += "0." + String(repeating: "0", count: rng.next(below: 25)) + String(1 + rng.next(below: 999))
            default: text += String(1 + rng.next(below: 9)) + String(rng.next() % 1_000_000_000_000_000_000)  // beyond 2^53
            }
        }

        mutating func string(keys: Bool) {
            text += "\""
            let pieces = keys ? ["a", "b", "c", "é", "\\u0061"] : ["x", "héllo", "🙂", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", "\\t", " ", "\\u0000", "日本"]
            for _ in 0..<rng.next(below: keys ? 2 : 5) + (keys ? 1 : 0) { text += pieces[rng.next(below: pieces.count)] }
            text += "\""
        }
    }

    /// Whether our value equals Foundation's.
    static func same(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b):
            guard let n = theirs as? NSNumber, isBoolean(n) else { return false }
            return n.boolValue == b
        case .number(let n):
            guard let number = theirs as? NSNumber, !isBoolean(number) else { return false }
            // Foundation reads some literals as NSDecimalNumber, whose `doubleValue` can be a few
            // units in the last place off (ours is exactly Swift's `Double(String)`, see
            // `numbersAreCorrectlyRounded`).
            return number.doubleValue == n.value || abs(number.doubleValue - n.value) <= 4 * n.value.ulp
        case .string(let s): return (theirs as? String) == s
        case .array(let elements):
            guard let array = theirs as? [Any], array.count == elements.count else { return false }
            return zip(elements, array).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let dictionary = theirs as? [String: Any], dictionary.count == members.count else { return false }
            return members.allSatisfy { member in dictionary[member.key].map { same(member.value, $0) } ?? false }
        }
    }

    static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    /// Whether a number too large for `Double` (read as infinity, rejected where it is used)
    /// occurs in the value: Foundation refuses those documents outright.
    static func hasInfinity(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let n): return n.value.isInfinite
        case .array(let elements): return elements.contains(where: hasInfinity)
        case .object(let members): return members.contains { hasInfinity($0.value) }
        default: return false
        }
    }

    @Test func agreesWithJSONSerializationOnGeneratedDocuments() throws {
        var rng = SplitMix64(seed: 14)
        var accepted = 0, duplicates = 0, mutatedAccepted = 0, mutatedRejected = 0
        for round in 0..<4000 {
            var writer = DocumentWriter(rng: SplitMix64(seed: rng.next()))
            writer.value(depth: 0)
            var bytes = Array(writer.text.utf8)
            let mutated = round % 2 == 1
            if mutated {
                // One byte deleted, inserted or replaced by a JSON-significant one.
                let significant = Array("{}[],:\"\\0123456789.eE+-tfnul ".utf8)
                let at = rng.next(below: bytes.count)
                switch rng.next(below: 3) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(significant[rng.next(below: significant.count)], at: at)
                default: bytes[at] = significant[rng.next(below: significant.count)]
                }
            }
            let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            let ours: Result<JSONValue, ScenarioError> = Result { () throws(ScenarioError) in try JSONParser.parse(bytes, file: "t") }
            switch ours {
            case .success(let value):
                // Whatever we accept, Foundation accepts, with the same value.
                let text = String(decoding: bytes, as: UTF8.self)
                guard let theirs else {
                    if Self.hasInfinity(value) { continue }
                    Issue.record("Foundation rejects what we accept: \(text)")
                    return
                }
                #expect(Self.same(value, theirs), "different values for \(text)")
                if mutated { mutatedAccepted += 1 } else { accepted += 1 }
            case .failure(let error):
                if error.message.hasPrefix("duplicate key") {
                    duplicates += 1  // our rule only
                } else if !mutated {
                    Issue.record("rejected a valid document: \(error) in \(String(decoding: bytes, as: UTF8.self))")
                } else {
                    mutatedRejected += 1
                    #expect(error.line != nil && error.column != nil, "\(error)")
                }
            }
        }
        // The generator exercises every branch.
        #expect(accepted > 1000 && duplicates > 100 && mutatedAccepted > 100 && mutatedRejected > 500,
                "\(accepted) \(duplicates) \(mutatedAccepted) \(mutatedRejected)")
    }

    @Test func numbersAreCorrectlyRounded() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            // 1 to 20 significant digits: the exact fast path (at most 15) and the others.
            let length = 1 + rng.next(below: 20)
            let digits = String(1 + rng.next(below: 9)) + String((0..<length - 1).map { _ in Character(String(rng.next(below: 10))) })
            let cut = rng.next(below: digits.count)
            var literal = String(digits.prefix(cut + 1))
            if cut + 1 < digits.count { literal += "." + digits.dropFirst(cut + 1) }
            if rng.next(below: 2) == 0 { literal += "e" + String(rng.next(below: 60) - 30) }
            guard case .number(let n) = try JSONParser.parse(literal, file: "t") else {
                Issue.record("not a number: \(literal)")
                return
            }
            #expect(n.value == Double(literal)!, "\(literal)")
        }
    }

    // MARK: Reformatted scenarios

    /// `value` as pretty-printed JSON (two-space indent, one member or element a line).
    static func pretty(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where !elements.isEmpty:
            return "[\n" + elements.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n" + members.map { inner + JSONValue.quoted($0.key) + ": " + pretty($0.value, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return value.description
        }
    }

    @Test func minifiedAndPrettyCopiesOfEveryShippedScenarioParseTheSame() throws {
        let catalog = ScenarioCatalog(directory: shippedScenariosDirectory())
        let files = try catalog.files()
        #expect(files.count >= 12)
        for path in files {
            let bytes = try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) })
            let tree = try JSONParser.parse(bytes, file: path)
            let minified = Array(tree.description.utf8)
            let pretty = Array(Self.pretty(tree).utf8)
            #expect(!minified.contains(UInt8(ascii: "\n")))
            #expect(try JSONParser.parse(minified, file: path) == tree, "\(path)")
            #expect(try JSONParser.parse(pretty, file: path) == tree, "\(path)")
            let scenario = try Scenario.load(path: path)
            for copy in [bytes, minified, pretty] {
                #expect(try Scenario(parsing: copy, file: path) == scenario, "\(path)")
                #expect(try Scenario(parsing: copy, file: path, fast: false) == scenario, "\(path)")
            }
        }
    }

    // MARK: Positions on one line

    @Test func errorPositionsOnOneLine() throws {
        // 5,000 items on one line, then a mistake: the column is exact, and finding it is linear.
        let items = Array(repeating: #"{"h":20}"#, count: 5000).joined(separator: ",")
        let good = scenarioJSON(data: #"{"sections":[["# + items + "]]}", items: nil).replacingOccurrences(of: "\n", with: "")
        #expect(try parseScenario(good).itemCounts == [5000])

        let bad = good.replacingOccurrences(of: #"{"h":20}]]"#, with: #"{"h":20,]]"#)
        let column = Array(bad.utf8).firstIndex(of: UInt8(ascii: "]"))! + 1
        do {
            _ = try parseScenario(bad)
            Issue.record("parsed")
        } catch {
            #expect(error.line == 1)
            #expect(error.column == column)
            #expect(error.message == "expected a key in double quotes after ',', got ']'")
        }

        let duplicate = good.replacingOccurrences(of: #"{"h":20}]]"#, with: #"{"h":20,"h":3}]]"#)
        let second = Array(duplicate.utf8).count - Array(duplicate.utf8).reversed().firstIndex(of: UInt8(ascii: "h"))! - 1
        do {
            _ = try parseScenario(duplicate)
            Issue.record("parsed")
        } catch {
            #expect(error.path == "data.sections[0][4999].h")
            #expect(error.line == 1)
            #expect(error.column == second)
            #expect(error.message.hasPrefix("duplicate key 'h' (line 1, column \(second); first at line 1, column \(second - 7))"), "\(error)")
        }

        // A key deep inside arrays and objects: the path is rebuilt as the error unwinds.
        expectScenarioError(#"{"a": [{"b": [0, {"odd key": {"c": 1, "c": 2}}]}]}"#, path: #"a[0].b[1]["odd key"].c"#, "duplicate key 'c'")
    }
}

