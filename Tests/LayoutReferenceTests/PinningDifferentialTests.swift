import Testing
import LayoutEngine
import LayoutReference

/// A random layout with random pins and a random pinOffset, more sections than `RandomLayout`, and
/// now and then headers taller than their items and footers taller than the viewport.
struct RandomPinnedLayout: CustomStringConvertible {
    var width: Double
    var styles: [SectionStyle]
    var data: LayoutData
    var viewportHeight: Double
    var pinOffset: Double

    init(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let exact = rng.chance(0.6)
        func size(_ range: ClosedRange<Double>) -> Double { RandomLayout.size(range, exact: exact, rng: &rng) }
        let width = rng.pick([390, 320, 1024, 100.5])
        self.width = width
        var styles: [SectionStyle] = []
        for _ in 0..<rng.int(1...4) {
            var style = RandomLayout.style(width: width, exact: exact, rng: &rng)
            style.headerPin = rng.pick(HeaderPin.allCases)
            style.footerPin = rng.pick(FooterPin.allCases)
            if rng.chance(0.15) { style.headerHeight = size(100...400) }
            if rng.chance(0.1) { style.footerHeight = size(900...1500) }
            styles.append(style)
        }
        self.styles = styles
        let sectionCount = rng.chance(0.03) ? 0 : rng.int(1...30)
        var sections: [[ItemSize]] = []
        for s in 0..<sectionCount {
            let style = styles[s % styles.count]
            let count = rng.chance(0.2) ? 0 : rng.chance(0.2) ? 1 : rng.chance(0.9) ? rng.int(2...12) : rng.int(13...60)
            sections.append((0..<count).map { _ in
                RandomLayout.item(regionWidth: width - style.insets.horizontal, spacing: style.itemSpacing, exact: exact,
                                  fullWidthChance: 0.1, rng: &rng)
            })
        }
        data = try! LayoutData(sections: sections)
        viewportHeight = rng.chance(0.8) ? 844 : size(50...600)
        pinOffset = rng.chance(0.5) ? 0 : size(0...120)
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: viewportHeight) }

    func layout(mode: PinningMode, queryMode: RectQueryMode = .binary) throws -> SectionedLayout {
        var layout = try SectionedLayout(
            bounds: bounds, styles: styles, data: data, queryMode: queryMode, pinOffset: pinOffset, pinningMode: mode)
        try layout.prepare()
        return layout
    }

    /// Offsets anywhere, above the top and past the end, with T exactly on a section top, a normal
    /// header exactly on its push boundary (T' = E - h) or next to it, and B on a section boundary.
    func offsets(_ reference: ReferenceLayout, count: Int, rng: inout SeededRandom) -> [Double] {
        let content = reference.contentHeight
        var stackedAbove: [Double] = [], stacked = 0.0
        for s in 0..<reference.sectionCount {
            stackedAbove.append(stacked)
            if styles[s % styles.count].headerPin == .stacked { stacked += reference.frame(of: .header(section: s))?.height ?? 0 }
        }
        var offsets: [Double] = []
        for _ in 0..<count {
            let s = reference.sectionCount == 0 ? 0 : rng.int(0...(reference.sectionCount - 1))
            let style = styles[s % styles.count]
            let top = reference.sectionTops[s], bottom = reference.sectionTops[reference.sectionCount == 0 ? 0 : s + 1]
            switch reference.sectionCount == 0 ? 0 : rng.int(0...7) {
            case 0: offsets.append(Double.random(in: -300...0, using: &rng))
            case 1: offsets.append(content - viewportHeight + Double.random(in: 0...300, using: &rng))
            case 2: offsets.append(top - pinOffset - (rng.chance(0.5) ? stackedAbove[s] : 0))
            case 3:
                let itemsEnd = bottom - style.footerHeight - style.insets.bottom
                offsets.append(itemsEnd - style.headerHeight - stackedAbove[s] - pinOffset + rng.pick([0, 0, 0.25, -0.25]))
            case 4:
                let itemsTop = top + style.headerHeight + style.insets.top
                offsets.append((rng.chance(0.5) ? bottom : itemsTop + style.footerHeight) - viewportHeight)
            default: offsets.append(Double.random(in: -100...(content + 100), using: &rng))
            }
        }
        return offsets
    }

    var description: String {
        "width \(width), viewport \(viewportHeight), pinOffset \(pinOffset), pins \(styles.map { "\($0.headerPin)/\($0.footerPin)" }), sections \(data.sectionCount)"
    }
}

