/// Reads one JSON number literal (RFC 8259 grammar) in a single pass over its bytes: where it
/// ends, whether it is written as an integer, and its correctly rounded `Double` value.
///
/// Most literals (at most 15 significant digits, a decimal exponent within ±22) take the exact
/// fast path: the digits as an integer, multiplied or divided once by an exact power of ten
/// (both exact, so the one rounding is correct). The others go through Swift's
/// `Double(String)`, which is correctly rounded too (and gives ±infinity on overflow).
/// `JSONParser` explains a malformed literal; this type only says that it is one (nil).
package enum JSONNumberLiteral {
    package static func scan(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, end: Int
    ) -> (value: Double, end: Int, isInteger: Bool)? {
        var i = start
        let negative = i < end && buffer[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0  // significant digits (leading zeros do not count)
        var exponent = 0
        @inline(__always) func digit(_ i: Int) -> UInt64? {
            guard i < end else { return nil }
            let d = buffer[i] &- UInt8(ascii: "0")
            return d < 10 ? UInt64(d) : nil
        }
        guard let first = digit(i) else { return nil }
        i += 1
        if first == 0 {
            if digit(i) != nil { return nil }  // leading zero
        } else {
            mantissa = first
            digits = 1
            while let d = digit(i) {
                if digits < 19 { mantissa = mantissa &* 10 &+ d } else { exponent += 1 }
                digits += 1
                i += 1
            }
        }
        var isInteger = true
        if i < end, buffer[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard digit(i) != nil else { return nil }
            while let d = digit(i) {
                if digits == 0 && d == 0 {
                    exponent -= 1
                } else if digits < 19 {
                    mantissa = mantissa &* 10 &+ d
                    exponent -= 1
                    digits += 1
                } else {
                    digits += 1
                }
                i += 1
            }
        }
        if i < end, buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            var exponentNegative = false
            if i < end, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") {
                exponentNegative = buffer[i] == UInt8(ascii: "-")
                i += 1
            }
            guard digit(i) != nil else { return nil }
            var written = 0
            while let d = digit(i) {
                if written < 100_000 { written = written * 10 + Int(d) }
                i += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let value: Double
        if digits <= 15, exponent >= -22, exponent <= 22 {
            var magnitude = Double(mantissa)
            if exponent < 0 { magnitude /= exactPowersOfTen[-exponent] } else { magnitude *= exactPowersOfTen[exponent] }
            value = negative ? -magnitude : magnitude
        } else {
            value = Double(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self)) ?? .nan
        }
        return (value, i, isInteger)
    }

    /// 1e0 … 1e22: every one is exactly representable as a `Double`.
    private static let exactPowersOfTen: [Double] = (0...22).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }
}
