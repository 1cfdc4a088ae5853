/// Text a person reads (a terminal, a log, an SVG's title) made safe to show: the characters that
/// act instead of showing — C0 controls, DEL, C1 controls (an ANSI escape starts with U+001B or
/// U+009B), the bidirectional formatting controls (U+202E RIGHT-TO-LEFT OVERRIDE reorders the
/// rest of a line), the line and paragraph separators and the noncharacters U+FFFE and U+FFFF —
/// are written as `\uXXXX`, as a JSON string writes them. A scenario name such as `"a\u{1B}[2J"`
/// then prints as `a\u001B[2J` instead of clearing the screen.
///
/// Every human-readable output passes through `escaped`: standard error (`StandardError`), the
/// `list` and `compare` tables (and compare-commits' compare.txt), the SVG of `render`, and the
/// error lines' quoted values.
/// Machine-readable outputs (CSV, JSON) keep their own escaping rules.
package enum DisplayText {
    /// Whether `scalar` acts rather than shows (line feeds and tabs aside, which `escaped` keeps
    /// where asked).
    @inline(__always)
    package static func acts(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0xFFFE, 0xFFFF: return true  // noncharacters, which XML does not allow
        default: return false
        }
    }

    /// `text` with every acting character as `\uXXXX`; line feeds and tabs are kept when
    /// `keepingLines` (a table of lines), escaped otherwise (one line of a message).
    package static func escaped(_ text: String, keepingLines: Bool = true) -> String {
        // The common case, printable ASCII and line feeds, is returned as it is.
        if !text.utf8.contains(where: { $0 >= 0x7F || ($0 < 0x20 && !(keepingLines && ($0 == 0x0A || $0 == 0x09))) }) {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if acts(scalar) && !(keepingLines && (scalar == "\n" || scalar == "\t")) {
                out.append(contentsOf: unicodeEscape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `\u0007`, `\u202E`: four hexadecimal digits (every acting character is in the BMP).
    package static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `text` cut to its first `limit` characters, with how much was left out, so that an
    /// echoed value (a 100,000-character font family) keeps an error to one readable line.
    package static func bounded(_ text: String, limit: Int = 120) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count) characters)"
    }
}
