import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
import LayoutEngine

/// Numbers at and beyond every conversion that input reaches (issue 34, item 2): each is refused
/// with a clear error where it is read, or shown without a conversion that can trap. A trap here
/// ends the whole test process, as it ended the command.
@Suite struct NumberConversionTests {
    /// run.json's load averages are only shown, in the busy-machine warning of `compare`: one of
    /// 9.3e16 or more once trapped converting its hundredths to `Int`.
    @Test func anyLoadAverageIsShownWithoutTrapping() {
        var metadata = RunMetadata.begin(runID: "r", commandLine: ["layout-bench"], directory: "/")
        metadata.machine.activeCores = 2
        for load in [9.3e16, 1e17, 1e300, Double.greatestFiniteMagnitude, 2.73] {
            metadata.load.start = [load, 1, 1]
            let result = ResultSet(samplesPath: "samples.csv", series: [:], commits: [], metadata: metadata)
            let warnings = RunCompatibility.warnings(base: result, head: result)
            #expect(warnings.contains { $0.hasPrefix("base ran on a busy machine (load average ") }, "\(load): \(warnings)")
        }
        #expect(RunCompatibility.formatted(2.73) == "2.73")
        #expect(RunCompatibility.formatted(9.5) == "9.50")
        #expect(RunCompatibility.formatted(1e17) == "100000000000000000.00")
        #expect(RunCompatibility.formatted(.infinity) == "inf")
    }

    /// The SVG writer formats every coordinate; an offset of 1e19 (or ±1e308) once trapped in its
    /// `Int64` conversion. Whatever the offset, the drawing has no negative or non-finite size.
    @Test func svgAtAnyFiniteOffset() throws {
        let plan = try BenchmarkPlan(scenario: parseScenario(mixedScenario))
        let snapshot = try LayoutSnapshot(plan: plan, mode: RectQueryMode.binary, items: 300)
        for offset in [1e19, -1e19, 9.3e18, 1e308, -1e308, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, 1e13, -1e13] {
            let svg = SVGRenderer.render(snapshot, offset: offset, title: "t")
            #expect(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>\n"), "\(offset)")
            #expect(!svg.contains("nan") && !svg.contains("inf"), "\(offset)")
            #expect(!svg.contains("width=\"-") && !svg.contains("height=\"-"), "\(offset): \(svg.prefix(400))")
        }
        // Within the content the drawing is as before: the band from a viewport above to two below.
        let svg = SVGRenderer.render(snapshot, offset: 1000, title: "t")
        #expect(svg.contains("y 156 to 2688 of "), "\(svg.suffix(300))")
    }

