import LayoutEngine

/// A random, valid layout configuration: viewport width, 1–4 styles of every kind, 0–6 sections
/// (sometimes none, sometimes all empty) with random sizes including zeros, flow items wider
/// than the row and exact fits, full-width waterfall items, every justify, align, direction,
/// weights, insets, spacings, headers, footers and backgrounds.
///
/// With `exact` every number is a multiple of 1/4, so every sum is exact and frames must agree
/// to the last bit whatever the order of additions; otherwise numbers are arbitrary doubles and
/// the tolerance does the work.
struct RandomLayout: CustomStringConvertible {
    var width: Double
    var styles: [SectionStyle]
    var data: LayoutData
    var exact: Bool
    var fullWidthChance: Double

    init(seed: UInt64, maxItemsPerSection: Int = 40) {
        var rng = SeededRandom(seed: seed)
        let exact = rng.chance(0.6)
        let width = rng.pick([390, 320, 1024, 100.5, 37])
        let fullWidthChance = rng.pick([0, 0, 0.1, 0.4])
        var styles: [SectionStyle] = []
        let styleCount = rng.int(1...4)
        while styles.count < styleCount { styles.append(Self.style(width: width, exact: exact, rng: &rng)) }
        let sectionCount = rng.chance(0.08) ? 0 : rng.int(1...6)
        var sections: [[ItemSize]] = []
        let allEmpty = rng.chance(0.05)
        for s in 0..<sectionCount {
            let style = styles[s % styles.count]
            let count = allEmpty ? 0 : rng.chance(0.15) ? 0 : rng.chance(0.1) ? rng.int(100...300) : rng.int(1...maxItemsPerSection)
            let regionWidth = width - style.insets.horizontal
            sections.append((0..<count).map { _ in
                Self.item(regionWidth: regionWidth, spacing: style.itemSpacing, exact: exact,
                          fullWidthChance: fullWidthChance, rng: &rng)
            })
        }
        self.exact = exact
        self.width = width
        self.fullWidthChance = fullWidthChance
        self.styles = styles
        self.data = try! LayoutData(sections: sections)
    }

    /// A size in `range`: a multiple of 1/4 when `exact`, else any double.
    static func size(_ range: ClosedRange<Double>, exact: Bool, rng: inout SeededRandom) -> Double {
        let value = Double.random(in: range, using: &rng)
        return exact ? (value * 4).rounded(.down) / 4 : value
    }

    static func style(width: Double, exact: Bool, rng: inout SeededRandom) -> SectionStyle {
        func size(_ range: ClosedRange<Double>) -> Double { Self.size(range, exact: exact, rng: &rng) }
        for _ in 0..<100 {
            var style = SectionStyle()
            let maxInset = width / 3
            style.insets = EdgeInsets(
                top: rng.chance(0.5) ? size(0...30) : 0, left: rng.chance(0.5) ? size(0...maxInset) : 0,
                bottom: rng.chance(0.5) ? size(0...30) : 0, right: rng.chance(0.5) ? size(0...maxInset) : 0)
            style.itemSpacing = rng.chance(0.7) ? size(0...20) : 0
            style.lineSpacing = rng.chance(0.7) ? size(0...20) : 0
            style.headerHeight = rng.chance(0.5) ? size(0.25...60) : 0
            style.footerHeight = rng.chance(0.4) ? size(0.25...40) : 0
            style.background = rng.chance(0.4)
            switch rng.int(0...2) {
            case 0:
                style.kind = .list
            case 1:
                style.kind = .flow(justify: rng.pick(Justify.allCases), align: rng.pick(Align.allCases))
            default:
                let columns = rng.int(1...6)
                let weights: [Double]? = rng.chance(0.3)
                    ? (0..<columns).map { _ in exact ? rng.pick([0.5, 1, 2, 3]) : Double.random(in: 0.1...4, using: &rng) }
                    : nil
                let direction: RenderDirection = rng.chance(0.6) ? .shortestFirst : rng.pick(RenderDirection.allCases)
                style.kind = .waterfall(WaterfallStyle(columns: columns, weights: weights, direction: direction))
            }
            if (try? style.validate(contentWidth: width)) != nil { return style }
        }
        return SectionStyle(kind: .list)
    }

    static func item(regionWidth: Double, spacing: Double, exact: Bool, fullWidthChance: Double, rng: inout SeededRandom) -> ItemSize {
        let height = rng.chance(0.07) ? 0 : size(0...300, exact: exact, rng: &rng)
        let width: Double
        switch rng.int(0...9) {
        case 0: width = 0
        case 1: width = size(regionWidth...(regionWidth * 1.5 + 1), exact: exact, rng: &rng)  // wider than a row
        case 2: width = ((regionWidth - spacing) / 2).rounded(.down)  // two of them fit (almost) exactly
        case 3: width = regionWidth / 4  // exact fits when spacing is 0
        default: width = size(0...(regionWidth / 2), exact: exact, rng: &rng)
        }
        return ItemSize(width: max(width, 0), height: height, spansAllColumns: rng.chance(fullWidthChance))
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: 600) }

    var description: String {
        "width \(width), \(styles.count) styles \(styles.map(\.kind.name)), sections \(data.sectionCount), items \(data.itemCount)"
    }
}
