import Testing
import PropertyBased
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Five tables over the same data, one per cache strategy, driven in lockstep.
struct AllCaches {
    var none: HeightTable<NoHeightCache>
    var fd: HeightTable<FDIndexPathHeightCache>
    var indexPath: HeightTable<IndexPathHeightCache>
    var keyed: HeightTable<KeyedHeightCache>
    var widthKeyed: HeightTable<WidthKeyedHeightCache>

    init(model: TableModel, registry: TemplateRegistry, width: Double) {
        none = HeightTable(model: model, registry: registry, cache: NoHeightCache(), width: width)
        fd = HeightTable(model: model, registry: registry, cache: FDIndexPathHeightCache(portraitWidth: width), width: width)
        indexPath = HeightTable(model: model, registry: registry, cache: IndexPathHeightCache(), width: width)
        keyed = HeightTable(model: model, registry: registry, cache: KeyedHeightCache(), width: width)
        widthKeyed = HeightTable(model: model, registry: registry, cache: WidthKeyedHeightCache(), width: width)
    }

    mutating func perform(_ batch: BatchUpdate) throws(BatchError) {
        try none.perform(batch)
        try fd.perform(batch)
        try indexPath.perform(batch)
        try keyed.perform(batch)
        try widthKeyed.perform(batch)
    }

    mutating func setWidth(_ width: Double) {
        none.setWidth(width); fd.setWidth(width); indexPath.setWidth(width); keyed.setWidth(width); widthKeyed.setWidth(width)
    }

    /// Every exact cache against a fresh measurement and the index-path cache against the keyed
    /// one, row by row; returns how many rows FD's cache got wrong.
    mutating func check(_ context: String) -> Int {
        var fdWrong = 0
        for s in 0..<none.model.sectionCount {
            for i in 0..<none.model.itemCount(inSection: s) {
                let path = ItemPath(section: s, item: i)
                let fresh = none.freshHeight(at: path)
                let keyedHeight = keyed.height(at: path)
                #expect(none.height(at: path) == fresh, "\(context): none at \(path)")
                #expect(keyedHeight == fresh, "\(context): keyed at \(path)")
                #expect(indexPath.height(at: path) == keyedHeight, "\(context): index-path at \(path)")
                #expect(widthKeyed.height(at: path) == fresh, "\(context): width-keyed at \(path)")
                if fd.height(at: path) != fresh { fdWrong += 1 }
            }
        }
        return fdWrong
    }
}

