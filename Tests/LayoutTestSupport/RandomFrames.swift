import PropertyBased
import LayoutEngine

/// Random layouts that exercise every section kind and the awkward corners of each (zero, tiny and
/// huge heights, items wider than the region, spanning items), for the query property tests.
///
/// A layout is built from generated primitive values so that a failing case shrinks well: the
/// arrays lose sections and items, and each value falls towards 0, the plainest choice (a list,
/// a 390 pt width, half-point sizes, the smallest size of its range).
struct RandomFrames: CustomStringConvertible, Sendable {
    var bounds: Rect
    var styles: [SectionStyle]
    var data: LayoutData
    var frames: LayoutFrames

    /// One item's values: `heightKind` 0...89 an ordinary height, 90...94 zero, 95...97 tiny,
    /// 98...99 huge; `widthKind` 0...87 an ordinary width, 88...92 zero, 93...95 wider than the
    /// region, 96...99 exactly the region.
    struct Item: Sendable {
        var heightKind: Int
        var height: Double
        var widthKind: Int
        var width: Double
        var spans: Bool

        init(_ rng: inout some RandomNumberGenerator) {
            heightKind = Int.random(in: 0...99, using: &rng)
            height = Double.random(in: 0...1, using: &rng)
            widthKind = Int.random(in: 0...99, using: &rng)
            width = Double.random(in: 0...1, using: &rng)
            spans = Double.random(in: 0..<1, using: &rng) < 0.1
        }

        /// Items one step simpler: kinds to ordinary, fractions to 0 or halfway, no spanning.
        var simpler: [Item] {
            var candidates: [Item] = []
            if heightKind != 0 { var item = self; item.heightKind = 0; candidates.append(item) }
            if widthKind != 0 { var item = self; item.widthKind = 0; candidates.append(item) }
            if spans { var item = self; item.spans = false; candidates.append(item) }
            for value in LayoutGenes.smaller(height) { var item = self; item.height = value; candidates.append(item) }
            for value in LayoutGenes.smaller(width) { var item = self; item.width = value; candidates.append(item) }
            return candidates
        }
    }

    static let item = Generator<Item, [Item]>(run: { Item(&$0) }, shrink: { $0.simpler })

    /// A section: `shape` 0...2 empty, 3 one item, 4...5 `items` plus `bulkCount` items drawn
    /// from `bulkSeed` (the big sections: their count shrinks, their values do not), else `items`.
    static let section = zip(Gen.int(in: 0...19), item.array(of: 0...40), Gen.int(in: 0...210), Gen.uint64().withoutShrink())

    /// Random layouts: raw or quarter-point sizes, a width (390 or 60...1200), 1–4 styles (the
    /// style genes of `LayoutGenes`), 0–8 sections.
    static let generator = zip(
        Gen.bool(), Gen.double(in: 0...1).optional(valueRate: 0.5), LayoutGenes.style.array(of: 1...4), section.array(of: 0...8))
        .map { fractional, width, styles, sections in
            RandomFrames(fractional: fractional, width: width, styles: styles, sections: sections)
        }

    init(fractional: Bool, width widthFraction: Double?, styles styleValues: [LayoutGenes.Style], sections: [(Int, [Item], Int, UInt64)]) {
        func size(_ range: ClosedRange<Double>, _ fraction: Double) -> Double {
            RandomLayout.size(range, fraction, exact: !fractional)
        }
        let width = widthFraction.map { size(60...1200, $0) } ?? 390
        styles = styleValues.map { RandomLayout.style($0, width: width, exact: !fractional) }
        var sectionItems: [[ItemSize]] = []
        for (s, (shape, items, bulkCount, bulkSeed)) in sections.enumerated() {
            let style = styles[s % styles.count]
            let regionWidth = width - style.insets.horizontal
            func item(_ values: Item) -> ItemSize {
                let height: Double
                switch values.heightKind {
                case 90...94: height = 0
                case 95...97: height = 0.0001 + values.height * 0.0099
                case 98...99: height = size(2_000...200_000, values.height)
                default: height = size(1...200, values.height)
                }
                let itemWidth: Double
                switch values.widthKind {
                case 88...92: itemWidth = 0
                case 93...95: itemWidth = regionWidth * (1 + values.width * 0.6)
                case 96...99: itemWidth = regionWidth
                default: itemWidth = size(0.5...Swift.max(1, regionWidth * 0.6), values.width)
                }
                return ItemSize(width: itemWidth, height: height, spansAllColumns: values.spans)
            }
            switch shape {
            case 0...2: sectionItems.append([])
            case 3: sectionItems.append(items.prefix(1).map(item))
            case 4...5:
                var rng = SeededRandom(seed: bulkSeed)
                sectionItems.append(items.map(item) + (0..<bulkCount).map { _ in item(Item(&rng)) })
            default: sectionItems.append(items.map(item))
            }
        }
        data = try! LayoutData(sections: sectionItems)
        bounds = Rect(x: 0, y: 0, width: width, height: 844)
        frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
    }

