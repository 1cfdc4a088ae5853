import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// `estimated_cycles`, `l1_misses` and `ll_misses` from callgrind's cache simulation.
@Suite struct CacheSimulationTests {
    /// A dump of callgrind 3.19 with `--cache-sim=yes` (events in the order it writes them, the
    /// last count omitted as callgrind does for zeros).
    static let dump = """
    # callgrind format
    version: 1
    creator: callgrind-3.19.0
    desc: Trigger: Client Request: walk
    events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
    summary: 1000 300 100 10 40 20 5 15
    fn=(0) main
    0 1000 300 100 10 40 20 5 15
    totals: 1000 300 100 10 40 20 5 15
    """

    @Test func theEstimateIsIaiCallgrindsFormula() throws {
        let dump = CallgrindDump.parse(Self.dump)
        #expect(dump.instructions == 1000)
        let cache = try #require(dump.cacheCounts)
        #expect(cache.accesses == 1400)
        #expect(cache.l1Misses == 70)
        #expect(cache.llMisses == 20)  // DLmw omitted: 0
        // L1 hits 1330, last-level hits 50, memory 20.
        #expect(cache.estimatedCycles == 1330 + 5 * 50 + 35 * 20)
    }

    @Test func withoutTheSimulationThereAreNoCacheCounts() {
        let plain = Self.dump.replacingOccurrences(of: "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw", with: "events: Ir")
        #expect(CallgrindDump.parse(plain).cacheCounts == nil)
        let inconsistent = Self.dump.replacingOccurrences(of: "totals: 1000 300 100 10 40 20 5 15", with: "totals: 1 1 1 10 40 20 5 15")
        #expect(CallgrindDump.parse(inconsistent).cacheCounts == nil)
    }

    /// A change of locality alone: the same loop over the same array, once in order and once with
    /// a stride that touches a new cache line (and soon a new page) on every access. The
    /// instruction counts are equal; the cycle estimate and the misses are not.
    @Test(.enabled(if: canRunCallgrindPrograms))
    func aLocalityOnlyChangeShowsInTheCyclesNotInTheInstructions() throws {
        let programs = try CallgrindPrograms("cachesim")
        defer { programs.remove() }
        let source = """
        #include <stdlib.h>
        #include <valgrind/callgrind.h>
        #define N (1 << 21)
        volatile double sink;
        static double walk(const double *values, long stride) {
            double total = 0;
            long index = 0;
            for (long i = 0; i < N; i++) { total += values[index]; index = (index + stride) & (N - 1); }
            return total;
        }
        int main(void) {
            double *values = malloc(sizeof(double) * N);
            for (long i = 0; i < N; i++) values[i] = (double)i;
            CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
            sink = walk(values, 1);
            CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("in order");
            CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
            sink = walk(values, 4099);
            CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("strided");
            free(values);
            return 0;
        }
        """
        let dumps = try CallgrindRunner.labelledDumps(executable: programs.compile(source, name: "walk"), arguments: [], cacheSimulation: true)
        let inOrder = try #require(dumps["in order"]), strided = try #require(dumps["strided"])
        let orderInstructions = try #require(inOrder.instructions), stridedInstructions = try #require(strided.instructions)
        #expect(abs(Double(stridedInstructions) / Double(orderInstructions) - 1) < 0.001)
        let orderCache = try #require(inOrder.cacheCounts), stridedCache = try #require(strided.cacheCounts)
        // Every strided access misses the first level (in order, one in eight does); the last level,
        // sized like the host's, may hold the whole array, so its misses are only bounded below.
        #expect(stridedCache.l1Misses > 4 * orderCache.l1Misses, "in order \(orderCache), strided \(stridedCache)")
        #expect(stridedCache.llMisses >= orderCache.llMisses)
        #expect(Double(stridedCache.estimatedCycles) > 1.2 * Double(orderCache.estimatedCycles),
                "in order \(orderCache), strided \(stridedCache)")
    }
}
