import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
@testable import LayoutTestSupport
@testable import BenchStatistics

/// What `compare` and `export` accept as values (docs/csv.md): numbers in the grammar the harness
/// writes, finite; never negative for a cost or a count, a fraction within 0…1; the unit the
/// harness writes for the metric, the same on both sides; each row once. Anything else is one
/// error naming the file and line, never a verdict.
@Suite struct ResultsValueTests {
    @Test func theNumberGrammarIsTheOneTheHarnessWrites() {
        for (text, value) in [("0", 0.0), ("12", 12), ("-3", -3), ("0.1", 0.1), ("1.5e-07", 1.5e-7), ("1e+16", 1e16),
                              ("9007199254740992.0", 9_007_199_254_740_992), ("5e-324", Double.leastNonzeroMagnitude), ("1E5", 1e5),
                              ("0.3333333333333333", 1.0 / 3), ("123456789012345678901234", 1.2345678901234568e23)] {
            #expect(ResultsNumber.decimal(text) == value, "\(text)")
        }
        for value in [0.1, 1.0 / 3, 123456.789e-12, 6.02214076e23, 2.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -7e-300] {
            #expect(ResultsNumber.decimal(CSVWriter.format(value)) == value)
        }
        for text in ["0x10", "nan", "NaN", "inf", "-inf", "infinity", "1e400", "-1e400", " 5", "5 ", "+5", "5.", ".5", "",
                     "-", "1_000", "01", "1e", "1e+", "--1", "5,0", "١"] {
            #expect(ResultsNumber.decimal(text) == nil, "\(text.debugDescription)")
        }
        for (text, value) in [("0", 0), ("42", 42), ("-3", -3), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min)] {
            #expect(ResultsNumber.integer(text) == value)
        }
        for text in ["+5", "05", "-0", "1.0", "1e3", "9223372036854775808", "", "-", " 1", "0x10"] {
            #expect(ResultsNumber.integer(text) == nil, "\(text.debugDescription)")
        }
    }

    /// samples.csv text of `rows` with one field of row `index` replaced.
    static func samples(_ column: String, _ value: String, row index: Int = 3,
                        metric: String = "time", unit: String = "ns", center: Double = 1000) -> String {
        var rows = ResultsFixtures.samples(metric: metric, unit: unit, center: center, spread: 0.01, repetitions: 2, count: 5, seed: 1)
        rows[index][CSVSchema.samplesHeader.firstIndex(of: column)!] = value
        return ResultsFixtures.csv(rows)
    }

    static func refusal(_ text: String) -> String? {
        do { _ = try ResultSet.parse(text, file: "head.csv"); return nil } catch { return error.description }
    }

    /// The values: a time of −5 was called `improved`, `inf` gave a median "nan" and
    /// `noisy`, `0x10` was read as 16, allocs of −1e308 were `improved`.
    @Test func impossibleValuesAreRefusedAtTheirLine() throws {
        ResultsFixtures.installDeclaredMetrics()
        for bad in ["0x10", "inf", "-inf", "infinity", "nan", "1e400", " 5", "+5", "5.", ".5", ""] {
            #expect(Self.refusal(Self.samples("value", bad))
                == "head.csv: line 5: value: expected a number (a finite decimal such as 12.5 or 1.5e-07) or 'unsupported', got '\(bad)'")
        }
        #expect(Self.refusal(Self.samples("value", "-5"))
            == "head.csv: line 5: value: -5 is negative; time is a cost or a count, never below 0")
        #expect(Self.refusal(Self.samples("value", "-1e+308", metric: "allocs", unit: "count", center: 3))
            == "head.csv: line 5: value: -1e+308 is negative; allocs is a cost or a count, never below 0")
        #expect(Self.refusal(Self.samples("value", "1.5", metric: "recall", unit: "fraction", center: 0.5))
            == "head.csv: line 5: value: 1.5 is not a fraction (0 to 1)")
        // scroll_correction is signed: content moves up or down.
        #expect(Self.refusal(Self.samples("value", "-3", metric: "scroll_correction", unit: "pt", center: 10)) == nil)
        #expect(Self.refusal(Self.samples("value", "unsupported")) == nil)
        // And what the judgement made of them before: refused now, so never judged.
        let base = ResultsFixtures.csv(ResultsFixtures.samples(center: 1000, spread: 0.01, repetitions: 2, count: 5, seed: 2))
        #expect(throws: CompareError.self) {
            try ComparisonReport(base: ResultSet.parse(base, file: "base.csv"), head: ResultSet.parse(Self.samples("value", "-5"), file: "head.csv"))
        }
    }

    /// The other numeric columns are integers as the harness writes them.
    @Test func integerColumnsAreStrict() {
        for (column, bad, expected) in [("schema", "+2", "an integer"), ("items", "0x10", "a count >= 0"), ("items", "-1", "a count >= 0"),
                                        ("items", "1000.0", "a count >= 0"), ("repetition", " 1", "an integer >= 0"),
                                        ("sample", "x", "an integer >= 0"), ("sample", "-1", "an integer >= 0")] {
            #expect(Self.refusal(Self.samples(column, bad)) == "head.csv: line 5: \(column): expected \(expected), got '\(bad)'")
        }
    }

    /// A metric's unit is the one the harness writes for it; an unknown metric keeps one unit
    /// through the file and on both sides.
    @Test func unitsMustMatch() throws {
        #expect(Self.refusal(Self.samples("unit", "ms", row: 0))
            == "head.csv: line 2: unit: time is written in ns, got 'ms'")
        #expect(Self.refusal(Self.samples("unit", "bytes", row: 0, metric: "allocs", unit: "count", center: 3))
            == "head.csv: line 2: unit: allocs is written in count, got 'bytes'")
        #expect(Self.refusal(Self.samples("unit", "ms", metric: "frobs", unit: "ns"))
            == "head.csv: line 5: unit: 'ms', where line 2 of the same series has 'ns'")
        // The whole head in ms against a base in ns (the case), for a metric this version
        // does not know: refused, naming both files.
        let base = try ResultSet.parse(ResultsFixtures.csv(ResultsFixtures.samples(metric: "frobs", unit: "ns", center: 1000, spread: 0.01, seed: 1)), file: "base.csv")
        let head = try ResultSet.parse(ResultsFixtures.csv(ResultsFixtures.samples(metric: "frobs", unit: "ms", center: 0.001, spread: 0.01, seed: 2)), file: "head.csv")
        #expect { try ComparisonReport(base: base, head: head) } throws: {
            ($0 as? CompareError)?.description == "head.csv: line 2: unit: s m 1000 query frobs is in 'ms' here and in 'ns' in base.csv (line 2); values in different units are not compared"
        }
    }

    /// A row is a run's repetition's sample of one series: two rows with the same run id,
    /// repetition, sample, scenario, mode, items, operation and metric are one too many.
    @Test func aRowAppearsOnce() throws {
        var rows = ResultsFixtures.samples(center: 1000, spread: 0.01, repetitions: 2, count: 5, seed: 1)
        #expect(Self.refusal(ResultsFixtures.csv(rows + [rows[3]]))
            == "head.csv: line 12: a second row for run 'run', repetition 1, sample 4 of s m 1000 query time (each row appears once)")
        // The same sample in another repetition, run or series is another row.
        var other = rows[3]
        other[1] = "run2"
        rows.append(other)
        other = rows[3]
        other[5] = "m2"
        rows.append(other)
        #expect(Self.refusal(ResultsFixtures.csv(rows)) == nil)
        // Out of order, and an unsupported row, too.
        var shuffled = ResultsFixtures.samples(center: 1000, spread: 0.01, repetitions: 1, count: 9, seed: 1)
        shuffled.swapAt(1, 7)
        #expect(Self.refusal(ResultsFixtures.csv(shuffled)) == nil)
        shuffled.append(shuffled[7])
        shuffled[shuffled.count - 1][12] = "unsupported"
        #expect(Self.refusal(ResultsFixtures.csv(shuffled))?.hasPrefix("head.csv: line 11: a second row for run 'run', repetition 1, sample 2 ") == true)
    }

    /// profiles.csv.gz: instructions per operation, so numbers of the grammar, never negative.
    /// (A function may appear twice in an operation: `swift demangle --simplified` can give two
    /// symbols one name.)
    @Test func profileValuesAreStrict() throws {
        let header = FunctionProfileRow.header.joined(separator: ",") + "\n"
        let good = "list-query,binary,1000,query,f(),120,4000\n"
        #expect(try FunctionProfileRow.parse(header + good + good, file: "p.csv").count == 2)
        for (row, expected) in [("list-query,binary,1000,query,f(),0x10,4000", "self: expected a number (a finite decimal such as 12.5 or 1.5e-07), got '0x10'"),
                                ("list-query,binary,1000,query,f(),120,inf", "inclusive: expected a number (a finite decimal such as 12.5 or 1.5e-07), got 'inf'"),
                                ("list-query,binary,1000,query,f(),-5,4000", "self: -5 is negative; instructions is a cost or a count, never below 0"),
                                ("list-query,binary,+3,query,f(),1,1", "items: expected a count >= 0, got '+3'"),
                                ("list-query,binary,1000,query,f(),1", "expected 7 fields (scenario,mode,items,operation,function,self,inclusive), got 6")] {
            #expect { try FunctionProfileRow.parse(header + good + row + "\n", file: "p.csv") } throws: {
                ($0 as? CompareError)?.description == "p.csv: line 3: " + expected
            }
        }
    }

    /// The set of sample numbers seen, against a plain set, in and out of order.
    @Test func sampleNumbersAreSeenOnce() {
        var generator = SplitMix64(seed: 3)
        for round in 0..<200 {
            var numbers = SampleNumbers(), reference = Set<Int>()
            let count = Int(generator.next() % 600)
            let span = UInt64(round % 2 == 0 ? 50 : 5_000)
            var next = 0
            for _ in 0..<count {
                let number: Int
                switch generator.next() % 4 {
                case 0, 1: number = next; next += 1
                case 2: number = Int(generator.next() % span)
                default: number = Int.max - Int(generator.next() % 3)
                }
                #expect(numbers.insert(number) == reference.insert(number).inserted)
            }
        }
    }
}
