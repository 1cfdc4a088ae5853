@testable import BenchStatistics
import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
@testable import BenchDriver

/// Metrics whose value depends on the process that measured it (`Metric.Kind.perProcess`:
/// `peak_rss`, `alloc_bytes`) never cry wolf in a comparison of one binary with itself (issue 31,
/// item 3), and a real change is still found.
@Suite struct ProcessBoundMetricTests {
    /// Samples of one row: per repetition a process level from `level(repetition)`, each sample
    /// that level times 1 ± `spread` (uniform).
    static func rows(metric: Metric, repetitions: Int, samples: Int, spread: Double, seed: UInt64,
                     level: (Int, inout SplitMix64) -> Double) -> [[String]] {
        var generator = SplitMix64(seed: seed)
        var rows: [[String]] = []
        for repetition in 1...repetitions {
            let center = level(repetition, &generator)
            for sample in 1...samples {
                let noise = spread == 0 ? 1 : 1 + spread * (Double(generator.next() >> 11) / Double(1 << 53) * 2 - 1)
                let mode = metric == .peakRSS ? "" : "set-scan", operation = metric == .peakRSS ? "" : "scroll-step"
                rows.append(["2", "run", "abc1234", "reuse-scroll", "reuse-scroll", mode, "1000", operation,
                             String(repetition), String(sample), metric.rawValue, metric.unit,
                             CSVWriter.format((center * noise).rounded())])
            }
        }
        return rows
    }

    static func uniform(_ generator: inout SplitMix64) -> Double { Double(generator.next() >> 11) / Double(1 << 53) }

    /// `alloc_bytes` of reuse-scroll set-scan as two quick runs read it: each process settles at
    /// one of two levels 20% apart (52–68 B per step in the runs measured), its samples scattered
    /// widely around it. 400 such A/A pairs: at two repetitions a side (`run --quick`) none is a
    /// change; at five, only when all five processes of one side took one level and all of the
    /// other side the other, one pair in 512 (the rule's limit, as for time: `repetitionsForChange`).
    /// (Judged exactly at 5%, as before, most of them were `regressed` or `improved`.)
    @Test(arguments: [(2, 0), (5, 3)])
    func allocBytesWhoseProcessesDisagreeIsNeverAChange(repetitions: Int, allowed: Int) throws {
        var alarms: [String] = []
        for seed in UInt64(0)..<400 {
            let level: (Int, inout SplitMix64) -> Double = { _, generator in Self.uniform(&generator) < 0.5 ? 5670 : 6800 }
            let base = Self.rows(metric: .allocBytes, repetitions: repetitions, samples: 200, spread: 0.6, seed: seed * 2, level: level)
            let head = Self.rows(metric: .allocBytes, repetitions: repetitions, samples: 200, spread: 0.6, seed: seed * 2 + 1, level: level)
            let report = try ResultsFixtures.report(base, head)
            let row = try #require(report.rows.first)
            #expect(row.judgement == .processes)
            if row.verdict == .regressed || row.verdict == .improved || report.exitStatus == 2 {
                alarms.append("seed \(seed): \(row.verdict!) ratio \(row.ratio)")
            }
        }
        #expect(alarms.count <= allowed, "\(alarms.count) false alarms: \(alarms.prefix(5))")
    }

    /// `peak_rss`, one value per process, moving ±10% between processes (sticky-many-sections read
    /// 33–40 MB in twelve processes): 400 A/A pairs of two processes a side, none a change. (Judged as
    /// before — beyond 10% with the two sides apart — about one pair in twelve was `regressed`.)
    @Test func peakRSSOfTwoProcessesASideIsNeverAChange() throws {
        var alarms = 0
        for seed in UInt64(0)..<400 {
            let level: (Int, inout SplitMix64) -> Double = { _, generator in 36e6 * (1 + 0.1 * (2 * Self.uniform(&generator) - 1)) }
            let base = Self.rows(metric: .peakRSS, repetitions: 2, samples: 1, spread: 0, seed: seed * 2, level: level)
            let head = Self.rows(metric: .peakRSS, repetitions: 2, samples: 1, spread: 0, seed: seed * 2 + 1, level: level)
            let report = try ResultsFixtures.report(base, head)
            if report.rows.contains(where: { $0.verdict == .regressed || $0.verdict == .improved }) { alarms += 1 }
        }
        #expect(alarms == 0)
    }

