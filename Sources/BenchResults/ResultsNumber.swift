/// The numbers of a results file (samples.csv, summary.csv, profiles.csv.gz), read strictly: only
/// what the harness writes, so that a value it never writes is an error naming its line, not a
/// number `compare` then judges.
///
/// The harness writes `CSVWriter.format` (integers below 2^53 without a fraction, else Swift's
/// shortest round-trip form: `0.1`, `1.5e-07`, `9007199254740992.0`, `1e+16`) and `String(Int)`;
/// the scripts that merge rounds copy those fields, and the test data of the scripts is Python's
/// `repr` of a float, the same grammar. That grammar is JSON's number:
///
///     -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
///
/// so `0x10`, `nan`, `inf`, `infinity`, ` 5`, `+5`, `5.`, `.5` and `1_000` are not numbers here
/// (Swift's `Double(String)` takes all of the first six), and a literal too large for a `Double`
/// (`1e400`) is refused rather than read as infinity.
enum ResultsNumber {
    /// A finite number in the grammar above, correctly rounded; nil for anything else.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let digits = bytes.assumingMemoryBound(to: UInt8.self)
        guard let literal = JSONNumberLiteral.scan(digits, from: 0, end: digits.count),
              literal.end == digits.count, literal.value.isFinite else { return nil }
        return literal.value
    }

    /// An integer written as the harness writes one (`-?(0|[1-9][0-9]*)`, no sign `+`, no leading
    /// zeros) that fits an `Int`; nil for anything else.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") { return bytes.count == index + 1 && !negative ? 0 : nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(Int(digit)) : times10.addingReportingOverflow(Int(digit))
            guard !overflow1 && !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    static func decimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { decimal(UnsafeRawBufferPointer($0)) }
    }

    static func integer(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { integer(UnsafeRawBufferPointer($0)) }
    }
}

/// The rules a value of a results file obeys beyond its syntax (docs/csv.md), for every reader.
enum ResultsValue {
    /// Why `value` cannot be a value of `metric`; nil when it can. A metric nobody describes
    /// (`Metric.named`: not the results' own run.json, nor this binary) is judged like time
    /// (`MetricPolicy`), a cost, so it may not be negative either.
    static func problem(_ value: Double, metric: String, described: [String: Metric] = [:]) -> String? {
        let range = possible(metric: metric, described: described)
        if range.contains(value) { return nil }
        if range == 0...1 { return "\(CSVWriter.format(value)) is not a fraction (0 to 1)" }
        return "\(CSVWriter.format(value)) is negative; \(metric) is a cost or a count, never below 0"
    }

    /// The values `metric` can take: its own (`Metric.possibleValues`), or >= 0 for a metric
    /// nobody describes.
    static func possible(metric: String, described: [String: Metric] = [:]) -> ClosedRange<Double> {
        Metric.named(metric, in: described)?.possibleValues ?? 0...Double.greatestFiniteMagnitude
    }

    /// Why `unit` cannot be the unit of `metric`; nil when it can (any unit, for a metric this
    /// version does not know: its series must then keep one unit, and both runs the same).
    static func unitProblem(_ unit: String, metric: String, described: [String: Metric] = [:]) -> String? {
        guard let known = Metric.named(metric, in: described), known.unit != unit else { return nil }
        return "\(metric) is written in \(known.unit), got '\(unit)'"
    }

    /// The words for a value field that is not a number of the grammar.
    static let expectedNumber = "a number (a finite decimal such as 12.5 or 1.5e-07)"
}
