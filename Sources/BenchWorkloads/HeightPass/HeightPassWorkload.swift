import LayoutEngine
import BenchResults
import BenchScenarios

/// `height-pass`: what a self-sizing table goes through in real use, one timed operation each —
/// the first full pass over every row (`first-pass`, cold cache, template cells created), a full
/// pass with a warm cache (`warm-pass`), the visible rows of each frame of a scroll trace
/// (`scroll-pass`), seeded random batch updates applied to data and cache (`batch-update`) and to
/// the cache alone (`cache-update`), a width change (`width-change`: rotate, then a full pass) and
/// a return to the old width (`width-return`), one precache step (`precache-step`; its worst
/// step is the summary's `max`), and, when a scenario lists it, every row measured ahead on
/// several threads (`precache-mt`, once per count of `threads`). Modes are the height caches.
///
/// A precache step measures `precacheRows` rows (a short idle slice's worth), so that time and
/// instructions describe the same rows: the engine's wall-clock budget (`Precache.step(_:budget:clock:)`)
/// covers fewer rows under callgrind, which runs about 50 times slower. A scenario may ask for the
/// wall-clock budget instead (`precacheBudgetMicroseconds`): faithful to an app, but then the
/// instruction counts describe other rows than the times.
///
/// Every mode is verified after every step: each height it holds equals a fresh measurement.
/// `fd-index-path` is wrong by design after some batches; its wrong rows are reported per batch
/// as the `wrong_heights` metric. `measurements` and `cells_created` per operation come from the
/// verification runs.
public struct HeightPassWorkload: Workload {
    public typealias Mode = HeightCacheMode
    public enum Operation: String, WorkloadOperation {
        /// Every row asked once on a cold table (template cells created, every row measured).
        case firstPass = "first-pass"
        /// Every row asked again with a warm cache.
        case warmPass = "warm-pass"
        /// The rows one frame of a scroll trace shows, asked again.
        case scrollPass = "scroll-pass"
        /// One seeded random batch applied to the data and the cache (checked first).
        case batchUpdate = "batch-update"
        /// The same batch applied to the cache alone, its plan made beforehand.
        case cacheUpdate = "cache-update"
        /// The width changes (a rotation), then every row is asked.
        case widthChange = "width-change"
        /// The width returns to the first one, then every row is asked.
        case widthReturn = "width-return"
        /// One precache step (a fixed number of rows, or a wall-clock budget), from the middle row outward.
        case precacheStep = "precache-step"
        /// Every row measured ahead on `threads` threads and stored into the cold cache in row order
        /// (`ParallelPrecache`); timed once per thread count, named `precache-mt-<n>t`.
        case precacheMT = "precache-mt"

        public var timed: String {
            switch self {
            case .firstPass: return "one pass asking every row's height on a cold table: template cells created, every row measured"
            case .warmPass: return "one pass asking every row's height again, the cache warm"
            case .scrollPass:
                return "the rows one frame of the scroll trace shows, asked again, frame after frame, wrapping at its end; "
                    + "a sample is a batch of consecutive frames, divided"
            case .batchUpdate: return "one seeded random batch (`changes` changes) applied to the data and the cache, in order"
            case .cacheUpdate: return "the same batch applied to the cache alone, its plan made beforehand"
            case .widthChange: return "the width changed (to `rotatedWidth`, a rotation), then every row asked"
            case .widthReturn: return "the width back to the first one, then every row asked"
            case .precacheStep:
                return "one precache step: `precacheRows` rows (default 400) of the walk outward from the middle row, so that "
                    + "instructions (callgrind runs about 50x slower) count the same rows as time; `precacheBudgetMicroseconds` "
                    + "instead keeps the engine's wall-clock budget, faithful to an app but then instructions and time cover different rows"
            case .precacheMT:
                return "every row of a cold table measured on n threads (each with its own template cells and text measurer, "
                    + "rows in round-robin chunks) and stored into the cache in row order; timed for each n of `threads` as "
                    + "`precache-mt-<n>t`, with `speedup` against the first count; under --instructions, instructions are summed over the threads"
            }
        }

