import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

/// The multi-core precache against the serial first pass, on seeded random tables of closed-form
/// rows and constraint templates (table-model labels) at random thread and lane counts. Real
/// text (a text measurer per lane) is covered by the harness's `precache-mt` tests.
@Suite("parallel precache")
struct ParallelPrecacheTests {
    /// A feed registry with the closed forms and the same three kinds as constraint templates.
    struct MixedRows {
        var rows = FeedRows()
        let templated: [ReuseIdentifier]

        init() throws {
            var templated: [ReuseIdentifier] = []
            for kind in BuiltInRowKind.allCases {
                templated.append(try rows.registry.register(constraints: kind.template, forReuseIdentifier: "t-" + kind.rawValue))
            }
            self.templated = templated
        }

        /// Random rows, about half on constraint templates, a few with a known height.
        mutating func sections(_ counts: [Int], _ rng: inout SeededRandom) -> [[TableItem]] {
            counts.map { n in
                (0..<n).map { _ in
                    var item = rows.item(&rng)
                    if rng.int(0...1) == 0 { item.reuseIdentifier = rng.pick(templated) }
                    if rng.int(0...19) == 0 { item.knownHeight = Double(rng.int(20...90)) }
                    return item
                }
            }
        }
    }

    static func paths(_ model: TableModel) -> [ItemPath] {
        model.sections.indices.flatMap { s in model.sections[s].indices.map { ItemPath(section: s, item: $0) } }
    }

    /// Every row the precache stores equals the serial first pass's height: bit for bit for
    /// closed-form rows, within 1e-6 pt for constraint templates; and every height equals, bit for
    /// bit, the same precache's on one thread. It measures each unknown row once, counted as a
    /// serial pass counts.
    @Test func equalsTheSerialPass() throws {
        var maxTemplateDifference = 0.0
        for seed in 0..<60 {
            var rng = SeededRandom(seed: UInt64(seed) + 900)
            var mixed = try MixedRows()
            let counts = (0..<rng.int(1...6)).map { _ in rng.int(0...70) }
            let model = try TableModel(sections: mixed.sections(counts, &rng))
            let width = rng.pick([320.0, 390, 700])
            let threads = rng.int(1...8)
            let lanes = rng.int(threads...ParallelPrecache.maxThreads)
            let registry = mixed.rows.registry

            var serial = HeightTable(model: model, registry: registry, cache: KeyedHeightCache(), width: width)
            _ = serial.fullPass()
            var parallel = HeightTable(model: model, registry: registry, cache: KeyedHeightCache(), width: width)
            let precache = try ParallelPrecache(registry: registry, threads: threads, lanes: lanes) { nil }
            let measured = precache.run(&parallel)
            var single = HeightTable(model: model, registry: registry, cache: IndexPathHeightCache(), width: width)
            let one = try ParallelPrecache(registry: registry, threads: 1, lanes: lanes) { nil }
            one.run(&single)

            let unknown = model.sections.joined().filter { $0.knownHeight == nil }.count
            #expect(measured == unknown, "seed \(seed)")
            #expect(parallel.registry.measurements == serial.registry.measurements, "seed \(seed)")
            #expect(parallel.registry.cellsCreated == serial.registry.cellsCreated, "seed \(seed)")
            for path in Self.paths(model) {
                let item = model[path]
                let stored = parallel.cache.peekHeight(id: item.id, at: path)
                guard item.knownHeight == nil else {
                    #expect(stored == nil, "seed \(seed) \(path): a known height is not measured")
                    continue
                }
                guard let stored, let expected = serial.cache.peekHeight(id: item.id, at: path),
                      let oneThread = single.cache.peekHeight(id: item.id, at: path) else {
                    Issue.record("seed \(seed) \(path): no height stored")
                    continue
                }
                #expect(stored.bitPattern == oneThread.bitPattern, "seed \(seed) \(path) on \(threads) threads: \(stored) vs \(oneThread)")
                if registry.isConstraintTemplate(item.reuseIdentifier) {
                    #expect(abs(stored - expected) <= 1e-6, "seed \(seed) \(path): \(stored) vs \(expected)")
                    maxTemplateDifference = max(maxTemplateDifference, abs(stored - expected))
                } else {
                    #expect(stored.bitPattern == expected.bitPattern, "seed \(seed) \(path): \(stored) vs \(expected)")
                }
            }
            // What the table answers afterwards is the stored height, without measuring again.
            let before = parallel.registry.measurements
            _ = parallel.fullPass()
            #expect(parallel.registry.measurements == before)
        }
        #expect(maxTemplateDifference < 1e-9)
    }

    /// Rows the cache already holds are not measured again; the rest are, whatever the order
    /// they were asked in before.
    @Test func measuresOnlyTheRowsTheCacheLacks() throws {
        for seed in 0..<20 {
            var rng = SeededRandom(seed: UInt64(seed) + 77)
            var mixed = try MixedRows()
            let model = try TableModel(sections: mixed.sections([rng.int(1...40), rng.int(0...40), rng.int(1...40)], &rng))
            var table = HeightTable(model: model, registry: mixed.rows.registry, cache: KeyedHeightCache(), width: 390)
            var asked = Set<ItemPath>()
            for path in Self.paths(model) where rng.int(0...2) == 0 {
                _ = table.height(at: path)
                if model[path].knownHeight == nil { asked.insert(path) }
            }
            let before = table.registry.measurements
            let precache = try ParallelPrecache(registry: mixed.rows.registry, threads: rng.int(1...4)) { nil }
            let measured = precache.run(&table)
            let unknown = model.sections.joined().filter { $0.knownHeight == nil }.count
            #expect(measured == unknown - asked.count, "seed \(seed)")
            #expect(table.registry.measurements == before + measured)
            #expect(Set(precache.lastPaths).isDisjoint(with: asked))
            #expect(precache.lastPaths == precache.lastPaths.sorted(), "row order")
            #expect(precache.run(&table) == 0, "a second run finds every row cached")
        }
    }

    /// Thread and lane counts outside their bounds are refused.
    @Test func refusesThreadCountsOutOfBounds() throws {
        let registry = FeedRows().registry
        for (threads, lanes) in [(0, 64), (65, 64), (4, 3), (2, 65)] {
            #expect(throws: ParallelPrecache.SetupError.threads(threads, lanes: lanes)) {
                try ParallelPrecache(registry: registry, threads: threads, lanes: lanes) { nil }
            }
        }
        _ = try ParallelPrecache(registry: registry, threads: ParallelPrecache.maxThreads) { nil }
    }
}
