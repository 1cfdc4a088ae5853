import BenchPlatform
import LayoutEngine
import BenchScenarios

extension HeightPassWorkload {
    package enum Operation: String, WorkloadOperation {
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

        package var timed: String {
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

        package var untimed: String {
            switch self {
            case .firstPass: return "discarding the previous table"
            case .warmPass, .scrollPass: return "a copy of the mode's warm table (built once by a full pass)"
            case .batchUpdate, .cacheUpdate: return "a copy of the mode's warm table (or its cache), again when the batches are used up"
            case .widthChange: return "a copy of the mode's warm table at the first width"
            case .widthReturn: return "a copy of the mode's warm table after a further pass at `rotatedWidth` (built once)"
            case .precacheStep: return "the cold table and the `Precache` it starts from (again when the steps are used up)"
            case .precacheMT: return "the cold table, and each thread's template cells made again from its templates (its text measurer made once)"
            }
        }
    }
}

/// One operation of `height-pass` for one cache strategy.
final class HeightPassOperation<Cache: HeightCache & UnsharedCopying>: BatchableOperation, ConsumingOperation {
    typealias Kind = HeightPassWorkload.Operation

    let kind: Kind
    private let fixture: HeightPassFixture
    private let makeCache: () -> Cache
    /// The mode's warm tables, shared by its operations: every run that starts warm starts from a
    /// copy of one of them.
    private let start: WarmStart<Cache>
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

    /// `start`: the mode's warm tables, shared with its other operations (by default its own).
    init(kind: Kind, fixture: HeightPassFixture, makeCache: @escaping () -> Cache, start: WarmStart<Cache>? = nil, threads: Int = 1) {
        self.kind = kind
        self.threads = threads
        self.fixture = fixture
        self.makeCache = makeCache
        self.start = start ?? WarmStart(rotatedWidth: fixture.rotatedWidth) { fixture.coldTable(makeCache) }
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
        fixture.coldTable(makeCache)
    }

    private func warmTable() -> HeightTable<Cache> { start.warmCopy() }

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
            table = start.rotatedCopy()
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
                // Each thread's cached allocation statistics are merged as it finishes, so that
                // `allocs` counts the workers' allocations in the operation that made them, not
                // whenever their thread caches happen to flush.
                parallel = try ParallelPrecache(
                    registry: cold.registry, threads: threads, makeText: fixture.makeText,
                    threadFinished: { AllocationCounters.settleThreadCache() })
            }
            table = cold
        }
    }

    func run(count: Int) throws -> Int { try runPassesStep(self, count) }

    /// Pre-specialised as `run(count:)` was: a generic specialisation of the closure in `init`
    /// alone inlines `HeightTable.fullPass()` here, in a longer loop than the engine's own
    /// specialisation.
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