        public var untimed: String {
            switch self {
            case .firstPass: return "discarding the previous table"
            case .warmPass, .scrollPass: return "the warm table, built once by a full pass"
            case .batchUpdate, .cacheUpdate: return "the warm table (or its cache) it starts from, again when the batches are used up"
            case .widthChange: return "a warm table at the first width"
            case .widthReturn: return "a warm table at the first width that has also been through a pass at `rotatedWidth`"
            case .precacheStep: return "the cold table and the `Precache` it starts from (again when the steps are used up)"
            case .precacheMT: return "the cold table, and each thread's template cells made again from its templates (its text measurer made once)"
            }
        }
    }

    public static let kind = "height-pass"
    public static let about = "row heights through full passes, scrolling, batch updates, a width change and a return, and precache"

    public static let scrollFramesKey = WorkloadKey(
        "scrollFrames", .integer, default: .integer(120), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (`scroll-pass`)")
    public static let batchesKey = WorkloadKey(
        "batches", .integer, default: .integer(40), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "random batch updates in one trace (`batch-update`, `cache-update`)")
    public static let changesKey = WorkloadKey(
        "changes", .integer, default: .integer(10), bound: .between(1, Double(ScenarioLimits.maxBatch)),
        about: "item changes (deletes, reloads, moves, inserts) in one batch; every 8th batch deletes and inserts two sections instead")
    public static let rotatedWidthKey = WorkloadKey(
        "rotatedWidth", .number, default: .described("the viewport's height (a rotation)"), bound: .between(1, ScenarioLimits.maxSize),
        about: "the table's width after `width-change`")
    public static let precacheRowsKey = WorkloadKey(
        "precacheRows", .integer, default: .integer(PrecacheBudget.defaultRows), bound: .between(1, Double(ScenarioLimits.maxBatch)),
        about: "rows one precache step measures (the same rows under callgrind as in time)")
    public static let precacheBudgetKey = WorkloadKey(
        "precacheBudgetMicroseconds", .integer, default: .described("none: `precacheRows` applies"), bound: .between(1, 10_000_000),
        about: "instead of `precacheRows`: the wall-clock budget of one precache step, as the engine's precache takes it in an app")
    public static let precacheStepsKey = WorkloadKey(
        "precacheSteps", .integer, default: .integer(10), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "precache steps in one trace (then it starts again from a cold table)")
    public static let threadsKey = WorkloadKey(
        "threads", .integers, default: .described("[1, 2]"), bound: .between(1, Double(ParallelPrecache.maxThreads)), maxCount: 8,
        about: "the thread counts `precache-mt` is timed at, ascending; `speedup` is relative to the first")
    public static let seedKey = WorkloadKey.seed("the rows' texts and the batches")
    /// `precache-mt` runs only where a scenario lists it: it times a whole cold pass once per thread count.
    public static let operationsKey = WorkloadKey(
        "operations", .operations, default: .described("every operation but `precache-mt`, in the listed order"),
        about: "the operations to time, each named once")
    public static let keys = [
        scrollFramesKey, batchesKey, changesKey, rotatedWidthKey, precacheRowsKey, precacheBudgetKey, precacheStepsKey,
        threadsKey, seedKey, operationsKey,
    ]

    public var scrollFrames: Int
    public var batches: Int
    public var changes: Int
    /// The width after the change (default: the viewport's height, a rotation).
    public var rotatedWidth: Double?
    /// What one precache step measures.
    public var precacheBudget: PrecacheBudget
    /// Precache steps in one trace (then it starts again from a cold table).
    public var precacheSteps: Int
    /// The thread counts `precache-mt` is timed at, ascending.
    public var threads: [Int] = [1, 2]
    public var seed: Int
    public var operations: [Operation]

    /// Each operation's CSV name; `precache-mt` once per thread count.
    public var operationNames: [String] {
        operations.flatMap { operation in
            operation == .precacheMT ? threads.map { TimedOperation.name(operation, variant: Self.variant(threads: $0)) } : [operation.rawValue]
        }
    }

    /// The variant name of `precache-mt` on `threads` threads.
    static func variant(threads: Int) -> String { "\(threads)t" }

    public init(spec: JSONReader) throws(ScenarioError) {
        scrollFrames = try spec.int(Self.scrollFramesKey)
        batches = try spec.int(Self.batchesKey)
        changes = try spec.int(Self.changesKey)
        rotatedWidth = try spec.optionalDouble(Self.rotatedWidthKey)
        let rows = try spec.int(Self.precacheRowsKey)
        let budget = Self.precacheBudgetKey.name
        if spec.has(budget) {
            guard !spec.has(Self.precacheRowsKey.name) else {
                throw spec.error(at: budget, "give either precacheRows (the default, the same rows under callgrind) or precacheBudgetMicroseconds, not both")
            }
            precacheBudget = .microseconds(try spec.optionalInt(Self.precacheBudgetKey) ?? 2000)
        } else {
            precacheBudget = .rows(rows)
        }
        precacheSteps = try spec.int(Self.precacheStepsKey)
        let threadsKey = Self.threadsKey
        if let nodes = try spec.optionalArray(threadsKey.name) {
            guard !nodes.isEmpty, nodes.count <= threadsKey.maxCount! else {
                throw spec.error(at: threadsKey.name, "expected \(threadsKey.boundText), got \(nodes.count) entries")
            }
            var list: [Int] = []
            for node in nodes {
                let count = try node.int(threadsKey.bound)
                if let last = list.last, count <= last { throw node.error("expected thread counts in ascending order, each once: \(count) after \(last)") }
                list.append(count)
            }
            threads = list
        }
        seed = try spec.int(Self.seedKey)
        if spec.has(Self.operationsKey.name) {
            operations = try spec.operationList(Self.operationsKey.name, of: Operation.self)
        } else {
            operations = Operation.allCases.filter { $0 != .precacheMT }
        }
        try spec.finish()
    }

    /// Rows are measured from their text: generated text heights, constraint templates
    /// (`"template"`: each row's cell then solves its template's constraints, so the caches sit on
    /// top of a real solve), or explicit items with texts.
    public func validate(_ scenario: Scenario) throws(ScenarioError) {
        let hasTexts: Bool
        switch scenario.data {
        case .generated(let generator):
            switch generator.heights {
            case .text: hasTexts = true
            case .template(let weights, _, _):
                hasTexts = true
                let insets = scenario.layout.section(0).style.insets.horizontal
                for template in weights.compactMap({ scenario.template(named: $0.name) }) {
                    for width in [scenario.viewportSize.width, rotatedWidth ?? scenario.viewportSize.height] {
                        try CellMeasureWorkload.checkSatisfiable(template, rowWidth: width - insets, scenario: scenario)
                    }
                }
            default: hasTexts = false
            }
        case .explicit(let items):
            hasTexts = items.texts != nil
            let insets = scenario.layout.section(0).style.insets.horizontal
            for template in items.templateNames.compactMap({ scenario.template(named: $0) }) {
                for width in [scenario.viewportSize.width, rotatedWidth ?? scenario.viewportSize.height] {
                    try CellMeasureWorkload.checkSatisfiable(template, rowWidth: width - insets, scenario: scenario)
                }
            }
        }
        guard hasTexts else {
            throw ScenarioError(
                file: scenario.file, path: scenario.data.isExplicit ? "data" : "data.generate.heights.distribution",
                message: "the height-pass workload measures rows from their text: expected \"text\" or \"template\"")
        }
    }

    /// The batch trace: at most `changes` rows arrive in a batch (24 in a batch of sections), and
    /// every batch and its plan is kept. `batches` × `changes` is bounded only here.
    public var footprint: WorkloadFootprint {
        WorkloadFootprint(addedItems: batches * Swift.max(changes, 24), addedItemsPath: changes >= batches ? "workload.changes" : "workload.batches")
    }

    public func makeFixture(scenario: Scenario, items: Int) throws -> HeightPassFixture {
        let generated = try scenario.makeItems(items: items)
        guard generated.texts != nil else {
            throw ScenarioError(
                file: scenario.file, path: "data.generate.heights.distribution",
                message: "the height-pass workload measures rows from their text: expected \"text\"")
        }
        return try HeightPassFixture(workload: self, scenario: scenario, items: items, generated: generated)
    }
}

/// The height caches, as a user reads them.
extension HeightCacheMode: WorkloadMode {
    public var about: String {
        switch self {
        case .none: return "no cache: every row is measured by its template cell on every pass"
        case .fdIndexPath:
            return "index-path cache as shipped: portrait and landscape tables, an O(row) build loop on every lookup, "
                + "batch calls applied in call order with its bugs (ascending section deletes, moves as swaps)"
        case .indexPath: return "index-path cache with O(1) lookups that follows batches with UIKit's semantics"
        case .keyed: return "cache by stable item id: a batch is O(changes)"
        case .widthKeyed: return "cache by item id and width: a width change measures again, a return to an earlier width hits"
        }
    }

