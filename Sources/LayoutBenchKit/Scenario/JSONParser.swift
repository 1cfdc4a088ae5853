/// A strict RFC 8259 JSON parser for scenario files.
///
/// Differences from `JSONSerialization`, on purpose:
/// - object members keep their order, and a key that appears twice in one object is an error
///   (reported with its JSON path and position);
/// - `true`/`false` are booleans and never numbers; numbers keep their literal and whether they
///   were written as integers;
/// - syntax errors carry a 1-based line and column (columns count characters, not bytes);
/// - nothing beyond the standard: no comments, no trailing commas, no leading zeros, no `NaN`,
///   no control characters inside strings, no unpaired surrogate escapes, nothing after the
///   top-level value. A UTF-8 byte order mark at the start is skipped.
/// A number whose magnitude is too large for `Double` (`1e999`) parses to infinity; the reader
/// rejects it where it is used, with its path.
public struct JSONParser {
    /// Nesting deeper than this is an error (instead of a stack overflow).
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private let file: String
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses one JSON document. `file` only names the file in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(ScenarioError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.position = 3
            parser.lineStart = 3
        }
        if let bad = firstInvalidUTF8(bytes) {
            parser.position = bad
            throw parser.syntaxError("the file is not valid UTF-8")
        }
        parser.skipWhitespace()
        guard parser.position < bytes.count else { throw parser.syntaxError("the file is empty; expected a JSON object") }
        let value = try parser.parseValue(path: "")
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw parser.syntaxError("unexpected \(parser.currentDescription) after the end of the top-level value")
        }
        return value
    }

    public static func parse(_ text: String, file: String) throws(ScenarioError) -> JSONValue {
        try parse(Array(text.utf8), file: file)
    }

    // MARK: Values

    private mutating func parseValue(path: String) throws(ScenarioError) -> JSONValue {
        guard position < bytes.count else { throw syntaxError("unexpected end of the file; expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(path: path)
        case UInt8(ascii: "["): return try parseArray(path: path)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw syntaxError("expected a value (object, array, string, number, true, false or null), got \(currentDescription)")
        }
    }

    private mutating func parseObject(path: String) throws(ScenarioError) -> JSONValue {
        try enter()
        position += 1  // {
        var members: [JSONMember] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            depth -= 1
            return .object([])
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw syntaxError(members.isEmpty
                    ? "expected a key in double quotes or '}', got \(currentDescription)"
                    : "expected a key in double quotes after ',', got \(currentDescription)")
            }
            let (keyLine, keyColumn) = (line, column(of: position))
            let key = try parseString()
            let memberPath = JSONPath.appending(path, key: key)
            if let first = members.first(where: { $0.key == key }) {
                throw ScenarioError(
                    file: file, path: memberPath,
                    message: "duplicate key '\(key)' (line \(keyLine), column \(keyColumn); first at line \(first.line), column \(first.column))",
                    line: keyLine, column: keyColumn)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw syntaxError("expected ':' after the key \(JSONValue.quoted(key)), got \(currentDescription)")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(path: memberPath)
            members.append(JSONMember(key: key, value: value, line: keyLine, column: keyColumn))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) { throw syntaxError("trailing ',' before '}' is not allowed in JSON") }
                continue
            }
            if peek(UInt8(ascii: "}")) {
                position += 1
                depth -= 1
                return .object(members)
            }
            throw syntaxError("expected ',' or '}' after the value of \(JSONValue.quoted(key)), got \(currentDescription)")
        }
    }

    private mutating func parseArray(path: String) throws(ScenarioError) -> JSONValue {
        try enter()
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            depth -= 1
            return .array([])
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(path: JSONPath.appending(path, index: elements.count)))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) { throw syntaxError("trailing ',' before ']' is not allowed in JSON") }
                continue
            }
            if peek(UInt8(ascii: "]")) {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw syntaxError("expected ',' or ']' after an array element, got \(currentDescription)")
        }
    }

    private mutating func enter() throws(ScenarioError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw syntaxError("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func expectWord(_ word: StaticString) throws(ScenarioError) {
        let start = position
        let count = word.utf8CodeUnitCount
        let matches = bytes.count - start >= count
            && (0..<count).allSatisfy { bytes[start + $0] == word.utf8Start[$0] }
        guard matches, !(start + count < bytes.count && Self.isWordByte(bytes[start + count])) else {
            var end = start
            while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
            let got = String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self)
            throw syntaxError("expected a value, got '\(got)' (strings need double quotes; true, false and null are lowercase)")
        }
        position += count
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(ScenarioError) -> JSONNumber {
        let start = position
        var isInteger = true
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw syntaxError("expected a digit after '-', got \(currentDescription)")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw syntaxError("leading zeros are not allowed in JSON numbers")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw syntaxError("expected a digit after '.', got \(currentDescription)")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw syntaxError("expected a digit in the exponent, got \(currentDescription)")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, Self.isWordByte(bytes[position]) || bytes[position] == UInt8(ascii: ".") {
            throw syntaxError("unexpected \(currentDescription) in a number")
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        // Swift's Double(String) is correctly rounded (and platform independent); overflow gives ±inf.
        guard let value = Double(literal) else { throw syntaxError("invalid number '\(literal)'") }
        return JSONNumber(value: value, integer: isInteger ? Int(literal) : nil, isIntegerLiteral: isInteger, literal: literal)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    // MARK: Strings

    private mutating func parseString() throws(ScenarioError) -> String {
        position += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = position
        func flush(_ end: Int) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while true {
            guard position < bytes.count else {
                throw syntaxError("unterminated string (missing closing '\"')")
            }
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                flush(position)
                position += 1
                return String(scalars)
            }
            if b < 0x20 {
                throw syntaxError(b == 0x0A
                    ? "unterminated string (a line break inside a string must be written \\n)"
                    : "control character U+\(hex4(UInt32(b))) inside a string must be escaped")
            }
            if b == UInt8(ascii: "\\") {
                flush(position)
                scalars.append(try parseEscape())
                runStart = position
                continue
            }
            position += 1
        }
    }

    private mutating func parseEscape() throws(ScenarioError) -> Unicode.Scalar {
        position += 1  // backslash
        guard position < bytes.count else { throw syntaxError("unterminated string (missing closing '\"')") }
        let b = bytes[position]
        position += 1
        switch b {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800...0xDBFF).contains(first) {
                guard peek(UInt8(ascii: "\\")), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw syntaxError("unpaired surrogate \\u\(hex4(first)) in a string")
                }
                position += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw syntaxError("unpaired surrogate \\u\(hex4(first)) in a string")
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw syntaxError("unpaired surrogate \\u\(hex4(first)) in a string")
            }
            return scalar
        default:
            position -= 1
            throw syntaxError("invalid escape '\\\(String(decoding: [b], as: UTF8.self))' in a string")
        }
    }

    private mutating func parseHex4() throws(ScenarioError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw syntaxError("expected 4 hex digits after \\u") }
            let b = bytes[position]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw syntaxError("expected 4 hex digits after \\u, got \(currentDescription)")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    // MARK: Positions

    private func peek(_ b: UInt8) -> Bool { position < bytes.count && bytes[position] == b }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                line += 1
                lineStart = position
            default:
                return
            }
        }
    }

    /// 1-based column of a byte offset on the current line, in characters (UTF-8 lead bytes).
    private func column(of offset: Int) -> Int {
        var column = 1
        var i = lineStart
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    private var currentDescription: String {
        guard position < bytes.count else { return "the end of the file" }
        let b = bytes[position]
        if b >= 0x21 && b < 0x7F { return "'\(String(decoding: [b], as: UTF8.self))'" }
        if b == 0x20 { return "a space" }
        if b == 0x0A || b == 0x0D { return "a line break" }
        if b == 0x09 { return "a tab" }
        if b >= 0x80 {
            var end = position + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "'\(String(decoding: bytes[position..<end], as: UTF8.self))'"
        }
        return "the control character U+\(hex4(UInt32(b)))"
    }

    private func syntaxError(_ message: String) -> ScenarioError {
        // Recount lines up to `position`: an error inside a string may sit past the last newline seen.
        var line = 1
        var lineStart = 0
        var i = 0
        while i < position && i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var column = 1
        i = lineStart
        while i < position && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return ScenarioError(file: file, path: "", message: message, line: line, column: column)
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(b & 0x07)
            default: return i
            }
            guard i + length <= bytes.count else { return i }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += length
        }
        return nil
    }
}