    /// One process a side shows nothing of the spread between processes: beyond the threshold the
    /// row is `noisy`, within it `unchanged`; every sample one value on both sides is a count, exact.
    @Test func oneProcessASideIsNeverAChange() throws {
        func peak(_ value: Double, repetitions: Int = 1) -> [[String]] {
            Self.rows(metric: .peakRSS, repetitions: repetitions, samples: 1, spread: 0, seed: 1) { repetition, _ in
                value * (1 + 0.001 * Double(repetition))
            }
        }
        let apart = try ResultsFixtures.report(peak(100e6), peak(125e6))
        #expect(apart.rows.first?.verdict == .noisy)
        #expect(apart.rows.first?.judgement == .oneProcess)
        #expect(apart.exitStatus == 3)
        let close = try ResultsFixtures.report(peak(100e6), peak(103e6))
        #expect(close.rows.first?.verdict == .unchanged)
        // alloc_bytes scattered within its one process a side, 30% apart: not a change either.
        let scattered: (Double) -> [[String]] = { level in
            Self.rows(metric: .allocBytes, repetitions: 1, samples: 100, spread: 0.5, seed: UInt64(level)) { _, _ in level }
        }
        let bytes = try ResultsFixtures.report(scattered(5000), scattered(6500))
        #expect(bytes.rows.first?.verdict == .noisy)
        #expect(bytes.exitStatus == 3)
    }

    /// What these rules must still find: a hot path that starts to allocate (every sample one value
    /// on both sides: exact, at two repetitions a side), and storage that grows by 40% in every one
    /// of five processes a side whose levels agree within a few percent.
    @Test func aRealAllocationChangeIsStillFound() throws {
        let zero = Self.rows(metric: .allocBytes, repetitions: 2, samples: 50, spread: 0, seed: 1) { _, _ in 0 }
        let sixteen = Self.rows(metric: .allocBytes, repetitions: 2, samples: 50, spread: 0, seed: 1) { _, _ in 16 }
        let started = try ResultsFixtures.report(zero, sixteen)
        #expect(started.rows.first?.verdict == .regressed)
        #expect(started.rows.first?.judgement == .exact)
        #expect(started.exitStatus == 2)

        let level: (Double) -> (Int, inout SplitMix64) -> Double = { center in
            { _, generator in center * (1 + 0.03 * (2 * Self.uniform(&generator) - 1)) }
        }
        let base = Self.rows(metric: .allocBytes, repetitions: 5, samples: 200, spread: 0.5, seed: 3, level: level(10_000))
        let grown = Self.rows(metric: .allocBytes, repetitions: 5, samples: 200, spread: 0.5, seed: 4, level: level(14_000))
        let report = try ResultsFixtures.report(base, grown)
        #expect(report.rows.first?.verdict == .regressed)
        #expect(report.rows.first?.judgement == .processes)
        let shrunk = try ResultsFixtures.report(grown, base)
        #expect(shrunk.rows.first?.verdict == .improved)
    }

    /// compare.txt says which rule judged which rows; compare.csv says it per row.
    @Test func theReportSaysHowEachRowWasJudged() throws {
        let scattered = Self.rows(metric: .allocBytes, repetitions: 2, samples: 50, spread: 0.5, seed: 5) { _, _ in 5000 }
        let allocs = MetricJudgementTests.constant(.allocs, 3, repetitions: 2)
        let time = MetricJudgementTests.constant(.time, 1000, repetitions: 2)
        let report = try ResultsFixtures.report(scattered + allocs + time, scattered + allocs + time)
        let text = ComparisonTable.text(report, showUnchanged: false)
        #expect(text.contains("judged:\n"), "\(text)")
        #expect(text.contains("  alloc_bytes: 1 row by their processes (each process's midmean, its median where a sample is 0; a change from 5 repetitions a side): reuse-scroll set-scan 1000 scroll-step\n"), "\(text)")
        #expect(text.contains("  allocs: 1 row exactly (by their totals over the steps both sides counted)\n"), "\(text)")
        let csv = ComparisonTable.csv(report).split(separator: "\n").map(String.init)
        #expect(csv[0].hasSuffix(",verdict,judged"))
        #expect(csv.contains { $0.contains(",alloc_bytes,") && $0.hasSuffix(",by-processes") })
        #expect(csv.contains { $0.contains(",allocs,") && $0.hasSuffix(",exact") })
    }
}

/// The busy-machine warnings of a driver's comparison speak of the machine, not of the driver's
/// own processes (issue 31, item 6).
@Suite struct MachineLoadWarningTests {
    static func result(start: Double, end: Double, before: RunMetadata.MachineLoad?, own: Int?) -> ResultSet {
        var metadata = RunMetadata.begin(runID: "r", commandLine: ["layout-bench"], directory: "/")
        metadata.machine.activeCores = 2
        metadata.source.dirty = false
        metadata.load = RunMetadata.Load(start: [start, 1, 1], end: [end, 1, 1], before: before, ownProcesses: own)
        return ResultSet(samplesPath: "samples.csv", series: [:], commits: [], metadata: metadata)
    }

