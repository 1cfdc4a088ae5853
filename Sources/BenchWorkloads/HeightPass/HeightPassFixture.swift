import LayoutEngine
import BenchResults
import BenchScenarios

/// The feed, its batches and its scroll frames at one item count, shared by every mode.
package final class HeightPassFixture: WorkloadFixture {
    package typealias Operation = HeightPassWorkload.Operation
    let workload: HeightPassWorkload
    let scenario: Scenario
    let items: Int
    let feed: FeedTable
    /// The batch trace, each batch with its plan against the data the earlier ones leave.
    let batches: [PlannedBatch]
    /// Per scroll frame, the rows the viewport shows.
    let frames: [[ItemPath]]
    let width: Double
    let rotatedWidth: Double
    /// A new text measurer for one thread of `precache-mt` (nil when no label names a font).
    let makeText: () throws -> (any LabelTextMeasuring)?
    /// The fresh measurements verification compares every mode's cache against, taken once per
    /// row and width for the whole group (`FreshHeights`).
    let freshHeights: FreshHeights

    init(workload: HeightPassWorkload, scenario: Scenario, items: Int, generated: GeneratedItems) throws {
        self.workload = workload
        self.scenario = scenario
        self.items = items
        // Labels with a font: one text measurer without a cache (the height caches are compared,
        // every measurement shapes and breaks its text as a label without a text cache does).
        let templates = generated.templated?.templates ?? []
        let text = try scenario.textMeasurer(for: templates, caching: false)
        makeText = { try scenario.textMeasurer(for: templates, caching: false) }
        var feed = try FeedTable(items: generated, seed: workload.seed, text: text)
        batches = try feed.randomBatches(count: workload.batches, changes: workload.changes)
            .map { PlannedBatch(update: $0.0, plan: $0.1) }
        self.feed = feed
        width = scenario.viewportSize.width
        rotatedWidth = workload.rotatedWidth ?? scenario.viewportSize.height
        // Row tops from fresh heights, then the rows each frame of a scroll trace shows.
        let freshHeights = FreshHeights()
        self.freshHeights = freshHeights
        var tops: [Double] = [], paths: [ItemPath] = []
        var y = 0.0
        for (s, rows) in feed.model.sections.enumerated() {
            for (i, row) in rows.enumerated() {
                tops.append(y)
                paths.append(ItemPath(section: s, item: i))
                let height = feed.registry.freshHeight(of: row.content, reuseIdentifier: row.reuseIdentifier, width: width)
                // What `HeightTable.freshHeight(at:)` gives for a row without a known height.
                if row.knownHeight == nil { freshHeights.record(row, width: width, height: height) }
                y += height
            }
        }
        let trace = ScrollTrace(contentHeight: y, viewportHeight: scenario.viewportSize.height, frames: workload.scrollFrames)
        frames = trace.offsets.map { offset in
            // Rows whose [top, next top) meets [offset, offset + height).
            var low = 0, high = tops.count
            while low < high {
                let mid = (low + high) / 2
                if tops[mid] <= offset { low = mid + 1 } else { high = mid }
            }
            var row = max(0, low - 1), visible: [ItemPath] = []
            while row < tops.count, tops[row] < offset + scenario.viewportSize.height {
                visible.append(paths[row])
                row += 1
            }
            return visible
        }
    }

    package func makeMeasurement(mode: HeightCacheMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        try mode.make(expectedItems: items, portraitWidth: width, MeasurementBuilder(fixture: self, mode: mode, verify: verify))
    }

    /// The rows laid out as a list with the heights the mode returns after the whole batch trace
    /// (FD's wrong heights included), for `dump` and `render`.
    package func snapshot(mode: HeightCacheMode) throws -> LayoutSnapshot {
        try mode.make(expectedItems: items, portraitWidth: width, SnapshotBuilder(fixture: self))
    }

    private struct MeasurementBuilder: HeightCacheBuilder {
        let fixture: HeightPassFixture, mode: HeightCacheMode, verify: Bool
        func build<Cache: HeightCache & UnsharedCopying>(_ makeCache: @escaping () -> Cache) throws -> ModeMeasurement<Operation> {
            try fixture.measurement(mode, verify: verify, makeCache: makeCache)
        }
    }

    private struct SnapshotBuilder: HeightCacheBuilder {
        let fixture: HeightPassFixture
        func build<Cache: HeightCache & UnsharedCopying>(_ makeCache: @escaping () -> Cache) throws -> LayoutSnapshot {
            try fixture.snapshot(makeCache: makeCache)
        }
    }

    /// A table of the feed at the first width with new template cells and a new cache. Inlined
    /// into the timed `first-pass`, which builds it in code specialised for its cache (called
    /// generically, the build allocates more than the operation's own).
    @inline(__always)
    func coldTable<Cache: HeightCache>(_ makeCache: () -> Cache) -> HeightTable<Cache> {
        var registry = feed.registry
        registry.discardTemplateCells()
        return HeightTable(model: feed.model, registry: registry, cache: makeCache(), width: width)
    }

    private func snapshot<Cache: HeightCache>(makeCache: @escaping () -> Cache) throws -> LayoutSnapshot {
        var table = HeightTable(model: feed.model, registry: feed.registry, cache: makeCache(), width: width)
        _ = table.fullPass()
        for batch in batches { try table.perform(batch.update) }
        let model = table.model
        let sections = model.sections.indices.map { s in
            model.sections[s].indices.map { ItemSize(height: table.height(at: ItemPath(section: s, item: $0))) }
        }
        var layout = try SectionedLayout(
            bounds: scenario.viewport, styles: scenario.makeStyles().map(\.unpinned), data: LayoutData(sections: sections))
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }

    private func measurement<Cache: HeightCache & UnsharedCopying>(
        _ mode: HeightCacheMode, verify: Bool, makeCache: @escaping () -> Cache
    ) throws -> ModeMeasurement<Operation> {
        var operations: [TimedOperation<Operation>] = []
        var observations: [Observation<Operation>] = []
        // One start for the mode's operations, timed and verified: a copy of one table is the
        // table it copies (`HeightPassWorkloadTests.aCopiedWarmTableRunsAsAWarmedOne`).
        let start = WarmStart(rotatedWidth: rotatedWidth) { self.coldTable(makeCache) }
        for kind in workload.operations {
            // `precache-mt` once per thread count, as variants; every other operation once.
            let threadCounts = kind == .precacheMT ? workload.threads : [1]
            for threads in threadCounts {
                let variant = kind == .precacheMT ? HeightPassWorkload.variant(threads: threads) : nil
                let baseline = kind == .precacheMT && threads != threadCounts[0] ? HeightPassWorkload.variant(threads: threadCounts[0]) : nil
                let operation = HeightPassOperation(kind: kind, fixture: self, makeCache: makeCache, start: start, threads: threads)
                if verify {
                    let check = HeightPassOperation(kind: kind, fixture: self, makeCache: makeCache, start: start, threads: threads)
                    let result = try check.verify(mode: mode)
                    observations.append(Observation(kind, .measurements, result.measurements, variant: variant))
                    observations.append(Observation(kind, .cellsCreated, result.cellsCreated, variant: variant))
                    if kind == .batchUpdate || kind == .cacheUpdate {
                        observations.append(Observation(kind, .wrongHeights, result.wrongHeights))
                    }
                }
                let work: OperationWork = kind == .warmPass || kind == .scrollPass ? .batchable(operation) : .consuming(operation)
                operations.append(TimedOperation(kind, work, variant: variant, speedupBaseline: baseline))
            }
        }
        return ModeMeasurement(operations: operations, observations: observations)
    }
}

/// A batch of the trace and its plan, in a box: the timed steps borrow them from its `let`s (one
/// retain of the box), where an array of tuples or of plans hands out copies (a retain per array
/// a plan holds, and in unspecialised code a runtime lookup of the tuple's type metadata).
final class PlannedBatch: Sendable {
    let update: BatchUpdate
    let plan: BatchPlan

    init(update: BatchUpdate, plan: BatchPlan) {
        self.update = update
        self.plan = plan
    }
}
