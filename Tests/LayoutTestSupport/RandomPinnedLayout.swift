import LayoutEngine
import LayoutReference
import PropertyBased

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
