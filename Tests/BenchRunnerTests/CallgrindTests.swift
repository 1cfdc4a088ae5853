import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// Output of valgrind-3.19.0 callgrind (`--instr-atstart=no`) for a C program with two regions, the first
/// dumped with CALLGRIND_DUMP_STATS_AT("loop, 1000 \"x\""), then the final dump at program termination.
private let dumpWithLabel = """
# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 6351
cmd:  ./cg
part: 1


desc: I1 cache: 
desc: D1 cache: 
desc: LL cache: 

desc: Timerange: Basic block 0 - 1001
desc: Trigger: Client Request: loop, 1000 "x"

positions: line
events: Ir
summary: 0


ob=(1) /tmp/lbx/cg
fl=(1) ???
fn=(0) main
0 6003

totals: 6003

"""

private let finalDump = """
# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 6351
cmd:  ./cg
part: 3


desc: I1 cache: 
desc: D1 cache: 
desc: LL cache: 

desc: Timerange: Basic block 1013 - 1014
desc: Trigger: Program termination

positions: line
events: Ir
summary: 0


totals: 0

"""

/// With `--cache-sim=yes` there are several events per line; Ir is not necessarily first.
private let cacheSimDump = """
# callgrind format
version: 1
creator: callgrind-3.19.0
desc: Trigger: Client Request: prepare/list/30000
events: Dr Ir Dw
summary: 500 123456789 200
fn=(0) main
0 500 123456789 200
totals: 500 123456789 200
"""

@Suite struct CallgrindTests {
    @Test func parsesLabelledDump() {
        let dump = CallgrindDump.parse(dumpWithLabel)
        #expect(dump.label == "loop, 1000 \"x\"")
        #expect(dump.trigger == "Client Request: loop, 1000 \"x\"")
        #expect(dump.instructions == 6003)
    }

    @Test func finalDumpHasNoLabel() {
        let dump = CallgrindDump.parse(finalDump)
        #expect(dump.label == nil)
        #expect(dump.trigger == "Program termination")
        #expect(dump.instructions == 0)
    }

    @Test func picksTheIrColumn() {
        let dump = CallgrindDump.parse(cacheSimDump)
        #expect(dump.label == "prepare/list/30000")
        #expect(dump.instructions == 123_456_789)
        #expect(CallgrindDump.parse(cacheSimDump.replacingOccurrences(of: "\n", with: "\r\n")).instructions == 123_456_789)
    }

    @Test func collectsDumpsInOrder() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cgtest-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try finalDump.write(toFile: directory + "/cg.out.77", atomically: false, encoding: .utf8)
        try cacheSimDump.write(toFile: directory + "/cg.out.77.10", atomically: false, encoding: .utf8)
        try dumpWithLabel.write(toFile: directory + "/cg.out.77.2", atomically: false, encoding: .utf8)
        let dumps = try CallgrindRunner.collectDumps(in: directory)
        #expect(dumps.map(\.label) == ["loop, 1000 \"x\"", "prepare/list/30000", nil])
    }

    @Test func outsideValgrindTheRegionJustRuns() {
        #expect(!CallgrindRegion.isUnderValgrind)
        #expect(CallgrindRegion.measure(label: "noop") { 41 + 1 } == 42)
    }

    /// End to end: compiles the C program the fixtures came from and runs it under callgrind.
    @Test(.enabled(if: canRunCallgrindPrograms))
    func runnerEndToEnd() throws {
        let programs = try CallgrindPrograms("cgrun")
        defer { programs.remove() }
        let source = """
        #include <valgrind/callgrind.h>
        volatile long sink;
        int main(void) {
            CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
            for (long i = 0; i < 1000; i++) sink += i;
            CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("loop 1000");
            CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
            for (long i = 0; i < 10; i++) sink += i;
            CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("loop 10");
            return 0;
        }
        """
        let executable = try programs.compile(source, name: "cg")
        let first = try CallgrindRunner.run(executable: executable, arguments: [])
        let second = try CallgrindRunner.run(executable: executable, arguments: [])
        #expect(Set(first.keys) == ["loop 1000", "loop 10"])
        #expect(first == second)  // exact repeat
        let big = try #require(first["loop 1000"]), small = try #require(first["loop 10"])
        #expect(big > 5_000 && big < 20_000)
        #expect(small < big / 50)
    }
}
