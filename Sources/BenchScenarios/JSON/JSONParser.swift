import BenchResults

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
package struct JSONParser {
    /// Nesting deeper than this is an error (instead of a stack overflow).
    package static let maximumDepth = 256

    private let bytes: [UInt8]
    private let file: String
    private var position = 0
    private var depth = 0
    /// The key path (from the root, through objects only) whose array value is skipped and
    /// returned as a byte range instead of being built (see `parse(_:file:deferring:)`).
    private var deferredKeyPath: [String] = []
    private var deferredRange: Range<Int>?
    private var deferredObjects = 0

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses one JSON document. `file` only names the file in errors.
    ///
    /// Linear in the size of the document whatever its line structure: positions are byte
    /// offsets, and a line and column are computed only for an error. JSON paths too are built
    /// only for an error (a duplicate key), while the error unwinds.
    package static func parse(_ bytes: [UInt8], file: String) throws(ScenarioError) -> JSONValue {
        try parse(bytes, file: file, deferring: []).value
    }

    package static func parse(_ text: String, file: String) throws(ScenarioError) -> JSONValue {
        try parse(Array(text.utf8), file: file)
    }

    /// Parses one JSON document but does not build the array at `keyPath` (object keys from the
    /// root, e.g. `["data", "sections"]`): its bytes are only skipped, bracket by bracket, and
    /// their range is returned with the number of `{` in it outside strings (at most the number
    /// of objects, to reserve space); the tree holds an empty array there. The caller must then read
    /// that range with a parser of its own that accepts exactly valid JSON (or parse again
    /// without deferring to find the error). With an empty `keyPath` nothing is deferred.
    package static func parse(
        _ bytes: [UInt8], file: String, deferring keyPath: [String]
    ) throws(ScenarioError) -> (value: JSONValue, deferred: Range<Int>?, deferredObjects: Int) {
        var parser = JSONParser(bytes: bytes, file: file)
        parser.deferredKeyPath = keyPath
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        if let bad = firstInvalidUTF8(bytes) {
            parser.position = bad
            throw parser.syntaxError("the file is not valid UTF-8")
        }
        parser.skipWhitespace()
        guard parser.position < bytes.count else { throw parser.syntaxError("the file is empty; expected a JSON object") }
        let value = try parser.parseValue(keyPathMatched: keyPath.isEmpty ? nil : 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw parser.syntaxError("unexpected \(parser.currentDescription) after the end of the top-level value")
        }
        return (value, parser.deferredRange, parser.deferredObjects)
    }

    /// Parses the one JSON value that fills `range` of `bytes` (whitespace around it allowed),
    /// for a line of a JSON Lines file. Errors give lines and columns in the whole of `bytes`.
    /// `bytes` must be valid UTF-8 (the caller checks once with `firstInvalidUTF8`).
    package static func parseValue(in bytes: [UInt8], range: Range<Int>, file: String) throws(ScenarioError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, file: file)
        parser.position = range.lowerBound
        parser.skipWhitespace()
        guard parser.position < range.upperBound else { throw parser.syntaxError("expected a value") }
        let value = try parser.parseValue(keyPathMatched: nil)
        parser.skipWhitespace()
        guard parser.position >= range.upperBound else {
            throw parser.syntaxError("unexpected \(parser.currentDescription) after the end of the value")
        }
        return value
    }

    // MARK: Values

    /// `keyPathMatched`: how many keys of `deferredKeyPath` lead to this value (nil: off the path).
    private mutating func parseValue(keyPathMatched: Int?) throws(ScenarioError) -> JSONValue {
        guard position < bytes.count else { throw syntaxError("unexpected end of the file; expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(keyPathMatched: keyPathMatched)
        case UInt8(ascii: "["):
            if let matched = keyPathMatched, matched == deferredKeyPath.count, deferredRange == nil {
                let start = position
                try skipContainer()
                deferredRange = start..<position
                return .array([])
            }
            return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw syntaxError("expected a value (object, array, string, number, true, false or null), got \(currentDescription)")
        }
    }

    /// Objects with more members than this find duplicate keys through a dictionary.
    private static let linearDuplicateSearchLimit = 16

    private mutating func parseObject(keyPathMatched: Int?) throws(ScenarioError) -> JSONValue {
        try enter()
        position += 1  // {
        var members: [JSONMember] = []
        var keyIndex: [String: Int] = [:]
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
            let keyOffset = position
            let key = try parseString()
            let first: Int?
            if members.count < Self.linearDuplicateSearchLimit {
                first = members.firstIndex(where: { $0.key == key })
            } else {
                if keyIndex.isEmpty {
                    for (i, member) in members.enumerated() { keyIndex[member.key] = i }
                }
                first = keyIndex[key]
                if first == nil { keyIndex[key] = members.count }
            }
            if let first {
                let (line, column) = Self.lineAndColumn(of: keyOffset, in: bytes)
                let (firstLine, firstColumn) = Self.lineAndColumn(of: members[first].offset, in: bytes)
                throw ScenarioError(
                    file: file, path: JSONPath.appending("", key: key),
                    message: "duplicate key '\(key)' (line \(line), column \(column); first at line \(firstLine), column \(firstColumn))",
                    line: line, column: column)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw syntaxError("expected ':' after the key \(JSONValue.quoted(key)), got \(currentDescription)")
            }
            position += 1
            skipWhitespace()
            var childMatched: Int?
            if let matched = keyPathMatched, matched < deferredKeyPath.count, deferredKeyPath[matched] == key {
                childMatched = matched + 1
            }
            let value: JSONValue
            do {
                value = try parseValue(keyPathMatched: childMatched)
            } catch {
                throw error.inside(key: key)
            }
            members.append(JSONMember(key: key, value: value, offset: keyOffset))
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

    private mutating func parseArray() throws(ScenarioError) -> JSONValue {
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
            do {
                elements.append(try parseValue(keyPathMatched: nil))
            } catch {
                throw error.inside(index: elements.count)
            }
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

    /// Skips an array or object by counting brackets outside strings; it checks nothing else
    /// (see `parse(_:file:deferring:)`). Errors only at the end of the file.
    private mutating func skipContainer() throws(ScenarioError) {
        guard let (end, objects) = bytes.withUnsafeBufferPointer({ Self.containerEnd($0, from: position) }) else {
            position = bytes.count
            throw syntaxError("unexpected end of the file inside an array")
        }
        position = end
        deferredObjects = objects
    }

    /// The high bit of every zero byte of `v` set (and possibly of bytes above the lowest zero byte).
    @inline(__always)
    private static func zeroBytes(_ v: UInt64) -> UInt64 {
        (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080
    }

    /// Where the container opening at `start` ends, and how many `{` it holds (outside strings).
    private static func containerEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, objects: Int)? {
        var nesting = 0
        var objects = 0
        var i = start
        let count = buffer.count
        let raw = UnsafeRawBufferPointer(buffer)
        while i < count {
            // Every byte that matters is one of " [ ] { } (0x22, 0x5B, 0x5D, 0x7B, 0x7D): eight
            // bytes at a time, jump to the first of them (the lowest flag of `zeroBytes` is exact).
            if i + 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let folded = word & 0xDFDF_DFDF_DFDF_DFDF
                let flags = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(folded ^ 0x5B5B_5B5B_5B5B_5B5B)
                    | zeroBytes(folded ^ 0x5D5D_5D5D_5D5D_5D5D)
                if flags == 0 {
                    i += 8
                    continue
                }
                i += flags.trailingZeroBitCount / 8
            }
            let b = buffer[i]
            i += 1
            if b != 0x22 && b & 0xDF != 0x5B && b & 0xDF != 0x5D { continue }
            switch b {
            case UInt8(ascii: "{"):
                nesting += 1
                objects += 1
            case UInt8(ascii: "["):
                nesting += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                nesting -= 1
                if nesting == 0 { return (i, objects) }
            case UInt8(ascii: "\""):
                while i < count, buffer[i] != UInt8(ascii: "\"") {
                    if buffer[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                i += 1
            default:
                break
            }
        }
        return nil
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

    static func isWordByte(_ b: UInt8) -> Bool {
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
        let value = bytes.withUnsafeBufferPointer { JSONNumberLiteral.scan($0, from: start, end: position)?.value ?? .nan }
        var integer: Int?
        if isInteger { integer = position - start <= 15 ? Int(exactly: value) : Int(literal) }
        return JSONNumber(value: value, integer: integer, isIntegerLiteral: isInteger, literal: literal)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    // MARK: Strings

    private mutating func parseString() throws(ScenarioError) -> String {
        position += 1  // opening quote
        // Fast path: no escape and no control character before the closing quote.
        let plainEnd: Int? = bytes.withUnsafeBufferPointer { buffer in
            var i = position
            while i < buffer.count {
                let b = buffer[i]
                if b == UInt8(ascii: "\"") { return i }
                if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                i += 1
            }
            return nil
        }
        if let plainEnd {
            let text = String(decoding: bytes[position..<plainEnd], as: UTF8.self)
            position = plainEnd + 1
            return text
        }
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
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                position += 1
            default:
                return
            }
        }
    }

    /// The 1-based line and column of a byte offset, for an error message: lines end at `\n`,
    /// columns count characters (UTF-8 lead bytes), a byte order mark at the start is not one.
    /// Linear in `offset`, and only called when an error is reported.
    package static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            let end = min(offset, buffer.count)
            var line = 1
            var lineStart = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var i = lineStart
            while i < end {
                if buffer[i] == 0x0A {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
            }
            var column = 1
            i = lineStart
            while i < end {
                if buffer[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return (line, column)
        }
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
        let (line, column) = Self.lineAndColumn(of: position, in: bytes)
        return ScenarioError(file: file, path: "", message: message, line: line, column: column)
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidUTF8($0) }
    }

    private static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while i < bytes.count {
            // ASCII runs eight bytes at a time.
            if i + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
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
