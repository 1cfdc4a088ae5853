import Foundation
import BenchResults

/// A JSON value of a harness file that a driver carries through without a schema of its own: the
/// fields of a child's run.json that a merge does not read (a child may be of another commit,
/// with fields this version does not know), read and written with `Codable` as every harness
/// file is (`HarnessJSON`). Booleans, integers and fractions stay apart: `"shard": true` is not
/// share 1, and `3` stays an integer through a merge.
///
/// User files (scenarios, data) are read by the strict parser (`JSONParser`, `JSONValue`), which
/// names the line and column of an error; this is for the harness's own files only.
enum CarriedJSON: Codable, Equatable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([CarriedJSON])
    case object([String: CarriedJSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([CarriedJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: CarriedJSON].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: CarriedJSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, CarriedJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The member `key` of an object (nil for other values or a missing key); set on an object only.
    subscript(key: String) -> CarriedJSON? {
        get {
            guard case .object(let members) = self else { return nil }
            return members[key]
        }
        set {
            guard case .object(var members) = self else { return }
            members[key] = newValue
            self = .object(members)
        }
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// An integer; a fraction, a string or a boolean is none.
    var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var numberValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// A list of strings only.
    var strings: [String]? {
        guard case .array(let items) = self else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }

    /// The value as Python's repr writes it in the refusals ('text', 2, None, ['a']).
    var shown: String {
        switch self {
        case .null: return "None"
        case .bool(let value): return value ? "True" : "False"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "'\(value)'"
        case .array(let items): return "[" + items.map(\.shown).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "'\($0.key)': \($0.value.shown)" }.joined(separator: ", ") + "}"
        }
    }

    /// A record of BenchResults (camelCase properties) as run.json holds it (snake_case keys).
    init<T: Encodable>(record: T) throws {
        self = try JSONDecoder().decode(CarriedJSON.self, from: HarnessJSON.encoder(.file).encode(record))
    }

    /// The value read as a record of BenchResults, as `RunMetadata.decode` reads run.json.
    func record<T: Decodable>(_ type: T.Type) throws -> T {
        try RunMetadata.decoder.decode(T.self, from: HarnessJSON.encoder().encode(self))
    }

    /// One line, keys sorted: a value's identity when lists are merged.
    var compact: String {
        (try? HarnessJSON.encoder(.compact).encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