    var description: String {
        RandomLayout.describe(width: bounds.width, exact: nil, styles: styles, data: data)
    }
}

/// A query rect of one of the awkward kinds, from values that shrink towards a viewport-sized
/// rect at the top of the content.
struct RandomRect: Sendable {
    /// 0 viewport-sized, 1 tiny, 2 huge, 3 empty, 4 outside, 5 spanning everything, 6...8
    /// touching an element's edge (or its frame), 9 at a section boundary, 10 a full-width band,
    /// 11...13 anything.
    var kind: Int
    var choice: Int
    var values: [Double]

    static let generator = Generator<RandomRect, [RandomRect]>(
        run: { rng in
            RandomRect(kind: Int.random(in: 0...13, using: &rng), choice: Int.random(in: 0...5, using: &rng),
                       values: (0..<4).map { _ in Double.random(in: 0...1, using: &rng) })
        },
        shrink: { rect in
            var candidates: [RandomRect] = []
            if rect.kind != 0 { var simpler = rect; simpler.kind = 0; candidates.append(simpler) }
            if rect.choice != 0 { var simpler = rect; simpler.choice = 0; candidates.append(simpler) }
            for (index, value) in rect.values.enumerated() {
                for smaller in LayoutGenes.smaller(value) { var simpler = rect; simpler.values[index] = smaller; candidates.append(simpler) }
            }
            return candidates
        })

    /// The rect these values describe in `frames`.
    func rect(frames: LayoutFrames, elements: [LayoutAttributes]) -> Rect {
        let width = frames.contentWidth, height = frames.contentHeight
        func within(_ range: ClosedRange<Double>, _ index: Int) -> Double {
            range.lowerBound + values[index] * (range.upperBound - range.lowerBound)
        }
        let anyY = within(-900...(height + 900), 1)
        switch kind {
        case 0:  // viewport-sized at a random offset
            return Rect(x: 0, y: anyY, width: 390, height: 844)
        case 1:  // tiny
            return Rect(x: within(-5...(width + 5), 0), y: anyY, width: within(0.001...2, 2), height: within(0.001...2, 3))
        case 2:  // huge
            return Rect(x: -1e7, y: -1e7, width: 1e8 + width, height: 1e8 + height)
        case 3:  // empty
            return choice % 2 == 0
                ? Rect(x: within(0...width, 0), y: anyY, width: 0, height: 500)
                : Rect(x: 0, y: anyY, width: width, height: choice < 3 ? 0 : -10)
        case 4:  // outside: above, below, left, right
            switch choice % 4 {
            case 0: return Rect(x: 0, y: -500, width: width, height: 500)
            case 1: return Rect(x: 0, y: height, width: width, height: 500)
            case 2: return Rect(x: -500, y: 0, width: 500, height: height)
            default: return Rect(x: width + 1e6, y: 0, width: 500, height: height)
            }
        case 5:  // spans everything
            return Rect(x: -1, y: -1, width: width + 2, height: height + 2)
        case 6, 7, 8:  // touches an element's edge exactly (or is the element's frame)
            guard !elements.isEmpty else { return .zero }
            let f = elements[Swift.min(elements.count - 1, Int(values[0] * Double(elements.count)))].frame
            let w = within(0.5...300, 2), h = within(0.5...900, 3)
            switch choice {
            case 0: return f
            case 1: return Rect(x: f.maxX, y: f.minY, width: w, height: h)
            case 2: return Rect(x: f.minX - w, y: f.minY, width: w, height: h)
            case 3: return Rect(x: f.minX, y: f.maxY, width: w, height: h)
            case 4: return Rect(x: f.minX, y: f.minY - h, width: w, height: h)
            default: return Rect(x: f.minX - w, y: f.minY - h, width: w, height: h)
            }
        case 9:  // starts or ends exactly at a section boundary
            let s = Swift.min(frames.sectionCount, Int(values[0] * Double(frames.sectionCount + 1)))
            let y = frames.sectionTops[s], h = within(0.5...900, 2)
            return Rect(x: 0, y: choice % 2 == 0 ? y : y - h, width: width, height: h)
        case 10:  // a full-width band
            return Rect(x: 0, y: anyY, width: width, height: within(1...3000, 2))
        default:  // anything
            return Rect(x: within(-100...(width + 100), 0), y: anyY, width: within(0.1...(width * 1.5 + 0.1), 2), height: within(0.1...2000, 3))
        }
    }
}
