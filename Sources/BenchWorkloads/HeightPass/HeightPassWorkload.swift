import LayoutEngine
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
package struct HeightPassWorkload: Workload {
    package typealias Mode = HeightCacheMode
    package static let kind = "height-pass"
    package static let about = "row heights through full passes, scrolling, batch updates, a width change and a return, and precache"

    package var scrollFrames: Int
    package var batches: Int
    package var changes: Int
    /// The width after the change (default: the viewport's height, a rotation).
    package var rotatedWidth: Double?
    /// What one precache step measures.
    package var precacheBudget: PrecacheBudget
    /// Precache steps in one trace (then it starts again from a cold table).
    package var precacheSteps: Int
    /// The thread counts `precache-mt` is timed at, ascending.
    package var threads: [Int] = [1, 2]
    package var seed: Int
    package var operations: [Operation]

    /// Each operation's CSV name; `precache-mt` once per thread count.
    package var operationNames: [String] {
        operations.flatMap { operation in
            operation == .precacheMT ? threads.map { TimedOperation.name(operation, variant: Self.variant(threads: $0)) } : [operation.rawValue]
        }
    }

    /// The variant name of `precache-mt` on `threads` threads.
    static func variant(threads: Int) -> String { "\(threads)t" }

    package init(spec: JSONReader) throws(ScenarioError) {
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
    package func validate(_ scenario: Scenario) throws(ScenarioError) {
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
    package var footprint: WorkloadFootprint {
        WorkloadFootprint(addedItems: batches * Swift.max(changes, 24), addedItemsPath: changes >= batches ? "workload.changes" : "workload.batches")
    }

    package func makeFixture(scenario: Scenario, items: Int) throws -> HeightPassFixture {
        let generated = try scenario.makeItems(items: items)
        guard generated.texts != nil else {
            throw ScenarioError(
                file: scenario.file, path: "data.generate.heights.distribution",
                message: "the height-pass workload measures rows from their text: expected \"text\"")
        }
        return try HeightPassFixture(workload: self, scenario: scenario, items: items, generated: generated)
    }
}