    public var reproduces: String {
        switch self {
        case .none: return "no cache (a plain self-sizing table)"
        case .fdIndexPath: return "FDTemplateLayoutCell's cacheByIndexPath"
        case .indexPath: return "FDTemplateLayoutCell's idea, with UIKit's batch rules"
        case .keyed: return "FDTemplateLayoutCell's cacheByKey, lpd-tableview-kit"
        case .widthKeyed: return "Listable's SizeKey"
        }
    }

    /// FDTemplateLayoutCell's index-path cache is wrong by design after some batch updates: it
    /// reports its wrong heights.
    public var accuracyMetric: Metric? { isExact ? nil : .wrongHeights }

    /// What the mode keeps per item at most: the table model and the cache, whose keys cost more
    /// than the heights (`ModeFootprintTests`).
    public var bytesPerItem: Double {
        switch self {
        case .none: 160
        case .fdIndexPath: 384
        case .indexPath: 256
        case .keyed: 1024
        case .widthKeyed: 2048
        }
    }
}

/// What one `precache-step` measures: a number of rows (the benchmark's default, the same work
/// under callgrind as in time), or the engine's wall-clock budget (faithful to an app, but under
/// callgrind's slowdown it covers fewer rows than in time).
public enum PrecacheBudget: Sendable, Equatable {
    case rows(Int)
    case microseconds(Int)