@Suite("Height caches and batch updates")
struct HeightCacheTests {
    @Test("RowTemplate: accessory width, body and caption lines, the 44 pt fallback")
    func rowTemplates() {
        let rows = FeedRows()
        let plain = RowTemplate(layout: .title, separatorHeight: 0)
        let text = RowContent(text: "Wide words wrap when the accessory takes room away from the label")
        let narrow = RowTemplate(layout: .title, accessory: .detailDisclosureButton, separatorHeight: 0)
        #expect(narrow.height(of: text, width: 320) == plain.height(of: text, width: 320 - 68))
        #expect(RowAccessory.custom(width: 30).widthTaken == 46)
        #expect(plain.height(of: RowContent(text: ""), width: 320) == 22)  // padding only
        let zeroPadding = RowTemplate(layout: .title, title: TemplateCell(padding: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)))
        #expect(zeroPadding.height(of: RowContent(text: ""), width: 320) == 44.5)  // FD's fallback + separator
        let image = rows.registry.template(for: rows.image)
        let captionless = image.height(of: RowContent(text: ""), width: 390)
        let imageHeight: Double = (390.0 - 40 - 32) / 1.5
        #expect(captionless == 22 + imageHeight + 0.5)
        let titleBody = rows.registry.template(for: rows.titleBody)
        #expect(titleBody.height(of: RowContent(text: "Title", detail: "a body"), width: 390)
                > titleBody.height(of: RowContent(text: "Title"), width: 390))
    }

    @Test("IDHeightTable agrees with a Dictionary: sequential, strided and random ids, removals, growth")
    func idHeightTable() {
        for pattern in 0..<3 {
            var rng = SeededRandom(seed: UInt64(pattern) + 40)
            var table = IDHeightTable(columns: 2)
            var oracle: [Int: [Double]] = [:]
            func id(_ k: Int) -> Int {
                switch pattern {
                case 0: return k
                case 1: return k << 16          // every id collides under an identity hash
                default: return Int(bitPattern: UInt(rng.next()))
                }
            }
            var ids: [Int] = []
            for k in 0..<3000 {
                let key = id(k)
                guard key != Int.min else { continue }
                ids.append(key)
                let column = rng.int(0...1), height = Double(rng.int(1...500))
                table.setHeight(height, of: key, column: column)
                oracle[key, default: [.nan, .nan]][column] = height
                if rng.chance(0.3), let victim = ids.randomElement(using: &rng) {
                    table.remove(victim)
                    oracle[victim] = nil
                }
            }
            #expect(table.count == oracle.count)
            for key in ids {
                for column in 0..<2 {
                    let expected = oracle[key]?[column] ?? .nan
                    let actual = table.height(of: key, column: column)
                    #expect(actual == expected || (actual.isNaN && expected.isNaN), "pattern \(pattern) id \(key)")
                }
            }
        }
    }

    @Test("TemplateRegistry counts measurements and creates one cell per identifier")
    func registryCounters() {
        var rows = FeedRows()
        var rng = SeededRandom(seed: 3)
        let items = (0..<20).map { _ in rows.item(&rng) }
        for item in items { _ = rows.registry.height(of: item.content, reuseIdentifier: item.reuseIdentifier, width: 390) }
        #expect(rows.registry.measurements == 20)
        #expect(rows.registry.cellsCreated == Set(items.map(\.reuseIdentifier)).count)
        #expect(rows.registry.identifier(named: "image") == rows.image)
        #expect(rows.registry.identifier(named: "nope") == nil)
    }

    /// Random batch sequences as shrinkable values: the initial section sizes, a seed for the
    /// initial rows, and per batch a seed for its content, its number of changes, and whether the
    /// table width switches (390 and 600 pt) after it.
    static func batchSequences(maxBatches: Int) -> Generator<([Int], UInt64, [(UInt64, Int, Bool)]), some SendableSequenceType> {
        zip(Gen.int(in: 0...12).array(of: 1...4), Gen.uint64().withoutShrink(),
            zip(Gen.uint64().withoutShrink(), Gen.int(in: 1...6), Gen.bool(0.025)).array(of: 1...maxBatches))
    }

    @Test("Thousands of random batches: every cache returns a fresh measurement; the model follows UIKit's rules", .shrinking)
    func randomBatches() async {
        var fdWrongTotal = 0
        // 20 sequences of 75 batches on average; a failure shrinks to few sections and batches.
        await propertyCheck(count: 20, input: Self.batchSequences(maxBatches: 150)) { input in
            let (counts, seed, batches) = input
            var rng = SeededRandom(seed: seed)
            var rows = FeedRows()
            let sections = rows.sections(counts, &rng)
            var tables = AllCaches(model: try! TableModel(sections: sections), registry: rows.registry, width: 390)
            var generator = RandomBatches(rows: rows)
            fdWrongTotal += tables.check("start")
            for (step, (batchSeed, changes, switchesWidth)) in batches.enumerated() {
                var rng = SeededRandom(seed: batchSeed)
                let before = tables.none.model.sections
                let batch = generator.valid(before, changes: changes, &rng)
                let expected = NaiveBatch.apply(batch, to: before)
                do {
                    try tables.perform(batch)
                } catch {
                    Issue.record("step \(step): a valid batch was refused: \(error)\n\(batch)")
                    return
                }
                #expect(tables.keyed.model.sections.map { $0.map(\.id) } == expected.map { $0.map(\.id) },
                        "step \(step): \(batch)")
                if switchesWidth { tables.setWidth(tables.none.width == 390 ? 600 : 390) }
                fdWrongTotal += tables.check("step \(step)")
                // Lookup by id agrees with a scan.
                var model = tables.keyed.model
                for (s, items) in model.sections.enumerated() {
                    for (i, item) in items.enumerated() where (i + step) % 5 == 0 {
                        #expect(model.path(of: item.id) == ItemPath(section: s, item: i))
                    }
                }
            }
        }
        // FD's cache is wrong somewhere in these batches (its bugs), and only FD's.
        #expect(fdWrongTotal > 0)
    }

    @Test("FD bug: several sections deleted one by one in ascending order keep the wrong sections' heights")
    func fdDeleteSections() throws {
        var rng = SeededRandom(seed: 11)
        var rows = FeedRows()
        let sections = rows.sections([3, 3, 3, 3], &rng)
        var tables = AllCaches(model: try TableModel(sections: sections), registry: rows.registry, width: 390)
        #expect(tables.check("before") == 0)
        var batch = BatchUpdate()
        batch.deleteSections([0, 1])  // UIKit: sections 2 and 3 remain. FD: removes 0, then the old 2.
        try tables.perform(batch)
        #expect(tables.check("after") == 3)   // FD answers new section 1 (old 3) with old section 2's heights
    }

    @Test("FD bug: a move is a swap, so every row in between keeps a neighbour's height")
    func fdMoveSwap() throws {
        var rng = SeededRandom(seed: 12)
        var rows = FeedRows()
        let sections = rows.sections([6], &rng)
        var tables = AllCaches(model: try TableModel(sections: sections), registry: rows.registry, width: 390)
        _ = tables.check("before")
        var batch = BatchUpdate()
        batch.moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 4))
        try tables.perform(batch)
        // Rows 0–3 moved up by one; FD swapped slots 0 and 4 only. Rows whose heights happen to be
        // equal would hide it, so count them.
        let heights = sections[0].map { rows.registry.freshHeight(of: $0.content, reuseIdentifier: $0.reuseIdentifier, width: 390) }
        let expectedWrong = [heights[4] != heights[1], heights[1] != heights[2], heights[2] != heights[3], heights[3] != heights[4], heights[0] != heights[0]]
            .filter { $0 }.count
        #expect(expectedWrong > 0)
        #expect(tables.check("after") == expectedWrong)
    }

    @Test("Invalid batches throw one clear error and change nothing")
    func invalidBatches() throws {
        var rng = SeededRandom(seed: 5)
        var rows = FeedRows()
        let sections = rows.sections([3, 2], &rng)
        var table = HeightTable(model: try TableModel(sections: sections), registry: rows.registry, cache: KeyedHeightCache(), width: 390)
        _ = table.fullPass()
        table.resetCounters()
        let existing = sections[0][0]
        var cases: [(BatchUpdate, String)] = []
        var b = BatchUpdate(); b.deleteSections([2]); cases.append((b, "deletes section 2, but there are 2 sections"))
        b = BatchUpdate(); b.deleteItems([ItemPath(section: 0, item: 3)]); cases.append((b, "section 0 has 3 items before"))
        b = BatchUpdate(); b.insertItem(rows.item(&rng), at: ItemPath(section: 1, item: 3)); cases.append((b, "past the end: section 1 has 3 items after"))
        b = BatchUpdate(); b.insertItem(existing, at: ItemPath(section: 1, item: 0)); cases.append((b, "already in the table"))
        b = BatchUpdate(); b.moveItem(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 0, item: 1)); cases.append((b, "onto itself"))
        b = BatchUpdate(); b.moveSection(1, to: 1); cases.append((b, "moves section 1 onto itself"))
        b = BatchUpdate(); b.insertSection([], at: 3); cases.append((b, "past the end: there are 3 sections after"))
        b = BatchUpdate(); b.deleteSections([0]); b.deleteItems([ItemPath(section: 0, item: 0)]); cases.append((b, "which this batch deletes"))
        b = BatchUpdate(); b.deleteItems([ItemPath(section: 0, item: 0)]); b.deleteItems([ItemPath(section: 0, item: 0)]); cases.append((b, "twice"))
        let fresh = rows.item(&rng)
        b = BatchUpdate(); b.insertItem(fresh, at: ItemPath(section: 0, item: 0)); b.insertItem(fresh, at: ItemPath(section: 0, item: 1))
        cases.append((b, "inserted twice"))
        b = BatchUpdate(); b.insertItem(rows.item(&rng), at: ItemPath(section: 0, item: 0)); b.insertItem(rows.item(&rng), at: ItemPath(section: 0, item: 0))
        cases.append((b, "puts two items at [0, 0]"))
        for (batch, expected) in cases {
            let before = table.model.sections
            do {
                try table.perform(batch)
                Issue.record("accepted an invalid batch: \(batch)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description) should say \(expected)")
            }
            #expect(table.model.sections == before)
            _ = table.fullPass()
            #expect(table.registry.measurements == 0, "the cache changed: \(batch)")
        }
    }

    @Test("A batch costs the keyed cache only the changed rows; width-keyed keeps an earlier width")
    func measurementCounts() throws {
        var rng = SeededRandom(seed: 21)
        var rows = FeedRows()
        let sections = rows.sections([200, 200], &rng)
        var tables = AllCaches(model: try TableModel(sections: sections), registry: rows.registry, width: 390)
        _ = tables.keyed.fullPass(); _ = tables.widthKeyed.fullPass(); _ = tables.indexPath.fullPass()
        tables.keyed.resetCounters(); tables.widthKeyed.resetCounters(); tables.indexPath.resetCounters()
        var batch = BatchUpdate()
        var model = tables.keyed.model
        try model.move(id: sections[0][5].id, to: ItemPath(section: 1, item: 7), in: &batch)
        try model.replace(id: sections[1][0].id, with: RowContent(text: "New"), in: &batch)
        model.insert(rows.item(&rng), at: ItemPath(section: 0, item: 0), in: &batch)
        try model.remove(id: sections[0][9].id, in: &batch)
        try tables.perform(batch)
        _ = tables.keyed.fullPass(); _ = tables.indexPath.fullPass()
        #expect(tables.keyed.registry.measurements == 2)      // the insert and the reload
        #expect(tables.indexPath.registry.measurements == 2)  // the move kept its height
        tables.setWidth(700)
        _ = tables.widthKeyed.fullPass()
        #expect(tables.widthKeyed.registry.measurements == 400)
        tables.setWidth(390)
        tables.widthKeyed.resetCounters()
        _ = tables.widthKeyed.fullPass()
        #expect(tables.widthKeyed.registry.measurements == 2)  // the inserted and reloaded rows, never measured at 390
        _ = tables.check("after widths")
    }

    @Test("Layout changes from a batch bring an incremental layout to a fresh layout's frames", .shrinking)
    func layoutFollowsBatches() async {
        let styles = [
            SectionStyle(kind: .list, lineSpacing: 1),
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)), itemSpacing: 4, lineSpacing: 4),
        ]
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        func data(_ table: inout HeightTable<KeyedHeightCache>) -> LayoutData {
            let model = table.model
            return try! LayoutData(sections: model.sections.indices.map { s in
                model.sections[s].indices.map { ItemSize(height: table.height(at: ItemPath(section: s, item: $0))) }
            })
        }
        // 6 sequences of 60 batches on average (the width never changes here).
        await propertyCheck(count: 6, input: Self.batchSequences(maxBatches: 120)) { input in
            let (counts, seed, batches) = input
            var rng = SeededRandom(seed: seed)
            var rows = FeedRows()
            let sections = rows.sections(counts, &rng)
            var table = HeightTable(model: try! TableModel(sections: sections), registry: rows.registry, cache: KeyedHeightCache(), width: 390)
            var generator = RandomBatches(rows: rows)
            do {
                var updater = try IncrementalWaterfallUpdater(bounds: bounds, styles: styles, data: data(&table))
                for (step, (batchSeed, changes, _)) in batches.enumerated() {
                    var rng = SeededRandom(seed: batchSeed)
                    let batch = generator.valid(table.model.sections, changes: changes, &rng)
                    let plan = try table.perform(batch)
                    for change in table.layoutChanges(for: plan) {
                        try updater.apply(change)
                        // List sections (even) place only inserted or resized rows; the rest shifts.
                        switch change {
                        case .insertItems(let s, _, let items) where s % 2 == 0: #expect(updater.lastRecomputedItemCount == items.count)
                        case .removeItems(let s, _, _) where s % 2 == 0: #expect(updater.lastRecomputedItemCount == 0)
                        case .reloadItems(let s, _, _) where s % 2 == 0: #expect(updater.lastRecomputedItemCount <= 1)
                        default: break
                        }
                    }
                    let reference = try FullRecomputeUpdater(bounds: bounds, styles: styles, data: data(&table))
                    if let difference = updater.frames.firstDifference(from: reference.frames) {
                        Issue.record("step \(step): \(difference) after \(batch)")
                        return
                    }
                }
            } catch {
                Issue.record(error)  // propertyCheck ignores errors thrown from its body
            }
        }
    }

    @Test("Precache: nearest rows first, bounded steps, cancelled by a change")
    func precache() throws {
        var rng = SeededRandom(seed: 8)
        var rows = FeedRows()
        let sections = rows.sections([30, 30, 40], &rng)
        var table = HeightTable(model: try TableModel(sections: sections), registry: rows.registry, cache: KeyedHeightCache(), width: 390)
        var precache = Precache(table: table, centre: 45)
        #expect(precache.step(&table, rows: 5) == .paused)
        #expect(table.registry.measurements == 5)
        // The five nearest rows: 45, 46, 44, 47, 43 (global), in sections 1 (30..<60).
        table.resetCounters()
        for item in 13...17 { _ = table.height(at: ItemPath(section: 1, item: item)) }
        #expect(table.registry.measurements == 0)
        var result = Precache.StepResult.paused
        while result == .paused { result = precache.step(&table, budget: .milliseconds(1), clock: ContinuousClock()) }
        #expect(result == .finished)
        table.resetCounters()
        _ = table.fullPass()
        #expect(table.registry.measurements == 0)
        var fresh = Precache(table: table, centre: 0)
        var batch = BatchUpdate()
        batch.deleteItems([ItemPath(section: 0, item: 0)])
        try table.perform(batch)
        #expect(fresh.step(&table, rows: 10) == .cancelled)
    }
}
