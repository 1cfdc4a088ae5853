import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine
import BenchStatistics

private let feedScenario = scenarioJSON(
    layout: #"{"kind": "list", "header": {"height": 28, "pin": "none"}}"#,
    data: #"{"generate": {"sections": 6, "heights": {"distribution": "text", "minWords": 3, "maxWords": 40}, "seed": 4}}"#,
    workload: #"{"kind": "height-pass", "batches": 16, "changes": 6, "scrollFrames": 30, "precacheBudgetMicroseconds": 200}"#,
    modes: #"["none", "fd-index-path", "index-path", "keyed", "width-keyed"]"#,
    items: "[300]")

/// A keyed cache that forgets to invalidate reloaded rows: verification must catch it.
private struct StaleOnReloadCache: HeightCache {
    var heights: [Int: Double] = [:]
    mutating func cachedHeight(id: Int, at path: ItemPath) -> Double? { heights[id] }
    func peekHeight(id: Int, at path: ItemPath) -> Double? { heights[id] }
    mutating func store(_ height: Double, id: Int, at path: ItemPath) { heights[id] = height }
    mutating func apply(_ batch: BatchUpdate, plan: BatchPlan) { for id in plan.removedIDs { heights[id] = nil } }
    mutating func widthChanged(to width: Double) { heights.removeAll() }
    mutating func removeAll(sectionCounts: [Int]) { heights.removeAll() }
}

extension StaleOnReloadCache: UnsharedCopying {
    func unsharedCopy() -> StaleOnReloadCache {
        var copy = heights
        copy.reserveCapacity(heights.capacity)
        return StaleOnReloadCache(heights: copy)
    }
}

@Suite("height-pass workload")
struct HeightPassWorkloadTests {
    typealias Operation = HeightPassWorkload.Operation