    @Test func theDriversOwnLoadIsNotABusyMachine() {
        // Two processes of its own on two cores, a load of 2.3 while it ran, a quiet machine before.
        let quiet = RunMetadata.MachineLoad(average: [0.2, 0.3, 0.4], running: 0, busiest: [])
        let own = Self.result(start: 2.3, end: 2.1, before: quiet, own: 2)
        #expect(!RunCompatibility.warnings(base: own, head: own).contains { $0.contains("busy") || $0.contains("loaded") })
        // The same loads from a plain run (no driver record) are a busy machine, as before.
        let plain = Self.result(start: 2.3, end: 2.1, before: nil, own: nil)
        #expect(RunCompatibility.warnings(base: plain, head: plain).contains { $0.hasPrefix("base ran on a busy machine (load average 2.30") })
    }

    @Test func aBusyMachineBeforeTheComparisonIsSaidOnce() {
        let busy = RunMetadata.MachineLoad(average: [3.5, 2, 1], running: 3, busiest: ["swift-frontend 97% cpu", "cc1 40% cpu"])
        let side = Self.result(start: 2.2, end: 2.2, before: busy, own: 2)
        let warnings = RunCompatibility.warnings(base: side, head: side)
        let said = warnings.filter { $0.contains("before the comparison started") }
        #expect(said == ["the machine was busy before the comparison started anything (load average 3.50 on 2 cores, "
                         + "3 processes running; busiest: swift-frontend 97% cpu, cc1 40% cpu): expect noisy times"], "\(warnings)")
        // Others loading the machine while the comparison ran: beyond its own two processes.
        let loaded = Self.result(start: 2.2, end: 4.9, before: busy, own: 2)
        #expect(RunCompatibility.warnings(base: loaded, head: side).contains {
            $0.hasPrefix("base ran while other work loaded the machine (load average 4.90 on 2 cores, of which about 2")
        })
    }

    /// A load average that still reads what just ended, with nobody running in the second the
    /// driver watched: no busy machine (every whole-suite comparison in a row had said one).
    @Test func aLaggingLoadAverageIsNoBusyMachine() {
        let lagging = RunMetadata.MachineLoad(average: [3.05, 3.21, 3.01], running: 0, busiest: [])
        let side = Self.result(start: 2.2, end: 2.2, before: lagging, own: 2)
        #expect(!RunCompatibility.warnings(base: side, head: side).contains { $0.contains("before the comparison") })
        // Others busy in that second, if little: beyond the half core the driver's own leave.
        let little = RunMetadata.MachineLoad(average: [0.1, 0.1, 0.1], running: 1, busiest: ["gzip 30% cpu", "python3 25% cpu"])
        let warned = RunCompatibility.warnings(base: Self.result(start: 2.2, end: 2.2, before: little, own: 2),
                                               head: Self.result(start: 2.2, end: 2.2, before: little, own: 2))
        #expect(warned.contains { $0.hasPrefix("the machine was busy before the comparison started anything (load average 0.10") })
        #expect(RunCompatibility.cpuShare("a b 97% cpu") == 0.97 && RunCompatibility.cpuShare("x 50%") == 0
                && RunCompatibility.cpuShare("x nan% cpu") == 0)
    }

    /// Many small processes of others, none among the busiest five at 5%: judged by the CPU they
    /// all took in that second, which the record now carries as a number.
    @Test func manySmallProcessesOfOthersAreABusyMachine() {
        let many = RunMetadata.MachineLoad(average: [0.4, 0.3, 0.2], running: 30, busiest: ["make 4% cpu"], othersCores: 1.9)
        let side = Self.result(start: 2.2, end: 2.2, before: many, own: 2)
        let said = RunCompatibility.warnings(base: side, head: side).filter { $0.contains("before the comparison") }
        #expect(said == ["the machine was busy before the comparison started anything (load average 0.40 on 2 cores, "
                         + "30 processes running, others using 1.90 cores; busiest: make 4% cpu): expect noisy times"], "\(said)")
        // The same second with others idle: no warning, whatever the busiest list and the load average say.
        let idle = RunMetadata.MachineLoad(average: [3.05, 3, 3], running: 0, busiest: ["gzip 60% cpu"], othersCores: 0.1)
        let quiet = Self.result(start: 2.2, end: 2.2, before: idle, own: 2)
        #expect(!RunCompatibility.warnings(base: quiet, head: quiet).contains { $0.contains("before the comparison") })
        // A number run.json cannot hold honestly is no busy machine, and no trap.
        let broken = Self.result(start: 2.2, end: 2.2, before: RunMetadata.MachineLoad(average: [0.1, 0.1, 0.1], othersCores: .nan), own: 2)
        #expect(!RunCompatibility.warnings(base: broken, head: broken).contains { $0.contains("before the comparison") })
    }

    /// What `MachineLoad.measure` writes, put in run.json as the drivers merge it, reads back as
    /// the record, others' cores included.
    @Test func theMeasuredLoadReadsBackAsTheRecord() throws {
        guard let load = MachineLoad.measure(interval: 0.2) else { return }
        let cores = try #require(load.othersCores)
        #expect(cores >= 0 && cores.isFinite)
        // As machine-load prints it and merge-rounds --machine-before reads it back.
        #expect(MachineLoad.parse(MachineLoad.json(load)) == load)
        var metadata = try #require(Self.result(start: 1, end: 1, before: nil, own: 2).metadata)
        metadata.load.before = load
        let before = try #require(try RunMetadata.decode(try metadata.jsonText()).load.before)
        #expect(before.othersCores == cores)
        #expect(before.busiest == load.busiest)
    }

    @Test func theRecordSurvivesRunJSON() throws {
        let side = Self.result(start: 1, end: 1, before: RunMetadata.MachineLoad(average: [1, 2, 3], running: 4, busiest: ["a 50% cpu"], othersCores: 0.55), own: 2)
        let text = try side.metadata!.jsonText()
        #expect(text.contains("\"own_processes\" : 2"), "\(text)")
        #expect(text.contains("\"others_cores\" : 0.55"), "\(text)")
        let decoded = try RunMetadata.decode(text)
        #expect(decoded.load == side.metadata!.load)
        // A plain run's run.json has neither field.
        let plain = try Self.result(start: 1, end: 1, before: nil, own: nil).metadata!.jsonText()
        #expect(!plain.contains("own_processes") && !plain.contains("\"before\""))
    }
}