    /// Rows per step by default: about what a short idle slice of the main thread measures.
    public static let defaultRows = 400
}

/// The feed, its batches and its scroll frames at one item count, shared by every mode.
public final class HeightPassFixture: WorkloadFixture {
    public typealias Operation = HeightPassWorkload.Operation
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

    public func makeMeasurement(mode: HeightCacheMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        switch mode {
        case .none: return try measurement(mode, verify: verify, makeCache: noCache)
        case .fdIndexPath: return try measurement(mode, verify: verify, makeCache: fdCache)
        case .indexPath: return try measurement(mode, verify: verify, makeCache: indexPathCache)
        case .keyed: return try measurement(mode, verify: verify, makeCache: keyedCache)
        case .widthKeyed: return try measurement(mode, verify: verify, makeCache: widthKeyedCache)
        }
    }

    private func noCache() -> NoHeightCache { NoHeightCache() }
    private func fdCache() -> FDIndexPathHeightCache { FDIndexPathHeightCache(portraitWidth: width) }
    private func indexPathCache() -> IndexPathHeightCache { IndexPathHeightCache() }
    private func keyedCache() -> KeyedHeightCache { KeyedHeightCache(expectedItems: items) }
    private func widthKeyedCache() -> WidthKeyedHeightCache { WidthKeyedHeightCache(expectedItems: items) }

    /// The rows laid out as a list with the heights the mode returns after the whole batch trace
    /// (FD's wrong heights included), for `dump` and `render`.
    public func snapshot(mode: HeightCacheMode) throws -> LayoutSnapshot {
        switch mode {
        case .none: return try snapshot(makeCache: noCache)
        case .fdIndexPath: return try snapshot(makeCache: fdCache)
        case .indexPath: return try snapshot(makeCache: indexPathCache)
        case .keyed: return try snapshot(makeCache: keyedCache)
        case .widthKeyed: return try snapshot(makeCache: widthKeyedCache)
        }
    }