/// Every pinning mode against the reference's direct computation of SPEC §3, at thousands of
/// seeded random offsets (drawn to hit the boundaries) on random section structures.
@Suite struct PinningDifferentialTests {
    /// 6 chunks x 60 layouts x 20 offsets, as a sequence of bounds changes for each mode: the
    /// viewport query, a random rect query and `attributes(for:)` of every pinnable element.
    @Test(arguments: 0..<6)
    func everyPinningModeMatchesTheReference(chunk: Int) throws {
        var results: [LayoutAttributes] = []
        var checked = 0
        for index in 0..<60 {
            let seed = UInt64(90_000 + chunk * 1_000 + index)
            let random = RandomPinnedLayout(seed: seed)
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            var layouts = try PinningMode.allCases.map { try random.layout(mode: $0) }
            var rng = SeededRandom(seed: seed)
            let offsets = random.offsets(reference, count: 20, rng: &rng)
            let rects = DifferentialTests.rects(reference, count: offsets.count, rng: &rng)
            for (offset, rect) in zip(offsets, rects) {
                let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                let pinnable = reference.pinnableSupplementaries(
                    pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                for m in layouts.indices {
                    if layouts[m].shouldInvalidate(forBoundsChange: viewport) {
                        layouts[m].invalidate(with: layouts[m].invalidationContext(forBoundsChange: viewport))
                    }
                    try layouts[m].prepare()
                    let context = "seed \(seed) (\(random)), mode \(layouts[m].pinningMode)"
                    for query in [viewport, rect] {
                        layouts[m].elements(in: query, into: &results)
                        if let mismatch = ReferenceCheck.firstMismatch(
                            ofPinnedQuery: query, answer: results, against: reference, pinOffset: random.pinOffset,
                            offset: offset, viewportHeight: random.viewportHeight)
                        {
                            Issue.record("\(context): \(mismatch)")
                        }
                    }
                    for expected in pinnable {
                        let actual = try layouts[m].attributes(for: expected.id)
                        #expect(ReferenceTolerance.equal(actual.frame, expected.frame) && actual.zIndex == expected.zIndex,
                                "\(context): \(expected.id) at offset \(offset): \(actual.frame), expected \(expected.frame)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 60 * 20 * 3)
    }

    /// Pinned elements are added to the answer of every rect-query mode; for the heuristic one,
    /// every pinned element of the viewport is there even when it misses items.
    @Test(arguments: RectQueryMode.allCases)
    func pinningComposesWithEveryQueryMode(queryMode: RectQueryMode) throws {
        var results: [LayoutAttributes] = []
        for seed in UInt64(0)..<60 {
            let random = RandomPinnedLayout(seed: 55_000 + seed)
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            var layout = try random.layout(mode: .cached, queryMode: queryMode)
            var rng = SeededRandom(seed: seed)
            for offset in random.offsets(reference, count: 6, rng: &rng) {
                let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                layout.invalidate(with: .bounds(viewport))
                try layout.prepare()
                layout.elements(in: viewport, into: &results)
                let context = "seed \(seed) (\(random)), query \(queryMode), offset \(offset)"
                if queryMode.isExact {
                    if let mismatch = ReferenceCheck.firstMismatch(
                        ofPinnedQuery: viewport, answer: results, against: reference, pinOffset: random.pinOffset,
                        offset: offset, viewportHeight: random.viewportHeight)
                    {
                        Issue.record("\(context): \(mismatch)")
                    }
                } else {
                    let returned = Set(results.map(\.id))
                    let pinned = reference.pinnableSupplementaries(
                        pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                    for expected in pinned where expected.isPinned && expected.frame.intersects(viewport)
                        && expected.frame.minY > viewport.minY + 1e-6 && expected.frame.maxY < viewport.maxY - 1e-6
                    {
                        #expect(returned.contains(expected.id), "\(expected.id) (\(context))")
                    }
                }
            }
        }
    }
}
