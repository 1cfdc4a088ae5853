@testable import BenchStatistics
import Testing
@testable import BenchPlatform
@testable import BenchResults

@Suite struct CSVTests {
    @Test func exactHeaders() {
        #expect(CSVSchema.version == 2)
        #expect(CSVSchema.samplesHeader.joined(separator: ",")
            == "schema,run_id,commit,scenario,workload,mode,items,operation,repetition,sample,metric,unit,value")
        #expect(CSVSchema.summaryHeader.joined(separator: ",")
            == "schema,run_id,commit,scenario,workload,mode,items,operation,metric,unit,samples,min,p25,median,p75,p90,p99,max,mean,mad,ci_low,ci_high")
        #expect(CSVWriter(header: CSVSchema.samplesHeader).text == CSVSchema.samplesHeader.joined(separator: ",") + "\n")
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("cr\rhere", "\"cr\rhere\""),
        ("crlf\r\n", "\"crlf\r\n\""),
        ("spaces stay ", "spaces stay "),
        ("ünïcödé", "ünïcödé"),
    ])
    func quoting(field: String, expected: String) {
        #expect(CSVWriter.escape(field) == expected)
    }

    @Test func numberFormatting() {
        #expect(CSVWriter.format(42.0) == "42")
        #expect(CSVWriter.format(-3.0) == "-3")
        #expect(CSVWriter.format(-0.0) == "0")
        #expect(CSVWriter.format(0.1) == "0.1")
        #expect(CSVWriter.format(1.0 / 3.0) == "0.3333333333333333")
        #expect(CSVWriter.format(1.5e-7) == "1.5e-07")
        #expect(CSVWriter.format(Double(9_007_199_254_740_991)) == "9007199254740991")
        // From 2^53 on, Swift's round-trip description.
        #expect(CSVWriter.format(Double(9_007_199_254_740_992)) == "9007199254740992.0")
        #expect(CSVWriter.format(-Double(9_007_199_254_740_994)) == "-9.007199254740994e+15")
        #expect(CSVWriter.format(1e16) == "1e+16")
        #expect(CSVWriter.format(30_000) == "30000")
        #expect(CSVWriter.format(1e300) == "1e+300")
        #expect(CSVWriter.format(Double.nan) == "nan")
        #expect(CSVWriter.format(-Double.infinity) == "-inf")
        for value in [0.1, 1.0 / 3.0, 123456.789e-12, 6.02214076e23, 2.5, Double.leastNonzeroMagnitude] {
            #expect(Double(CSVWriter.format(value)) == value)
        }
        #expect(MetricValue(.nan).csvField == "unsupported")
        #expect(MetricValue.unsupported.csvField == "unsupported")
        #expect(MetricValue(12.5).csvField == "12.5")
    }

    @Test func rowsHaveHeaderShape() {
        let sample = SampleRow(runID: "r1", commit: "abc123", scenario: "waterfall, append", workload: "append",
                               mode: "full", items: 30000, operation: "append", repetition: 0, sample: 7,
                               metric: .time, value: .number(1234.5))
        #expect(sample.fields.count == CSVSchema.samplesHeader.count)
        #expect(sample.fields == ["2", "r1", "abc123", "waterfall, append", "append", "full", "30000", "append",
                                  "0", "7", "time", "ns", "1234.5"])
        let summary = SummaryRow(runID: "r1", commit: "abc123", scenario: "s", workload: "query", mode: "linear",
                                 items: 1000, operation: "query", metric: .allocs, summary: Summary([1, 2, 3]))
        #expect(summary.fields.count == CSVSchema.summaryHeader.count)
        #expect(Array(summary.fields[8...13]) == ["allocs", "count", "3", "1", "1.5", "2"])
        let unsupported = SummaryRow(runID: "r1", commit: "c", scenario: "s", workload: "query", mode: "linear",
                                     items: 1000, operation: "query", metric: .instructions, summary: nil)
        #expect(unsupported.fields.count == CSVSchema.summaryHeader.count)
        #expect(unsupported.fields[10] == "0")
        #expect(unsupported.fields[11...].allSatisfy { $0 == "unsupported" })
    }

    @Test func roundTrip() throws {
        var writer = CSVWriter(header: CSVSchema.samplesHeader)
        let tricky = ["a,b", "quote \"q\"", "multi\nline", "\r\n", "", ",", "\"\"", "trailing space "]
        var expected: [[String]] = [CSVSchema.samplesHeader]
        for (index, text) in tricky.enumerated() {
            let row = SampleRow(runID: "run", commit: "c0ffee", scenario: text, workload: "query", mode: text,
                                items: index, operation: "query", repetition: 1, sample: index, metric: .time,
                                value: index % 2 == 0 ? .number(Double(index) / 7) : .unsupported)
            writer.append(row.fields)
            expected.append(row.fields)
        }
        let parsed = try CSVParser.parse(writer.text)
        #expect(parsed == expected)
        let table = try CSVParser.parseTable(writer.text)
        #expect(table.header == CSVSchema.samplesHeader)
        #expect(table.rows.count == tricky.count)
        let valueColumn = try #require(table.column("value"))
        #expect(Double(table.rows[2][valueColumn]) == 2.0 / 7)
        #expect(table.records[1]["scenario"] == "quote \"q\"")
    }

    @Test func parserEdgeCases() throws {
        #expect(try CSVParser.parse("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]])
        #expect(try CSVParser.parse("a,b\n1,") == [["a", "b"], ["1", ""]])
        #expect(try CSVParser.parse("\"x\"\"y\",z\n") == [["x\"y", "z"]])
        #expect(try CSVParser.parse("") == [])
        #expect(throws: CSVParser.ParseError.self) { try CSVParser.parse("\"open\n") }
        #expect(throws: CSVParser.ParseError.self) { try CSVParser.parse("a\"b\n") }
        #expect(throws: CSVParser.ParseError.self) { try CSVParser.parseTable("a,b\n1\n") }
    }
}
