/// RFC 4180 CSV text: fields separated by commas, records ended by `\n` (LF, not CRLF), a field
/// quoted when it contains a comma, a double quote, CR or LF, and quotes inside doubled.
package struct CSVWriter: Sendable {
    package private(set) var text: String

    /// Starts the text with the header record.
    package init(header: [String]) {
        text = ""
        append(header)
    }

    package mutating func append(_ fields: [String]) {
        var first = true
        for field in fields {
            if !first { text.append(",") }
            first = false
            text.append(Self.escape(field))
        }
        text.append("\n")
    }

    /// Quotes a field when RFC 4180 requires it.
    package static func escape(_ field: String) -> String {
        let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
        guard needsQuotes else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A number at full round-trip precision: integral values with |v| < 2^53 without a fraction
    /// ("42", "-3", "0" for -0.0), everything else as Swift's shortest round-trip `description`
    /// ("0.1", "1.5e-07", "9007199254740992.0", "1e+16"); "nan", "inf", "-inf" for non-finite values
    /// (rows for unmeasurable metrics use `MetricValue.unsupported` instead).
    package static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    package static func format(_ value: Int) -> String { String(value) }
}

extension String {
    /// Replaces every occurrence of a character (no Foundation needed).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result.append(replacement) } else { result.append(character) }
        }
        return result
    }
}
