import Testing
import LayoutEngine
import LayoutReference

/// The engine against the reference on thousands of seeded random layouts: `SectionedLayout`'s
/// frames (read both as `LayoutFrames` and through `attributes(for:)`), every exact rect-query
/// mode, and the `full` and `incremental` waterfall updaters after random changes.
@Suite struct DifferentialTests {
    static func prepared(_ random: RandomLayout, queryMode: RectQueryMode = .binary) throws -> SectionedLayout {
        var layout = try SectionedLayout(bounds: random.bounds, styles: random.styles, data: random.data, queryMode: queryMode)
        try layout.prepare()
        return layout
    }

    @Test(arguments: [0..<1500, 1500..<3000] as [Range<UInt64>])
    func sectionedLayoutMatchesTheReference(seeds: Range<UInt64>) throws {
        var compared = 0
        for seed in seeds {
            let random = RandomLayout(seed: seed)
            let layout = try Self.prepared(random)
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            if let mismatch = ReferenceCheck.firstMismatch(of: layout.frames, against: reference) {
                Issue.record("seed \(seed) (\(random)): \(mismatch)")
                continue
            }
            if let mismatch = ReferenceCheck.firstMismatch(of: layout, against: reference, coverage: .whole) {
                Issue.record("seed \(seed) (\(random)) via attributes(for:): \(mismatch)")
                continue
            }
            compared += reference.itemCount
        }
        #expect(compared > 20_000)
    }

    /// Random rects: inside, around and beyond the content, empty ones, and rects whose edges
    /// touch element edges exactly.
    static func rects(_ reference: ReferenceLayout, count: Int, rng: inout SeededRandom) -> [Rect] {
        let height = reference.contentHeight, width = reference.contentWidth
        var rects: [Rect] = []
        let elements = reference.allElements()
        for _ in 0..<count {
            var rect = Rect(
                x: Double.random(in: -20...width, using: &rng), y: Double.random(in: -50...(height + 50), using: &rng),
                width: rng.pick([width, width / 3, 1, 0]), height: rng.pick([600, 100, 1, 0, Double.random(in: 0...300, using: &rng)]))
            if !elements.isEmpty && rng.chance(0.4) {
                let frame = rng.pick(elements).frame
                switch rng.int(0...3) {
                case 0: rect.y = frame.y + frame.height  // touches the element's bottom
                case 1: rect.y = frame.y - rect.height  // touches its top
                case 2: rect.x = frame.x + frame.width; rect.y = frame.y  // touches its right edge
                default: rect.x = frame.x - rect.width; rect.y = frame.y
                }
            }
            rects.append(rect)
        }
        return rects
    }

    @Test(arguments: RectQueryMode.allCases.filter(\.isExact))
    func exactQueriesMatchTheReference(mode: RectQueryMode) throws {
        var answers = 0
        var results: [LayoutAttributes] = []
        for seed in UInt64(0)..<400 {
            let random = RandomLayout(seed: seed &+ 10_000)
            let layout = try Self.prepared(random, queryMode: mode)
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            var rng = SeededRandom(seed: seed)
            for rect in Self.rects(reference, count: 12, rng: &rng) {
                layout.elements(in: rect, into: &results)
                answers += results.count
                if let mismatch = ReferenceCheck.firstMismatch(ofQuery: rect, answer: results, against: reference) {
                    Issue.record("\(mode) seed \(seed) (\(random)): \(mismatch)")
                    break
                }
            }
        }
        #expect(answers > 4_000)
    }

    /// A random valid change for `data` (appends, inserts, removals, height edits, section
    /// inserts and removals), with sizes like `RandomLayout`'s.
    static func change(_ random: RandomLayout, data: LayoutData, rng: inout SeededRandom) -> LayoutChange {
        func items(_ count: Int, section: Int) -> [ItemSize] {
            let style = random.styles[section % random.styles.count]
            return (0..<count).map { _ in
                RandomLayout.item(regionWidth: random.width - style.insets.horizontal, spacing: style.itemSpacing,
                                  exact: random.exact, fullWidthChance: random.fullWidthChance, rng: &rng)
            }
        }
        let sections = data.sectionCount
        guard sections > 0 else { return .insertSection(at: 0, items: items(rng.int(0...20), section: 0)) }
        let s = rng.int(0...(sections - 1))
        let count = data.itemCount(inSection: s)
        switch rng.int(0...99) {
        case 0..<40 where count > 0:
            let height = rng.chance(0.1) ? 0 : RandomLayout.size(0...300, exact: random.exact, rng: &rng)
            return .setHeight(section: s, item: rng.int(0...(count - 1)), height: height)
        case 40..<60:
            return .appendItems(section: s, items: items(rng.chance(0.05) ? 60 : rng.int(1...10), section: s))
        case 60..<75:
            return .insertItems(section: s, at: rng.int(0...count), items: items(rng.int(1...5), section: s))
        case 75..<88 where count > 0:
            let at = rng.int(0...(count - 1))
            return .removeItems(section: s, at: at, count: rng.int(1...min(5, count - at)))
        case 88..<95:
            let at = rng.int(0...sections)
            return .insertSection(at: at, items: items(rng.int(0...20), section: at))
        case 95..<100:
            return .removeSection(at: s)
        default:
            return .appendItems(section: s, items: items(1, section: s))
        }
    }

    @Test(arguments: [WaterfallUpdateMode.full, .incremental])
    func updatersMatchTheReferenceAfterEveryChange(mode: WaterfallUpdateMode) throws {
        var checks = 0
        for seed in UInt64(0)..<400 {
            let random = RandomLayout(seed: seed &+ 20_000, maxItemsPerSection: 25)
            var updater = try mode.makeUpdater(bounds: random.bounds, styles: random.styles, data: random.data)
            var data = random.data
            var rng = SeededRandom(seed: seed &+ 1)
            for step in 0..<15 {
                let change = Self.change(random, data: data, rng: &rng)
                try change.apply(to: &data)
                try updater.apply(change)
                let reference = try ReferenceLayout(data: data, styles: random.styles, viewportWidth: random.width)
                checks += 1
                if let mismatch = ReferenceCheck.firstMismatch(of: updater.frames, against: reference) {
                    Issue.record("\(mode) seed \(seed) step \(step) \(change) (\(random)): \(mismatch)")
                    break
                }
            }
        }
        #expect(checks == 6000)
    }
}
