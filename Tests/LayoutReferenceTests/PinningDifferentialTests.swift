import Testing
import PropertyBased
import LayoutEngine
import LayoutReference

/// A random layout with random pins and a random pinOffset, more sections than `RandomLayout`, and
/// now and then headers taller than their items and footers taller than the viewport.
struct RandomPinnedLayout: CustomStringConvertible, Sendable {
    var width: Double
    var styles: [SectionStyle]
    var data: LayoutData
    var exact: Bool
    var viewportHeight: Double
    var pinOffset: Double

    /// Random pinned layouts that shrink through their genes: up to 30 sections of mostly 0–12
    /// items, now and then a short viewport and a non-zero pinOffset.
    static var generator: Generator<RandomPinnedLayout, some SendableSequenceType> {
        zip(
        LayoutGenes.layout(maxSections: 30, maxItems: 12, maxBulk: 48), LayoutGenes.fraction.optional(valueRate: 0.2),
        LayoutGenes.fraction.optional(valueRate: 0.5)
    ).map(RandomPinnedLayout.init)
    }

    init(_ genes: LayoutGenes.Layout, viewport: Double?, pinOffset: Double?) {
        let random = RandomLayout(genes)
        let exact = random.exact
        func size(_ range: ClosedRange<Double>, _ fraction: Double) -> Double { RandomLayout.size(range, fraction, exact: exact) }
        width = random.width
        self.exact = exact
        data = random.data
        styles = zip(random.styles, genes.styles).map { style, genes in
            var style = style
            style.headerPin = HeaderPin.allCases[genes.headerPin]
            style.footerPin = FooterPin.allCases[genes.footerPin]
            if let tall = genes.tallHeader { style.headerHeight = size(100...400, tall) }
            if let tall = genes.tallFooter { style.footerHeight = size(900...1500, tall) }
            return style
        }
        viewportHeight = viewport.map { size(50...600, $0) } ?? 844
        self.pinOffset = pinOffset.map { size(0...120, $0) } ?? 0
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: viewportHeight) }

    func layout(mode: PinningMode, queryMode: RectQueryMode = .binary) throws -> SectionedLayout {
        var layout = try SectionedLayout(
            bounds: bounds, styles: styles, data: data, queryMode: queryMode, pinOffset: pinOffset, pinningMode: mode)
        try layout.prepare()
        return layout
    }

    /// The offset `genes` describe: anywhere, above the top and past the end, with T exactly on a
    /// section top, a normal header exactly on its push boundary (T' = E - h) or next to it, and B
    /// on a section boundary.
    func offset(_ genes: LayoutGenes.Offset, in reference: ReferenceLayout) -> Double {
        let content = reference.contentHeight
        guard reference.sectionCount > 0 else { return -300 + genes.value * 300 }
        let s = LayoutGenes.index(genes.section, count: reference.sectionCount)
        var stackedAbove = 0.0
        for earlier in 0..<s where styles[earlier % styles.count].headerPin == .stacked {
            stackedAbove += reference.frame(of: .header(section: earlier))?.height ?? 0
        }
        let style = styles[s % styles.count]
        let top = reference.sectionTops[s], bottom = reference.sectionTops[s + 1]
        switch genes.kind {
        case 0: return -300 + genes.value * 300
        case 1: return content - viewportHeight + genes.value * 300
        case 2: return top - pinOffset - (genes.stacked ? stackedAbove : 0)
        case 3:
            let itemsEnd = bottom - style.footerHeight - style.insets.bottom
            return itemsEnd - style.headerHeight - stackedAbove - pinOffset + [0, 0.25, -0.25, 0][genes.nudge]
        case 4:
            let itemsTop = top + style.headerHeight + style.insets.top
            return (genes.stacked ? bottom : itemsTop + style.footerHeight) - viewportHeight
        default: return -100 + genes.value * (content + 200)
        }
    }

    var description: String {
        "viewport \(viewportHeight), pinOffset \(pinOffset), pins \(styles.map { "\($0.headerPin)/\($0.footerPin)" }), "
            + RandomLayout.describe(width: width, exact: exact, styles: styles, data: data)
    }
}