    /// The hidden `--repetition` numbers the repetitions from N: Int.max once overflowed at the
    /// second repetition and left the staging directory behind. Numbers and counts out of range
    /// are refused before anything is created.
    @Test func repetitionNumbersOutOfRangeAreRefusedBeforeAnythingIsMade() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plans = [try plan(mixedScenario, items: [300], quick: true)]
        let refused = [(Int.max, 2), (Int.max, 1), (1_000_000_001, 1), (0, 1), (-5, 2),
                       (1, 1_000_001), (1, 0), (1, -3)]
        for (first, count) in refused {
            #expect(throws: (any Error).self, "--repetition \(first) --repetitions \(count)") {
                _ = try RunSession(
                    plans: plans, quick: true, instructions: false, outDirectory: folder + "/out", repetition: first,
                    repetitions: count, commandLine: ["layout-bench", "run"], executable: CommandLine.arguments[0], progress: { _ in })
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [], "--repetition \(first) --repetitions \(count)")
        }
        // The largest accepted: the first repetition numbered 1e9, a million repetitions (not run).
        let session = try RunSession(
            plans: plans, quick: true, instructions: false, outDirectory: folder + "/out", repetition: 1_000_000_000,
            repetitions: 1_000_000, commandLine: ["layout-bench", "run"], executable: CommandLine.arguments[0], progress: { _ in })
        #expect(session.repetitions == 1_000_000)
    }

    /// The compare table shows medians, ratios and thresholds of any magnitude: a row whose
    /// repetitions spread from 1 µs to 1e300 ns is judged at a threshold of some 1e296, which
    /// once trapped in the `Int` of its percentage; an infinite or NaN one in `log10`.
    @Test func compareTableNumbersOfAnyMagnitude() throws {
        for value in [Double.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18, 9.3e16, Double.greatestFiniteMagnitude] {
            #expect(!ComparisonTable.significant(value).isEmpty)
            #expect(ComparisonTable.percent(value).hasSuffix("%"))
            for unit in ["ns", "bytes", "count", "fraction"] { #expect(!ComparisonTable.format(value, unit: unit).isEmpty) }
        }
        #expect(ComparisonTable.significant(.infinity) == "inf")
        #expect(ComparisonTable.significant(.nan) == "nan")
        #expect(ComparisonTable.percent(1e300) == "1e+302%")
        #expect(ComparisonTable.percent(0.05) == "5%")
        #expect(ComparisonTable.percent(0.005) == "0.500%")

        func rows(_ medians: [Double]) -> [[String]] {
            medians.enumerated().flatMap { repetition, median in
                (1...5).map { sample in
                    ["1", "run", "abc1234", "s", "query", "m", "1000", "query", String(repetition + 1), String(sample), "time", "ns",
                     CSVWriter.format(median * (1 + Double(sample) * 1e-3))]
                }
            }
        }
        let report = try ResultsFixtures.report(rows([1000, 1010, 990]), rows([1000, 1e300, 1e150]))
        let text = ComparisonTable.text(report, showUnchanged: true)
        #expect(text.contains(" s ") && text.contains("%"), "\(text)")
        #expect(!ComparisonTable.csv(report).isEmpty)
    }

    /// What a timed operation returns is a checksum of its work, never a count a conversion may
    /// refuse: a height pass summed the heights and converted the sum to `Int`, which trapped
    /// once a pass reached 9.2e18 pt (here twelve rows of 1e18 pt after a rotation to a width of
    /// 1e9 pt, where the template's height is 1e9 times its width).
    @Test func timedChecksumsOfAnySizeDoNotTrap() throws {
        let text = scenarioJSON(
            viewport: #"{"width": 0.5, "height": 844}"#, layout: #"{"kind": "list"}"#,
            data: #"""
            {"templates": {"wide": {"views": {"a": {}, "b": {}, "c": {}, "box": {}},
                                    "constraints": ["a.width == contentView.width", "b.height == 1000 * a.width",
                                                    "c.height == 1000 * b.height", "box.height == 1000 * c.height",
                                                    "box.top == contentView.top", "contentView.bottom == box.bottom"]}},
             "generate": {"heights": {"distribution": "template", "templates": {"wide": 1}, "minWords": 1, "maxWords": 2}, "seed": 1}}
            """#,
            workload: #"{"kind": "height-pass", "rotatedWidth": 1000000000, "batches": 1, "changes": 1, "scrollFrames": 2, "precacheSteps": 1}"#,
            modes: #"["none"]"#, items: "[12]")
        let scenario = try parseScenario(text)
        let fixture = try HeightPassWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 12)
        let measurement = try fixture.makeMeasurement(mode: .none, verify: false)
        for timed in measurement.operations where [.widthChange, .warmPass, .firstPass].contains(timed.operation) {
            switch timed.work {
            case .batchable(let operation): _ = try operation.run(count: 3)
            case .consuming(let operation):
                try operation.prepareNext()
                _ = try operation.runNext()
            }
        }
    }

    /// Counts a workload multiplies must reach the load-time bounds: a height pass of 100,000
    /// batches of 1,000,000 changes each (both within their own limits) was accepted and would
    /// have generated 1e11 changes, without bound in memory or time.
    @Test func countsThatMultiplyAreBoundedWhenTheFileLoads() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"generate": {"heights": {"distribution": "text", "minWords": 3, "maxWords": 10}, "seed": 1}}"#,
            workload: #"{"kind": "height-pass", "batches": 100000, "changes": 1000000}"#, modes: #"["none"]"#, items: "[1000]")
        // Refused by the first bound it passes, the content height of 1e11 rows (as an append of
        // as many would be).
        expectPlanError({ try plan(text) }, path: "data.generate.heights", " pt at 100000001000 items")
        let fine = try plan(text.replacingOccurrences(of: "\"batches\": 100000, \"changes\": 1000000", with: "\"batches\": 40, \"changes\": 10"))
        #expect(ScenarioFootprint(plan: fine).items == 1000 + 40 * 24)
    }
}
