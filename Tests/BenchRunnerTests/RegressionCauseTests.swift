import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// Naming the functions behind a regression of the exact track.
@Suite struct RegressionCauseTests {
    /// Callgrind 3.19's dump of a small C program (`middle` calls `leaf` twice, `main` calls both).
    static let dump = """
    # callgrind format
    version: 1
    creator: callgrind-3.19.0
    desc: Trigger: Client Request: r1
    positions: line
    events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
    summary: 0
    ob=(1) /tmp/p
    fl=(1) ???
    fn=(2) middle
    0 3 0 2 1 0 0 1
    cfn=(4) leaf
    calls=1 0
    0 6004 1001 1000 1 1 0 1 1
    0 5 0 1
    cfn=(4)
    calls=1 0
    0 3004 501 500
    0 2 2

    fn=(0) main
    0 4 1 2 1 0 2 1 0 2
    cfn=(2)
    calls=1 0
    0 9018 1504 1503 2 1 0 2 1
    0 2 0 1
    cfn=(4)
    calls=1 0
    0 64 11 10

    fn=(4)
    0 9072 1513 1510 1 1 0 1 1

    totals: 9088 1516 1516 3 1 2 3 1 2
    """

    @Test func selfAndInclusiveCostsWithCompressedNames() {
        let profile = CallgrindProfile.parse(Self.dump)
        #expect(profile.functions["leaf"] == .init(selfCost: 9072, inclusive: 9072))
        #expect(profile.functions["middle"] == .init(selfCost: 10, inclusive: 9018))
        #expect(profile.functions["main"] == .init(selfCost: 6, inclusive: 9088))
        // The inclusive cost of the outermost function is the dump's total.
        #expect(profile.functions.values.map(\.inclusive).max() == 9088)
    }

    static func samples(_ value: Double) -> String {
        var writer = CSVWriter(header: CSVSchema.samplesHeader)
        writer.append(["2", "run", "abc1234", "list-query", "query", "binary", "1000", "query", "1", "1", "instructions", "count", CSVWriter.format(value)])
        return writer.text
    }

    static func profile(_ costs: [String: (Double, Double)]) -> [FunctionProfileRow] {
        costs.map { FunctionProfileRow(scenario: "list-query", mode: "binary", items: 1000, operation: "query",
                                       function: $0.key, selfInstructions: $0.value.0, inclusiveInstructions: $0.value.1) }
    }

    @Test func theFunctionsThatMovedMostAreNamed() throws {
        var base = try ResultSet.parse(Self.samples(1000), file: "base.csv")
        var head = try ResultSet.parse(Self.samples(1100), file: "head.csv")
        base.profiles = Self.profile(["query": (100, 1000), "search": (600, 600), "copy": (300, 300), "new": (0, 0)])
        head.profiles = Self.profile(["query": (100, 1100), "search": (610, 610), "copy": (390, 390)])
        let report = try ComparisonReport(base: base, head: head)
        #expect(report.rows.first?.verdict == .regressed)
        let causes = try #require(report.causes.values.first)
        #expect(causes.map(\.function) == ["copy", "search", "query"])
        #expect(causes.first?.selfDelta == 90)
        let text = ComparisonTable.text(report, showUnchanged: false)
        #expect(text.contains("where the instructions went"))
        #expect(text.contains("copy"))
        #expect(RegressionCause.csv(report.causes).split(separator: "\n").count == 4)
        // Nothing regressed, nothing to explain.
        let same = try ComparisonReport(base: base, head: try ResultSet.parse(Self.samples(1000), file: "h.csv"))
        #expect(same.causes.isEmpty)
    }

    /// End to end: two builds of one C program, the second with a slower `leaf`, under the
    /// harness's callgrind runner; the cause named first is `leaf`.
    @Test(.enabled(if: canRunCallgrindPrograms))
    func anInjectedSlowdownIsNamed() throws {
        let programs = try CallgrindPrograms("causes")
        defer { programs.remove() }
        let source = """
        #include <valgrind/callgrind.h>
        volatile long sink;
        __attribute__((noinline)) void leaf(long n) { for (long i = 0; i < n * WORK; i++) sink += i; }
        __attribute__((noinline)) void other(long n) { for (long i = 0; i < n; i++) sink -= i; }
        __attribute__((noinline)) void operation(void) { leaf(1000); other(3000); }
        int main(void) {
            CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
            operation();
            CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("op");
            return 0;
        }
        """
        var profiles: [[FunctionProfileRow]] = []
        var counts: [Double] = []
        for (name, work) in [("base", 10), ("head", 11)] {
            let executable = try programs.compile(source, name: name, flags: ["-DWORK=\(work)"])
            let dump = try #require(try CallgrindRunner.labelledDumps(executable: executable, arguments: [])["op"])
            counts.append(Double(dump.instructions ?? 0))
            profiles.append(dump.profile.top(25).functions.map {
                FunctionProfileRow(scenario: "list-query", mode: "binary", items: 1000, operation: "query",
                                   function: $0.key, selfInstructions: $0.value.selfCost, inclusiveInstructions: $0.value.inclusive)
            })
        }
        var base = try ResultSet.parse(Self.samples(counts[0]), file: "base.csv")
        var head = try ResultSet.parse(Self.samples(counts[1]), file: "head.csv")
        base.profiles = profiles[0]
        head.profiles = profiles[1]
        let report = try ComparisonReport(base: base, head: head)
        #expect(report.rows.first?.verdict == .regressed)
        let causes = try #require(report.causes.values.first)
        #expect(causes.first?.function == "leaf", "\(causes)")
        #expect(causes.first.map { $0.selfDelta > 0 } == true)
        #expect(!causes.contains { $0.function == "other" })
    }
}
