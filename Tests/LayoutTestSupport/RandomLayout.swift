import LayoutEngine
import PropertyBased

/// A random, valid layout configuration built from `LayoutGenes.Layout`: viewport width, 1–4
/// styles of every kind, 0–6 sections (sometimes none, sometimes all empty) with random sizes
/// including zeros, flow items wider than the row and exact fits, full-width waterfall items,
/// every justify, align, direction, weights, insets, spacings, headers, footers and backgrounds.
///
/// With `exact` every number is a multiple of 1/4, so every sum is exact and frames must agree
/// to the last bit whatever the order of additions; otherwise numbers are arbitrary doubles and
/// the tolerance does the work.
struct RandomLayout: CustomStringConvertible, Sendable {
    static let widths: [Double] = [390, 320, 1024, 100.5, 37]
    static let fullWidthChances = [0, 0, 0.1, 0.4]

    var width: Double
    var styles: [SectionStyle]
    var data: LayoutData
    var exact: Bool
    var fullWidthChance: Double

    /// Random layouts that shrink through their genes.
    static func generator(maxItems: Int = 40) -> Generator<RandomLayout, some SendableSequenceType> {
        LayoutGenes.layout(maxItems: maxItems).map(RandomLayout.init)
    }

    init(_ genes: LayoutGenes.Layout) {
        exact = !genes.arbitrary
        width = Self.widths[genes.widthChoice]
        fullWidthChance = Self.fullWidthChances[genes.fullWidthChoice]
        let (exact, width, fullWidthChance) = (exact, width, fullWidthChance)
        styles = genes.styles.map { Self.style($0, width: width, exact: exact) }
        var sections: [[ItemSize]] = []
        for (s, section) in genes.sections.enumerated() {
            let style = styles[s % styles.count]
            let regionWidth = width - style.insets.horizontal
            func item(_ genes: LayoutGenes.Item) -> ItemSize {
                Self.item(genes, regionWidth: regionWidth, spacing: style.itemSpacing, exact: exact, fullWidthChance: fullWidthChance)
            }
            var items: [ItemSize] = []
            if !genes.allEmpty && section.shape >= 3 {
                items = section.items.map(item)
                if section.shape <= 4 {
                    var rng = SeededRandom(seed: section.bulkSeed)
                    for _ in 0..<section.bulkCount {
                        let genes = LayoutGenes.Item(
                            zeroHeight: rng.chance(0.07), height: rng.fraction(), widthKind: rng.int(0...9),
                            width: rng.fraction(), spanRoll: rng.fraction())
                        items.append(item(genes))
                    }
                }
            }
            sections.append(items)
        }
        data = try! LayoutData(sections: sections)
    }

    /// `lower + fraction × (upper - lower)`: a multiple of 1/4 when `exact`, else any double.
    static func size(_ range: ClosedRange<Double>, _ fraction: Double, exact: Bool) -> Double {
        let value = range.lowerBound + fraction * (range.upperBound - range.lowerBound)
        return exact ? (value * 4).rounded(.down) / 4 : value
    }

    /// The style the genes describe, made valid for `width`: a waterfall whose gaps leave no room
    /// for its columns loses its item spacing (the generators never make insets too wide).
    static func style(_ genes: LayoutGenes.Style, width: Double, exact: Bool) -> SectionStyle {
        func size(_ range: ClosedRange<Double>, _ fraction: Double?) -> Double {
            fraction.map { Self.size(range, $0, exact: exact) } ?? 0
        }
        var style = SectionStyle()
        let maxInset = width / 3
        style.insets = EdgeInsets(
            top: size(0...30, genes.insets.top), left: size(0...maxInset, genes.insets.left),
            bottom: size(0...30, genes.insets.bottom), right: size(0...maxInset, genes.insets.right))
        style.itemSpacing = size(0...20, genes.itemSpacing)
        style.lineSpacing = size(0...20, genes.lineSpacing)
        style.headerHeight = size(0.25...60, genes.header)
        style.footerHeight = size(0.25...40, genes.footer)
        style.background = genes.background
        switch genes.kind {
        case 0:
            style.kind = .list
        case 1:
            style.kind = .flow(justify: Justify.allCases[genes.justify], align: Align.allCases[genes.align])
        default:
            let weights = genes.weights.map { fractions in
                fractions.prefix(genes.columns).map { exact ? [1, 0.5, 2, 3][LayoutGenes.index($0, count: 4)] : 0.1 + $0 * 3.9 }
            }
            let direction: RenderDirection = genes.direction < 3 ? .shortestFirst : genes.direction == 3 ? .leftToRight : .rightToLeft
            let placement: WaterfallPlacementRule = switch genes.placement {
            case 3: .lastIndex
            case 4: .gridLanes(tolerance: 0)
            case 5: .gridLanes(tolerance: WaterfallPlacementRule.defaultTolerance)
            default: .leftmost
            }
            style.kind = .waterfall(WaterfallStyle(columns: genes.columns, weights: weights, direction: direction, placement: placement))
            if (try? style.validate(contentWidth: width)) == nil { style.itemSpacing = 0 }
        }
        precondition((try? style.validate(contentWidth: width)) != nil, "generated an invalid style: \(style)")
        return style
    }

    static func item(_ genes: LayoutGenes.Item, regionWidth: Double, spacing: Double, exact: Bool, fullWidthChance: Double) -> ItemSize {
        let height = genes.zeroHeight ? 0 : size(0...300, genes.height, exact: exact)
        let width: Double
        switch genes.widthKind {
        case 6: width = 0
        case 7: width = size(regionWidth...(regionWidth * 1.5 + 1), genes.width, exact: exact)  // wider than a row
        case 8: width = ((regionWidth - spacing) / 2).rounded(.down)  // two of them fit (almost) exactly
        case 9: width = regionWidth / 4  // exact fits when spacing is 0
        default: width = size(0...(regionWidth / 2), genes.width, exact: exact)
        }
        return ItemSize(width: max(width, 0), height: height, spansAllColumns: genes.spanRoll >= 1 - fullWidthChance)
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: 600) }

    var description: String {
        RandomLayout.describe(width: width, exact: exact, styles: styles, data: data)
    }

    /// The whole layout when it is small (as a shrunk failing case is), a summary otherwise.
    static func describe(width: Double, exact: Bool?, styles: [SectionStyle], data: LayoutData) -> String {
        var text = "width \(width)\(exact == false ? " (arbitrary doubles)" : ""), sections \(data.sectionCount), items \(data.itemCount)"
        guard data.itemCount <= 40 && data.sectionCount <= 12 else {
            return text + ", styles \(styles.map(\.kind.name))"
        }
        for (index, style) in styles.enumerated() {
            text += "\n  style \(index): \(style)"
        }
        for s in 0..<data.sectionCount {
            let items = (0..<data.itemCount(inSection: s)).map { i in
                let item = data.size(section: s, item: i)
                return "\(item.width)x\(item.height)\(item.spansAllColumns ? " full" : "")"
            }
            text += "\n  section \(s): [\(items.joined(separator: ", "))]"
        }
        return text
    }
}