/// Every pinning mode against the reference's direct computation of SPEC §3, at thousands of
/// random offsets (drawn to hit the boundaries) on random section structures; a failure shrinks
/// to a small layout and the one offset that shows it.
@Suite(.shrinking) struct PinningDifferentialTests {
    /// 6 chunks x 60 layouts x up to 40 offsets (20 on average), as a sequence of bounds changes
    /// for each mode: the viewport query, a random rect query and `attributes(for:)` of every
    /// pinnable element.
    @Test(arguments: 0..<6)
    func everyPinningModeMatchesTheReference(chunk: Int) async {
        var results: [LayoutAttributes] = []
        var checked = 0
        let scrolls = zip(LayoutGenes.offset, LayoutGenes.query).array(of: 1...40)
        await checkProperty(count: 60, input: RandomPinnedLayout.generator, scrolls) { random, scrolls in
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let elements = reference.allElements()
            var layouts = try PinningMode.allCases.map { try random.layout(mode: $0) }
            for (offsetGenes, queryGenes) in scrolls {
                let offset = random.offset(offsetGenes, in: reference)
                let rect = DifferentialTests.rect(queryGenes, in: reference, elements: elements)
                let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                let pinnable = reference.pinnableSupplementaries(
                    pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                for m in layouts.indices {
                    if layouts[m].shouldInvalidate(forBoundsChange: viewport) {
                        layouts[m].invalidate(with: layouts[m].invalidationContext(forBoundsChange: viewport))
                    }
                    try layouts[m].prepare()
                    let context = "mode \(layouts[m].pinningMode), offset \(offset)"
                    for query in [viewport, rect] {
                        layouts[m].elements(in: query, into: &results)
                        if let mismatch = ReferenceCheck.firstMismatch(
                            ofPinnedQuery: query, answer: results, against: reference, pinOffset: random.pinOffset,
                            offset: offset, viewportHeight: random.viewportHeight)
                        {
                            Issue.record("\(context): \(mismatch)")
                            return
                        }
                    }
                    for expected in pinnable {
                        let actual = try layouts[m].attributes(for: expected.id)
                        guard ReferenceTolerance.equal(actual.frame, expected.frame) && actual.zIndex == expected.zIndex else {
                            Issue.record("\(context): \(expected.id) at \(actual.frame) z \(actual.zIndex), expected \(expected.frame) z \(expected.zIndex)")
                            return
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 60 * 15 * 3)
    }

    /// Pinned elements are added to the answer of every rect-query mode, for the viewport and for
    /// any other rect (a prefetch band, a rect far from the viewport that stacked headers reach);
    /// for the heuristic one, every pinned element of the viewport is there even when it misses
    /// items.
    @Test(arguments: RectQueryMode.allCases)
    func pinningComposesWithEveryQueryMode(queryMode: RectQueryMode) async {
        var results: [LayoutAttributes] = []
        let scrolls = zip(LayoutGenes.offset, LayoutGenes.query).array(of: 1...12)
        await checkProperty(count: 60, input: RandomPinnedLayout.generator, scrolls) { random, scrolls in
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let elements = reference.allElements()
            var layout = try random.layout(mode: .cached, queryMode: queryMode)
            for (offsetGenes, queryGenes) in scrolls {
                let offset = random.offset(offsetGenes, in: reference)
                let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                layout.invalidate(with: .bounds(viewport))
                try layout.prepare()
                let context = "query \(queryMode), offset \(offset)"
                if queryMode.isExact {
                    for query in [viewport, DifferentialTests.rect(queryGenes, in: reference, elements: elements)] {
                        layout.elements(in: query, into: &results)
                        if let mismatch = ReferenceCheck.firstMismatch(
                            ofPinnedQuery: query, answer: results, against: reference, pinOffset: random.pinOffset,
                            offset: offset, viewportHeight: random.viewportHeight)
                        {
                            Issue.record("\(context): \(mismatch)")
                            return
                        }
                    }
                } else {
                    layout.elements(in: viewport, into: &results)
                    let returned = Set(results.map(\.id))
                    let pinned = reference.pinnableSupplementaries(
                        pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                    for expected in pinned where expected.isPinned && expected.frame.intersects(viewport)
                        && expected.frame.minY > viewport.minY + 1e-6 && expected.frame.maxY < viewport.maxY - 1e-6
                        && !returned.contains(expected.id)
                    {
                        Issue.record("\(expected.id) missing (\(context))")
                        return
                    }
                }
            }
        }
    }
}