/// Two plain runs, one of them on a busy machine: a timed change between them cannot be told from
/// the load, so it is left `noisy` (a full-run A/A at load 4 and 11.5 called 17 rows of
/// feed-heights-fd `regressed`, 2–3× slower); the paired rounds of compare-commits keep theirs.
@Suite struct BusyMachineTimedChangeTests {
    static func run(_ rows: [[String]], load: Double, own: Int?) throws -> ResultSet {
        var result = try ResultSet.parse(ResultsFixtures.csv(rows), file: "samples.csv")
        var metadata = RunMetadata.begin(runID: "r", commandLine: ["layout-bench"], directory: "/")
        metadata.machine.activeCores = 2
        metadata.source.dirty = false
        metadata.load = RunMetadata.Load(start: [load, 1, 1], end: [load, 1, 1], ownProcesses: own)
        result.metadata = metadata
        return result
    }

    @Test func aTimedChangeOnABusyMachineIsWithheld() throws {
        let base = ResultsFixtures.samples(center: 1000, spread: 0.01, shift: 0.02, seed: 1)
        let head = ResultsFixtures.samples(center: 3000, spread: 0.01, shift: 0.02, seed: 2)
        // Quiet on both sides: a change.
        let quiet = try ComparisonReport(base: Self.run(base, load: 0.5, own: nil), head: Self.run(head, load: 0.8, own: nil))
        #expect(quiet.rows.first?.verdict == .regressed)
        #expect(quiet.exitStatus == 2)
        // One side busy (load 11.5 on 2 cores): withheld, said.
        let busy = try ComparisonReport(base: Self.run(base, load: 0.5, own: nil), head: Self.run(head, load: 11.5, own: nil))
        #expect(busy.rows.first?.verdict == .noisy)
        #expect(busy.rows.first?.changeWithheld == true)
        #expect(busy.exitStatus == 3)
        #expect(busy.warnings.contains { $0.hasPrefix("head ran on a busy machine and the two runs are not paired rounds of one comparison: 1 timed change") })
        // A count is no timing: judged as ever on a busy machine.
        let counts = try ComparisonReport(base: Self.run(MetricJudgementTests.constant(.allocs, 3), load: 0.5, own: nil),
                                          head: Self.run(MetricJudgementTests.constant(.allocs, 4), load: 11.5, own: nil))
        #expect(counts.rows.first?.verdict == .regressed)
        // compare-commits' paired rounds (own processes on both sides) see the load alike: kept.
        let paired = try ComparisonReport(base: Self.run(base, load: 5, own: 2), head: Self.run(head, load: 5, own: 2))
        #expect(paired.rows.first?.verdict == .regressed)
    }
}
