import BenchPlatform

/// A JSON number as written in the file: its `Double` value, whether it was written as an
/// integer (no fraction, no exponent) and the literal itself, for error messages.
package struct JSONNumber: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The value; a literal too large for `Double` (e.g. `1e999`) is `±infinity` here and is
    /// rejected by `JSONReader` wherever a number is read.
    package var value: Double
    /// The exact value of an integer literal that fits in `Int`; `nil` for any other literal.
    package var integer: Int?
    /// Whether the literal has neither a fraction nor an exponent (`3`, `-12`, not `3.0` or `1e3`).
    package var isIntegerLiteral: Bool
    /// The literal as written.
    package var literal: String

    package init(value: Double, integer: Int?, isIntegerLiteral: Bool, literal: String) {
        self.value = value
        self.integer = integer
        self.isIntegerLiteral = isIntegerLiteral
        self.literal = literal
    }

    package var description: String { literal }
}

/// A parsed JSON value. Objects keep their members in file order (duplicate keys are rejected
/// by `JSONParser`), numbers remember whether they were written as integers.
package enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The name of the value's type, as used in error messages ("an object", "a string", …).
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let n): return n.isIntegerLiteral ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A short rendering for error messages: scalars in full, containers by their type.
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.literal
        case .string(let s): return JSONValue.quoted(s.count > 40 ? String(s.prefix(40)) + "…" : s)
        case .array(let a): return "an array of \(a.count)"
        case .object: return "an object"
        }
    }

    /// The member named `key` of an object (nil for other values or a missing key).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Compact JSON text of the value (keys in order).
    package var description: String {
        switch self {
        case .null, .bool, .number: return summary
        case .string(let s): return JSONValue.quoted(s)
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let m):
            return "{" + m.map { JSONValue.quoted($0.key) + ":" + $0.value.description }.joined(separator: ",") + "}"
        }
    }

    /// `s` as a JSON string literal, every character that acts rather than shows (`DisplayText`:
    /// controls, DEL, C1, bidirectional overrides) written as `\uXXXX`, so that the literal reads
    /// the same in a terminal, an error line or a JSON file.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where DisplayText.acts(scalar): out += DisplayText.unicodeEscape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// One member of a JSON object, with the byte offset of its key in the file (for the line and
/// column of an error, computed only then). Two members are equal when their keys and values
/// are: where they were written does not matter.
package struct JSONMember: Hashable, Sendable, Codable {
    package var key: String
    package var value: JSONValue
    /// Byte offset of the key's opening quote in the parsed bytes.
    package var offset: Int

    package init(key: String, value: JSONValue, offset: Int = 0) {
        self.key = key
        self.value = value
        self.offset = offset
    }

    package static func == (a: JSONMember, b: JSONMember) -> Bool { a.key == b.key && a.value == b.value }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}