    func fixture() throws -> HeightPassFixture {
        let scenario = try plan(feedScenario).scenario
        return try HeightPassWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 300)
    }

    /// The values of one observed metric; a missing or empty series is recorded as a failure, so the
    /// `allSatisfy` checks below cannot pass on nothing.
    func observation(_ m: ModeMeasurement<Operation>, _ operation: Operation, _ metric: Metric,
                     sourceLocation: SourceLocation = #_sourceLocation) -> [Double] {
        let values = m.observations.first { $0.operation == operation && $0.metric == metric }?.values ?? []
        if values.isEmpty { Issue.record("no \(metric.rawValue) observed for \(operation.rawValue)", sourceLocation: sourceLocation) }
        return values
    }

    @Test func everyModeVerifiesAndCountsMeasurements() throws {
        let fixture = try fixture()
        var fdWrong = 0.0
        var model = fixture.feed.model
        for batch in fixture.batches { try model.perform(batch.update) }
        let finalCount = model.itemCount
        for mode in HeightCacheMode.allCases {
            let m = try fixture.makeMeasurement(mode: mode, verify: true)
            #expect(m.operations.map(\.operation) == Operation.allCases.filter { $0 != .precacheMT }, "precache-mt only where listed")
            #expect(observation(m, .firstPass, .measurements).allSatisfy { $0 == 300 }, "\(mode)")
            #expect(observation(m, .firstPass, .cellsCreated).allSatisfy { $0 == 3 }, "\(mode)")
            // An operation that starts from a table built afresh is verified on one run (a second
            // would repeat it from the same state); a warm pass on two, the second on the same table.
            for once in [Operation.firstPass, .widthChange, .widthReturn] {
                #expect(observation(m, once, .measurements).count == 1, "\(mode) \(once)")
            }
            #expect(observation(m, .warmPass, .measurements).count == 2, "\(mode)")
            let warm = observation(m, .warmPass, .measurements)
            #expect(warm.allSatisfy { $0 == (mode == .none ? 300 : 0) }, "\(mode): \(warm)")
            let back = observation(m, .widthReturn, .measurements)
            let hitsOnReturn = mode == .widthKeyed || mode == .fdIndexPath
            #expect(back.allSatisfy { $0 == (hitsOnReturn ? 0 : 300) }, "\(mode): \(back)")
            let wrong = observation(m, .batchUpdate, .wrongHeights)
            #expect(wrong.count == 16)
            if mode.isExact { #expect(wrong.allSatisfy { $0 == 0 }) } else { fdWrong += wrong.reduce(0, +) }
            // Every operation runs after its untimed set-up.
            for timed in m.operations {
                switch timed.work {
                case .batchable(let operation):
                    operation.rewind()
                    _ = try operation.run(count: 2)
                case .consuming(let operation):
                    operation.rewind()
                    for _ in 0..<min(3, operation.traceLength) {
                        try operation.prepareNext()
                        _ = try operation.runNext()
                    }
                }
            }
            // dump and render show the heights the mode returns after the batches.
            let snapshot = try fixture.snapshot(mode: mode)
            #expect(snapshot.frames.itemCount == finalCount)
        }
        #expect(fdWrong > 0, "FD's cache should get rows wrong after section deletes and moves")
    }

    @Test func runsOnTinyTables() throws {
        for items in [1, 7] {
            let text = scenarioJSON(
                layout: #"{"kind": "list"}"#,
                data: #"{"generate": {"sections": 5, "heights": {"distribution": "text", "minWords": 0, "maxWords": 8}, "seed": 2}}"#,
                workload: #"{"kind": "height-pass", "batches": 9, "changes": 3, "scrollFrames": 5, "precacheSteps": 2}"#,
                modes: #"["none", "fd-index-path", "index-path", "keyed", "width-keyed"]"#, items: "[\(items)]")
            try exerciseEveryMode(plan(text), items: items)
        }
    }

    /// A precache step measures `precacheRows` rows, whatever the clock says (so callgrind counts
    /// the rows that time covers); giving both budgets is an error naming the path.
    @Test func precacheStepsMeasureAFixedNumberOfRows() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"generate": {"sections": 6, "heights": {"distribution": "text", "minWords": 3, "maxWords": 40}, "seed": 4}}"#,
            workload: #"{"kind": "height-pass", "precacheRows": 40}"#, modes: #"["none", "keyed"]"#, items: "[300]")
        let scenario = try plan(text).scenario
        let workload = try HeightPassWorkload(spec: scenario.workload.reader())
        #expect(workload.precacheBudget == .rows(40))
        let fixture = try workload.makeFixture(scenario: scenario, items: 300)
        for mode in [HeightCacheMode.none, .keyed] {
            let m = try fixture.makeMeasurement(mode: mode, verify: true)
            #expect(observation(m, .precacheStep, .measurements) == [40, 40, 40, 40, 40, 40, 40, 20], "\(mode)")
        }
        expectPlanError({
            try plan(scenarioJSON(layout: #"{"kind": "list"}"#,
                                  workload: #"{"kind": "height-pass", "precacheRows": 40, "precacheBudgetMicroseconds": 200}"#,
                                  modes: #"["keyed"]"#))
        }, path: "workload.precacheBudgetMicroseconds", "not both")
    }

    @Test func verificationCatchesAStaleCache() throws {
        let fixture = try fixture()
        let operation = HeightPassOperation(kind: .batchUpdate, fixture: fixture) { StaleOnReloadCache() }
        #expect(throws: VerificationError.self) { try operation.verify(mode: .keyed) }
    }

    /// The fresh measurements verification compares against are taken once per row and width for
    /// the whole group (`FreshHeights`): verifying every mode a second time measures no row again,
    /// and a stale cache verified after the others, against the measurements they took, is still
    /// caught.
    @Test func freshMeasurementsAreSharedByTheModes() throws {
        let fixture = try fixture()
        for mode in HeightCacheMode.allCases { _ = try fixture.makeMeasurement(mode: mode, verify: true) }
        let measured = fixture.freshHeights.measured
        #expect(measured > 0)
        for mode in HeightCacheMode.allCases { _ = try fixture.makeMeasurement(mode: mode, verify: true) }
        #expect(fixture.freshHeights.measured == measured, "a row measured again: \(fixture.freshHeights.measured - measured)")
        let operation = HeightPassOperation(kind: .batchUpdate, fixture: fixture) { StaleOnReloadCache() }
        #expect(throws: VerificationError.self) { try operation.verify(mode: .keyed) }
    }

    /// `precache-mt` on real text (a text measurer per lane) and on table-model templates, over
    /// seeded data, languages and thread lists: every variant verifies (its heights bit for bit
    /// those of one thread, and of the serial first pass within 1e-6 pt, and every cached height a
    /// fresh measurement's), measures every row once per run, is named per thread count and is
    /// timed against the first count.
    @Test func precacheOnEveryCoreVerifies() throws {
        var rng = SplitMix64(seed: 32, stream: 4)
        for round in 0..<6 {
            let (family, language) = [("DejaVu Sans", "en"), ("DejaVu Sans", "ru"), ("WenQuanYi Micro Hei", "zh"),
                                      ("WenQuanYi Micro Hei", "mixed"), ("", "syllables"), ("", "en")][round]
            let font = family.isEmpty ? "" : #", "font": {"family": "\#(family)", "size": 15}"#
            // Two labels under each other, as feed-heights-text's title + body rows: the long-lived
            // cell's last bits depend on the rows it measured before, so a precache whose heights
            // depended on the thread count would fail here.
            let card = #"""
            "card": {"views": {"title": {"label": {"text": "text", "lines": 2\#(font)}},
                               "body": {"label": {"text": "detail", "lines": 0\#(font)}}},
                     "constraints": ["title.leading == contentView.leading + 16", "title.trailing == contentView.trailing - 16",
                                     "title.top == contentView.top + 11", "body.leading == title.leading", "body.trailing == title.trailing",
                                     "body.top == title.bottom + 4", "contentView.bottom == body.bottom + 11 @999"]}
            """#
            var threads: [Int] = []
            for count in 1...8 where rng.nextInt(in: 0...3) == 0 || (count == 8 && threads.isEmpty) { threads.append(count) }
            let items = rng.nextInt(in: 1...400)
            let text = scenarioJSON(
                layout: #"{"kind": "list"}"#,
                data: #"{"templates": {"# + card + #"}, "generate": {"sections": 3, "heights": {"distribution": "template", "templates": {"card": 1}, "#
                    + #""minWords": 0, "maxWords": 40}, "seed": \#(round), "language": "\#(language)"}}"#,
                workload: #"{"kind": "height-pass", "operations": ["first-pass", "precache-mt"], "threads": \#(threads)}"#,
                modes: #"["keyed"]"#, items: "[\(items)]")
            let scenario = try plan(text).scenario
            let workload = try HeightPassWorkload(spec: scenario.workload.reader())
            #expect(workload.threads == threads)
            let names = ["first-pass"] + threads.map { "precache-mt-\($0)t" }
            #expect(workload.operationNames == names)
            let fixture = try workload.makeFixture(scenario: scenario, items: items)
            for mode in [HeightCacheMode.keyed, round % 2 == 0 ? .indexPath : .none] {
                let m = try fixture.makeMeasurement(mode: mode, verify: true)
                #expect(m.operations.map(\.name) == names)
                #expect(m.operations.map(\.speedupBaseline) == [nil, nil] + threads.dropFirst().map { _ in "\(threads[0])t" })
                for count in threads {
                    let observed = m.observations.first { $0.name == "precache-mt-\(count)t" && $0.metric == .measurements }?.values
                    #expect(observed == [Double(items), Double(items)], "\(mode) on \(count) threads")
                }
                for timed in m.operations {
                    guard case .consuming(let operation) = timed.work else { Issue.record("\(timed.name) is not consuming"); continue }
                    operation.rewind()
                    try operation.prepareNext()
                    let measured = try operation.runNext()
                    if timed.operation == .precacheMT { #expect(measured == items) }
                }
            }
        }
    }

    /// The suite's `precache-mt` scenarios verify at 300 rows on 1 to 3 threads: their templates'
    /// long-lived cells do carry the rounding of earlier rows (a cell per thread instead of fixed
    /// lanes fails here).
    @Test(arguments: ["feed-heights-precache-mt", "feed-heights-precache-mt-text"])
    func suiteScenariosVerify(name: String) throws {
        let scenario = try BenchmarkPlan(scenario: ScenarioCatalog.locate().load(name)).scenario
        var workload = try HeightPassWorkload(spec: scenario.workload.reader())
        #expect(workload.operations == [.firstPass, .precacheMT] && workload.threads == [1, 2])
        workload.operations = [.precacheMT]
        workload.threads = [1, 2, 3]
        let fixture = try workload.makeFixture(scenario: scenario, items: 300)
        let m = try fixture.makeMeasurement(mode: .keyed, verify: true)
        #expect(m.operations.map(\.name) == ["precache-mt-1t", "precache-mt-2t", "precache-mt-3t"])
    }

    /// Every operation that starts warm starts from an unshared copy of one of its mode's warm
    /// tables (`WarmStart`, `HeightTable.unsharedCopy`): on the copy, a warm pass, the batch trace
    /// and a rotation there and back allocate exactly the bytes they do on a table warmed for
    /// them alone (a copy that still shared an array with the prototype would copy it on its
    /// first write, inside the timed run), and give the same heights, bit for bit; so does a
    /// return from the rotated start. On closed-form rows and on constraint templates, every
    /// cache, two copies in turn. Bytes of this thread: the global allocation count sees the tests
    /// running beside this one.
    @Test(arguments: ["feed-heights", "feed-heights-templates"])
    func aCopiedWarmTableRunsAsAWarmedOne(name: String) throws {
        let scenario = try BenchmarkPlan(scenario: ScenarioCatalog.locate().load(name)).scenario
        let fixture = try HeightPassWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 300)
        let counter = try #require(ThreadAllocationCounter())
        func check<Cache: HeightCache & UnsharedCopying>(_ makeCache: @escaping () -> Cache) throws {
            func warm() -> HeightTable<Cache> {
                var table = fixture.coldTable(makeCache)
                _ = table.fullPass()
                table.resetCounters()
                return table
            }
            /// Bytes and the pass's total (bit pattern) of each step: a warm pass, every batch then a
            /// pass, a rotation and a return.
            func run(_ table: inout HeightTable<Cache>) throws -> [(bytes: UInt64, total: UInt64)] {
                var steps: [(bytes: UInt64, total: UInt64)] = []
                func step(_ body: (inout HeightTable<Cache>) throws -> Double) throws {
                    let before = counter.allocatedBytes()
                    let total = try body(&table)
                    steps.append((counter.allocatedBytes() &- before, total.bitPattern))
                }
                try step { $0.fullPass() }
                for batch in fixture.batches { try step { try $0.perform(batch.update); return Double($0.model.itemCount) } }
                try step { $0.fullPass() }
                try step { $0.setWidth(fixture.rotatedWidth); return $0.fullPass() }
                try step { $0.setWidth(fixture.width); return $0.fullPass() }
                return steps
            }
            func returning(_ table: inout HeightTable<Cache>) -> (bytes: UInt64, total: UInt64) {
                let before = counter.allocatedBytes()
                table.setWidth(fixture.width)
                let total = table.fullPass()
                return (counter.allocatedBytes() &- before, total.bitPattern)
            }
            // Once on a throwaway table first: what the process allocates once (the first batch
            // of a kind of cache) must not land in the steps compared.
            var throwaway = warm()
            _ = try run(&throwaway)
            var alone = warm()
            let expected = try run(&alone)
            var rotatedAlone = warm()
            rotatedAlone.setWidth(fixture.rotatedWidth)
            _ = rotatedAlone.fullPass()
            let expectedReturn = returning(&rotatedAlone)
            let start = WarmStart(rotatedWidth: fixture.rotatedWidth) { fixture.coldTable(makeCache) }
            for _ in 0..<2 {
                var copy = start.warmCopy()
                let steps = try run(&copy)
                #expect(steps.map(\.bytes) == expected.map(\.bytes), "\(Cache.self): bytes per step against a table warmed alone")
                #expect(steps.map(\.total) == expected.map(\.total), "\(Cache.self): totals per step against a table warmed alone")
                var rotated = start.rotatedCopy()
                let back = returning(&rotated)
                #expect(back.bytes == expectedReturn.bytes && back.total == expectedReturn.total,
                        "\(Cache.self): the return allocated \(back.bytes) bytes, warmed alone \(expectedReturn.bytes)")
            }
        }
        try check { NoHeightCache() }
        try check { FDIndexPathHeightCache(portraitWidth: fixture.width) }
        try check { IndexPathHeightCache() }
        try check { KeyedHeightCache(expectedItems: 300) }
        try check { WidthKeyedHeightCache(expectedItems: 300) }
    }

    /// `threads`: 1 to 8 ascending counts, each from 1 to `ParallelPrecache.maxThreads`.
    @Test func threadCountsAreChecked() throws {
        let cases = [("[]", "", "1 to 8 entries"), ("[0]", "[0]", "from 1 to 64"), ("[1, 65]", "[1]", "from 1 to 64"),
                     ("[2, 1]", "[1]", "ascending"), ("[1, 1]", "[1]", "ascending"), ("[1.5]", "[0]", "integer"),
                     (#""all""#, "", "array"), ("[1, 2, 3, 4, 5, 6, 7, 8, 9]", "", "1 to 8 entries")]
        for (value, index, message) in cases {
            expectPlanError({
                try plan(scenarioJSON(layout: #"{"kind": "list"}"#,
                                      data: #"{"generate": {"sections": 2, "heights": {"distribution": "text", "minWords": 1, "maxWords": 5}}}"#,
                                      workload: #"{"kind": "height-pass", "threads": \#(value)}"#, modes: #"["keyed"]"#))
            }, path: "workload.threads" + index, message)
        }
    }

    @Test func textHeightsAreRequired() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list"}"#, workload: #"{"kind": "height-pass"}"#, modes: #"["keyed"]"#, items: "[100]")
        // Refused when the scenario loads, not when a fixture is built.
        expectPlanError({ try plan(text) }, path: "data.generate.heights.distribution", "text")
        expectPlanError({
            try plan(scenarioJSON(layout: #"{"kind": "list"}"#, workload: #"{"kind": "height-pass", "batchez": 3}"#, modes: #"["keyed"]"#))
        }, path: "workload.batchez", "unknown")
        expectPlanError({
            try plan(scenarioJSON(layout: #"{"kind": "list"}"#, workload: #"{"kind": "height-pass"}"#, modes: #"["fd"]"#))
        }, path: "modes[0]", "fd-index-path")
    }
}