    private func snapshot<Cache: HeightCache>(makeCache: () -> Cache) throws -> LayoutSnapshot {
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

    private func measurement<Cache: HeightCache>(
        _ mode: HeightCacheMode, verify: Bool, makeCache: @escaping () -> Cache
    ) throws -> ModeMeasurement<Operation> {
        var operations: [TimedOperation<Operation>] = []
        var observations: [Observation<Operation>] = []
        for kind in workload.operations {
            // `precache-mt` once per thread count, as variants; every other operation once.
            let threadCounts = kind == .precacheMT ? workload.threads : [1]
            for threads in threadCounts {
                let variant = kind == .precacheMT ? HeightPassWorkload.variant(threads: threads) : nil
                let baseline = kind == .precacheMT && threads != threadCounts[0] ? HeightPassWorkload.variant(threads: threadCounts[0]) : nil
                let operation = HeightPassOperation(kind: kind, fixture: self, makeCache: makeCache, threads: threads)
                if verify {
                    let check = HeightPassOperation(kind: kind, fixture: self, makeCache: makeCache, threads: threads)
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

/// One operation of `height-pass` for one cache strategy.
final class HeightPassOperation<Cache: HeightCache>: BatchableOperation, ConsumingOperation {
    typealias Kind = HeightPassWorkload.Operation

    let kind: Kind
    private let fixture: HeightPassFixture
    private let makeCache: () -> Cache
    private var table: HeightTable<Cache>?
    private var cache: Cache?
    private var precache: Precache?
    /// `precache-mt`: its threads, and their template cells (made once, their cells again per run).
    private let threads: Int
    private var parallel: ParallelPrecache?
    private var step = 0
    /// `runPrepared` and `runPasses`, as compiled for `Cache`. The driver calls `runNext` and
    /// `run(count:)` through the operation protocols, which reach unspecialised generic code,
    /// where every `HeightTable<Cache>?` or `Cache?` asks the runtime for its type metadata (about
    /// 1,400 instructions, more than a 10-change batch itself; `@_specialize` alone still looks up
    /// the metadata it dispatches on); `init` runs where `Cache` is known, so the closures it
    /// stores call the specialised code and the protocol methods only forward to them.
    private let runPreparedStep: (HeightPassOperation) throws -> Int
    private let runPassesStep: (HeightPassOperation, Int) throws -> Int

    init(kind: Kind, fixture: HeightPassFixture, makeCache: @escaping () -> Cache, threads: Int = 1) {
        self.kind = kind
        self.threads = threads
        self.fixture = fixture
        self.makeCache = makeCache
        runPreparedStep = { operation in try operation.runPrepared() }
        runPassesStep = { operation, count in try operation.runPasses(count: count) }
    }

    /// Warm passes: one pass; scrolling: the frames of the trace; batches: the batch trace;
    /// precache: `precacheSteps` steps; the others: one operation from fresh state.
    var traceLength: Int {
        switch kind {
        case .warmPass, .firstPass, .widthChange, .widthReturn, .precacheMT: return 1
        case .scrollPass: return fixture.frames.count
        case .batchUpdate, .cacheUpdate: return fixture.batches.count
        case .precacheStep: return fixture.workload.precacheSteps
        }
    }

    /// Batchable passes keep their warm table and go back to the first frame; consuming
    /// operations start again from fresh state.
    func rewind() {
        step = 0
        if kind == .warmPass || kind == .scrollPass { return }
        table = nil
        cache = nil
        precache = nil
    }

    func prepareNext() throws { try prepareForRun() }

    func runNext() throws -> Int { try runPreparedStep(self) }

    private func runPrepared() throws -> Int {
        switch kind {
        case .firstPass: break
        case .precacheStep: guard table != nil, precache != nil else { throw OperationMisuse.notPrepared }
        case .precacheMT: guard table != nil, parallel != nil else { throw OperationMisuse.notPrepared }
        case .cacheUpdate: guard cache != nil, step < fixture.batches.count else { throw OperationMisuse.notPrepared }
        case .batchUpdate: guard table != nil, step < fixture.batches.count else { throw OperationMisuse.notPrepared }
        default: guard table != nil else { throw OperationMisuse.notPrepared }
        }
        return try runPasses(count: 1)
    }

    private func coldTable() -> HeightTable<Cache> {
        var registry = fixture.feed.registry
        registry.discardTemplateCells()
        return HeightTable(model: fixture.feed.model, registry: registry, cache: makeCache(), width: fixture.width)
    }

    private func warmTable() -> HeightTable<Cache> {
        var table = coldTable()
        _ = table.fullPass()
        table.resetCounters()
        return table
    }

    private func prepareForRun() throws {
        switch kind {
        case .firstPass:
            table = nil
        case .warmPass, .scrollPass:
            if table == nil { table = warmTable() }
        case .batchUpdate:
            if table == nil || step == fixture.batches.count {
                table = nil
                table = warmTable()
                step = 0
            }
        case .cacheUpdate:
            if cache == nil || step == fixture.batches.count {
                cache = nil
                cache = warmTable().cache
                step = 0
            }
        case .widthChange:
            table = nil
            table = warmTable()
        case .widthReturn:
            table = nil
            var warm = warmTable()
            warm.setWidth(fixture.rotatedWidth)
            _ = warm.fullPass()
            warm.resetCounters()
            table = warm
        case .precacheStep:
            if table == nil || precache == nil || precache!.isFinished || step == fixture.workload.precacheSteps {
                step = 0
                table = nil
                let cold = coldTable()
                precache = Precache(table: cold, centre: fixture.items / 2)
                table = cold
            }
        case .precacheMT:
            table = nil
            let cold = coldTable()
            if let parallel {
                try parallel.reset(from: cold.registry)
            } else {
                parallel = try ParallelPrecache(registry: cold.registry, threads: threads, makeText: fixture.makeText)
            }
            table = cold
        }
    }

    func run(count: Int) throws -> Int { try runPassesStep(self, count) }

    /// Pre-specialised as `run(count:)` was: a generic specialisation of the closure in `init`
    /// alone inlines `HeightTable.fullPass()` here, some 2 instructions a row longer than the
    /// engine's own specialisation.
    @_specialize(where Cache == NoHeightCache)
    @_specialize(where Cache == FDIndexPathHeightCache)
    @_specialize(where Cache == IndexPathHeightCache)
    @_specialize(where Cache == KeyedHeightCache)
    @_specialize(where Cache == WidthKeyedHeightCache)
    private func runPasses(count: Int) throws -> Int {
        switch kind {
        case .firstPass:
            var fresh = coldTable()
            let total = fresh.fullPass()
            table = fresh
            return Int(truncatingIfNeeded: total.bitPattern)
        case .warmPass:
            if table == nil { table = warmTable() }
            var total = 0.0
            for _ in 0..<count { total += table!.fullPass() }
            return Int(truncatingIfNeeded: total.bitPattern)
        case .scrollPass:
            // Batchable: the driver calls this without preparing; the table is built once.
            if table == nil { table = warmTable() }
            var total = 0.0
            for _ in 0..<count {
                total += table!.pass(over: fixture.frames[step % fixture.frames.count])
                step += 1
            }
            return Int(truncatingIfNeeded: total.bitPattern)
        case .batchUpdate:
            try table!.perform(fixture.batches[step].update)
            step += 1
            return table!.model.sectionCount
        case .cacheUpdate:
            let batch = fixture.batches[step]
            cache!.apply(batch.update, plan: batch.plan)
            step += 1
            return step
        case .widthChange:
            table!.setWidth(fixture.rotatedWidth)
            return Int(truncatingIfNeeded: table!.fullPass().bitPattern)
        case .widthReturn:
            table!.setWidth(fixture.width)
            return Int(truncatingIfNeeded: table!.fullPass().bitPattern)
        case .precacheStep:
            let result: Precache.StepResult
            switch fixture.workload.precacheBudget {
            case .rows(let rows): result = precache!.step(&table!, rows: rows)
            case .microseconds(let budget): result = precache!.step(&table!, budget: .microseconds(budget), clock: ContinuousClock())
            }
            step += 1
            return result == .finished ? 1 : 0
        case .precacheMT:
            return parallel!.run(&table!)
        }
    }

    struct Verification {
        var measurements: [Double] = []
        var cellsCreated: [Double] = []
        var wrongHeights: [Double] = []
    }

    /// Runs the operation untimed, checking after every run that each height the cache holds
    /// equals a fresh measurement, and counting measurements and template cells per run. An exact
    /// mode that disagrees throws; FD's wrong rows are counted.
    func verify(mode: HeightCacheMode) throws -> Verification {
        var result = Verification()
        let runs: Int
        switch kind {
        case .batchUpdate, .cacheUpdate: runs = fixture.batches.count
        case .scrollPass: runs = fixture.frames.count
        case .precacheStep: runs = fixture.workload.precacheSteps
        // Each run starts from a table built afresh exactly as the last one was (the fixture's
        // rows, new template cells), so a second run would check the same heights from the same
        // state again: a whole pass or three over every row of the feed for nothing.
        case .firstPass, .widthChange, .widthReturn: runs = 1
        // A second pass over the same warm table; `precache-mt` reuses its threads' cells.
        case .warmPass, .precacheMT: runs = 2
        }
        var run = 0
        while run < runs {
            try prepareForRun()
            if kind == .cacheUpdate {
                // Verify the cache alone through a table that holds it: same batches, same plans.
                if step == 0 { table = warmTable() }
                try table!.perform(fixture.batches[step].update)
                step += 1
                result.measurements.append(0)
                result.cellsCreated.append(0)
            } else {
                let before = table.map { ($0.registry.measurements, $0.registry.cellsCreated) } ?? (0, 0)
                _ = try self.runPasses(count: 1)
                let after = (table!.registry.measurements, table!.registry.cellsCreated)
                result.measurements.append(Double(after.0 - before.0))
                result.cellsCreated.append(Double(after.1 - before.1))
            }
            // Scrolling asks a few rows per frame: check those rows each frame, every row at the end.
            let rows = kind == .scrollPass && run + 1 < runs ? fixture.frames[run % fixture.frames.count] : nil
            let wrong = try check(mode: mode, context: "\(kind.rawValue) run \(run + 1)", rows: rows)
            if kind == .precacheMT { try checkSerial(mode: mode, context: "\(kind.rawValue) on \(threads) threads, run \(run + 1)") }
            if kind == .batchUpdate || kind == .cacheUpdate { result.wrongHeights.append(Double(wrong)) }
            run += 1
            if kind == .precacheStep, precache!.isFinished { break }
        }
        // Leave the timed instance's state to its own prepareForRun.
        table = nil
        cache = nil
        precache = nil
        step = 0
        return result
    }

    /// `precache-mt`: every height the threads measured equals, bit for bit, what the same
    /// precache on one thread measures (the heights do not depend on the thread count), and what
    /// the serial first pass measures for that row (a cold table's cells, every row in order):
    /// bit for bit for closed-form rows, within `sameHeight`'s 1e-6 pt for constraint templates,
    /// whose long-lived cells carry the rounding of the rows they measured before.
    private func checkSerial(mode: HeightCacheMode, context: String) throws {
        guard let parallel else { return }
        var serial = coldTable()
        var single = coldTable()
        let one = try ParallelPrecache(registry: single.registry, threads: 1, lanes: parallel.lanes, makeText: fixture.makeText)
        one.run(&single)
        let heights = parallel.lastHeights, expected = one.lastHeights
        guard one.lastPaths == parallel.lastPaths else {
            throw VerificationError(scenario: fixture.scenario.name, mode: mode.rawValue, items: fixture.items,
                                    detail: "\(context): measured other rows than the precache on one thread")
        }
        for (k, path) in parallel.lastPaths.enumerated() {
            let item = serial.model[path]
            let firstPass = serial.registry.height(of: item.content, reuseIdentifier: item.reuseIdentifier, width: serial.width)
            let measured = heights[heights.startIndex + k], oneThread = expected[expected.startIndex + k]
            let closedForm = !serial.registry.isConstraintTemplate(item.reuseIdentifier)
            if measured.bitPattern != oneThread.bitPattern
                || (closedForm ? measured.bitPattern != firstPass.bitPattern : !Self.sameHeight(measured, firstPass)) {
                throw VerificationError(
                    scenario: fixture.scenario.name, mode: mode.rawValue, items: fixture.items,
                    detail: "\(context): row \(path) measured \(measured); on one thread \(oneThread), the serial first pass \(firstPass)")
            }
        }
    }

    /// Whether a cached height is the fresh one: equal for closed-form rows; within 1e-6 pt (the
    /// tolerance of the template checks) for constraint templates, whose fresh measurement is a new
    /// solver whose pivots round differently from the long-lived cell's. NaN (a refused solve) is
    /// never the same.
    static func sameHeight(_ cached: Double, _ fresh: Double) -> Bool {
        cached == fresh || abs(cached - fresh) <= 1e-6
    }

    /// Counts the rows whose cached height differs from a fresh measurement; throws for an exact mode.
    private func check(mode: HeightCacheMode, context: String, rows: [ItemPath]? = nil) throws -> Int {
        guard let table else { return 0 }
        var wrong = 0
        let paths = rows ?? table.model.sections.indices.flatMap { s in
            table.model.sections[s].indices.lazy.map { ItemPath(section: s, item: $0) }
        }
        for path in paths {
            guard let cached = table.cache.peekHeight(id: table.model[path].id, at: path) else { continue }
            // Measurement is deterministic (same row, same width, same height): a row unchanged
            // since any mode's check measured it costs a dictionary lookup, not a text layout.
            let fresh = fixture.freshHeights.height(at: path, in: table)
            if !Self.sameHeight(cached, fresh) {
                if mode.isExact {
                    throw VerificationError(
                        scenario: fixture.scenario.name, mode: mode.rawValue, items: fixture.items,
                        detail: "\(context): row \(path) has cached height \(cached), a fresh measurement gives \(fresh)")
                }
                wrong += 1
            }
        }
        return wrong
    }
}
