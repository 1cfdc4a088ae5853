import LayoutEngine
import PropertyBased

/// Generators of random layouts for the property tests, built from primitive generated values
/// ("genes": fractions in 0...1, small integers, flags) so that a failing case shrinks well:
/// arrays lose sections, items, styles and queries, integers fall to 0 (the first, plainest
/// choice of each list) and fractions to 0 (the smallest size of each range).
///
/// Every size is `lower + fraction × (upper - lower)`; with `exact` it is rounded down to a
/// multiple of 1/4, so sums are exact and frames must agree to the last bit.
enum LayoutGenes {
    /// A fraction in 0...1 that shrinks towards 0.
    static let fraction = Gen.double(in: 0...1)

    /// One item: height, a width of one of five kinds (anything up to half a row, zero, wider
    /// than a row, two per row, four per row) and whether it spans all waterfall columns.
    struct Item: Sendable {
        var zeroHeight: Bool
        var height: Double
        var widthKind: Int
        var width: Double
        var spanRoll: Double

        /// Items one step simpler: each field towards false or 0 (to 0 at once, or halfway).
        var simpler: [Item] {
            var candidates: [Item] = []
            func add(_ change: (inout Item) -> Void) {
                var item = self
                change(&item)
                candidates.append(item)
            }
            if zeroHeight { add { $0.zeroHeight = false } }
            for value in LayoutGenes.smaller(height) { add { $0.height = value } }
            if widthKind != 0 { add { $0.widthKind = 0 } }
            for value in LayoutGenes.smaller(width) { add { $0.width = value } }
            for value in LayoutGenes.smaller(spanRoll) { add { $0.spanRoll = value } }
            return candidates
        }
    }

    /// Items are drawn in one step and shrink field by field (see `simpler`): composing five
    /// generators per item made generation cost more than the layouts it checks.
    static let item = Generator<Item, [Item]>(
        run: { rng in
            Item(zeroHeight: Double.random(in: 0..<1, using: &rng) < 0.07, height: Double.random(in: 0...1, using: &rng),
                 widthKind: Int.random(in: 0...9, using: &rng), width: Double.random(in: 0...1, using: &rng),
                 spanRoll: Double.random(in: 0...1, using: &rng))
        },
        shrink: { $0.simpler })

    /// One section: `shape` 0...2 makes it empty, 3...4 adds `bulkCount` more items drawn from
    /// `bulkSeed` (the big sections; their count shrinks, their sizes do not), anything else
    /// keeps just `items`.
    struct Section: Sendable {
        var shape: Int
        var items: [Item]
        var bulkCount: Int
        var bulkSeed: UInt64
    }

    static func section(maxItems: Int, maxBulk: Int) -> Generator<Section, some SendableSequenceType> {
        zip(Gen.int(in: 0...19), item.array(of: 0...maxItems), Gen.int(in: 0...maxBulk), Gen.uint64().withoutShrink())
            .map { Section(shape: $0, items: $1, bulkCount: $2, bulkSeed: $3) }
    }

    /// One section style; `nil` sizes are zero.
    struct Style: Sendable {
        var insets: (top: Double?, left: Double?, bottom: Double?, right: Double?)
        var itemSpacing: Double?
        var lineSpacing: Double?
        var header: Double?
        var footer: Double?
        var background: Bool
        /// 0 list, 1 flow, 2 waterfall.
        var kind: Int
        var justify: Int
        var align: Int
        var columns: Int
        var weights: [Double]?
        /// 0...2 shortest-first, 3 left-to-right, 4 right-to-left.
        var direction: Int
        /// Pinning (only `RandomPinnedLayout` reads these): pins, and now and then a header
        /// taller than its items or a footer taller than the viewport.
        var headerPin: Int
        var footerPin: Int
        var tallHeader: Double?
        var tallFooter: Double?
        /// The placement rule of shortest-first: 0...2 leftmost, 3 last-index, 4 grid-lanes with
        /// tolerance 0, 5 grid-lanes with the default tolerance (16).
        var placement = 0

        /// Styles one step simpler: optional sizes to none, then towards 0; choices to the first
        /// (a list, start, shortest-first, no pins); one column; no weights; no background.
        var simpler: [Style] {
            var candidates: [Style] = []
            func add(_ change: (inout Style) -> Void) {
                var style = self
                change(&style)
                candidates.append(style)
            }
            func optional(_ value: Double?, _ set: @escaping (inout Style, Double?) -> Void) {
                guard let value else { return }
                add { set(&$0, nil) }
                for smaller in LayoutGenes.smaller(value) { add { set(&$0, smaller) } }
            }
            if kind != 0 { add { $0.kind = 0 } }
            if columns != 1 { add { $0.columns = 1 } }
            if weights != nil { add { $0.weights = nil } }
            optional(tallHeader) { $0.tallHeader = $1 }
            optional(tallFooter) { $0.tallFooter = $1 }
            optional(header) { $0.header = $1 }
            optional(footer) { $0.footer = $1 }
            optional(insets.top) { $0.insets.top = $1 }
            optional(insets.left) { $0.insets.left = $1 }
            optional(insets.bottom) { $0.insets.bottom = $1 }
            optional(insets.right) { $0.insets.right = $1 }
            optional(itemSpacing) { $0.itemSpacing = $1 }
            optional(lineSpacing) { $0.lineSpacing = $1 }
            if background { add { $0.background = false } }
            if justify != 0 { add { $0.justify = 0 } }
            if align != 0 { add { $0.align = 0 } }
            if direction != 0 { add { $0.direction = 0 } }
            if placement != 0 { add { $0.placement = 0 } }
            if headerPin != 0 { add { $0.headerPin = 0 } }
            if footerPin != 0 { add { $0.footerPin = 0 } }
            return candidates
        }
    }

    static let style = Generator<Style, [Style]>(
        run: { rng in
            func maybe(_ rate: Double) -> Double? {
                Double.random(in: 0..<1, using: &rng) < rate ? Double.random(in: 0...1, using: &rng) : nil
            }
            func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
            let insets = (maybe(0.5), maybe(0.5), maybe(0.5), maybe(0.5))
            let spacings = (maybe(0.7), maybe(0.7))
            let header = maybe(0.5), footer = maybe(0.4), background = Double.random(in: 0..<1, using: &rng) < 0.4
            let kind = int(0...2), justify = int(0...(Justify.allCases.count - 1)), align = int(0...(Align.allCases.count - 1))
            let columns = int(1...6)
            let weights = Double.random(in: 0..<1, using: &rng) < 0.3 ? (0..<6).map { _ in Double.random(in: 0...1, using: &rng) } : nil
            let direction = int(0...4)
            let pins = (int(0...(HeaderPin.allCases.count - 1)), int(0...(FooterPin.allCases.count - 1)), maybe(0.15), maybe(0.1))
            var style = Style(
                insets: insets, itemSpacing: spacings.0, lineSpacing: spacings.1, header: header, footer: footer,
                background: background, kind: kind, justify: justify, align: align, columns: columns, weights: weights,
                direction: direction, headerPin: pins.0, footerPin: pins.1, tallHeader: pins.2, tallFooter: pins.3)
            style.placement = int(0...5)
            return style
        },
        shrink: { $0.simpler })

    /// A whole layout: width choice, `arbitrary` (any doubles rather than quarters), the chance
    /// of full-width items, styles, sections, and now and then every section empty.
    struct Layout: Sendable {
        var widthChoice: Int
        var arbitrary: Bool
        var fullWidthChoice: Int
        var styles: [Style]
        var sections: [Section]
        var allEmpty: Bool
    }

    static func layout(maxSections: Int = 6, maxItems: Int = 40, maxBulk: Int = 260) -> Generator<Layout, some SendableSequenceType> {
        zip(Gen.int(in: 0...4), Gen.bool(0.4), Gen.int(in: 0...3), style.array(of: 1...4),
            section(maxItems: maxItems, maxBulk: maxBulk).array(of: 0...maxSections), Gen.bool(0.05))
            .map { Layout(widthChoice: $0, arbitrary: $1, fullWidthChoice: $2, styles: $3, sections: $4, allEmpty: $5) }
    }

    /// A query rect: anywhere in and around the content, of one of a few widths and heights,
    /// and four times in ten moved to touch an element's edge exactly.
    struct Query: Sendable {
        var x: Double
        var y: Double
        var widthChoice: Int
        var heightChoice: Int
        var height: Double
        /// 0...5 none, 6 touches an element's bottom, 7 its top, 8 its right edge, 9 its left.
        var touch: Int
        var element: Double

        /// Queries one step simpler: each field towards 0 (to 0 at once, or halfway).
        var simpler: [Query] {
            var candidates: [Query] = []
            func add(_ change: (inout Query) -> Void) {
                var query = self
                change(&query)
                candidates.append(query)
            }
            if touch != 0 { add { $0.touch = 0 } }
            for value in LayoutGenes.smaller(x) { add { $0.x = value } }
            for value in LayoutGenes.smaller(y) { add { $0.y = value } }
            if widthChoice != 0 { add { $0.widthChoice = 0 } }
            if heightChoice != 0 { add { $0.heightChoice = 0 } }
            for value in LayoutGenes.smaller(height) { add { $0.height = value } }
            for value in LayoutGenes.smaller(element) { add { $0.element = value } }
            return candidates
        }
    }

    static let query = Generator<Query, [Query]>(
        run: { rng in
            Query(x: Double.random(in: 0...1, using: &rng), y: Double.random(in: 0...1, using: &rng),
                  widthChoice: Int.random(in: 0...3, using: &rng), heightChoice: Int.random(in: 0...4, using: &rng),
                  height: Double.random(in: 0...1, using: &rng), touch: Int.random(in: 0...9, using: &rng),
                  element: Double.random(in: 0...1, using: &rng))
        },
        shrink: { $0.simpler })

    /// One change to a layout's data, read against the data it applies to: 0..<40 a height
    /// edit, 40..<60 an append, 60..<75 an insert, 75..<88 a removal, 88..<95 a section insert,
    /// 95..<100 a section removal (rolls that do not fit the data become a one-item append).
    struct Change: Sendable {
        var roll: Int
        var section: Double
        var position: Double
        var count: Int
        var zeroHeight: Bool
        var height: Double
        var items: [Item]
        var bigAppend: Bool
    }

    static let change = zip(
        Gen.int(in: 0...99), fraction, fraction, Gen.int(in: 1...20), Gen.bool(0.1), fraction,
        item.array(of: 1...10), Gen.bool(0.05)
    ).map { Change(roll: $0, section: $1, position: $2, count: $3, zeroHeight: $4, height: $5, items: $6, bigAppend: $7) }

    /// A scroll offset for the pinning tests, read against the reference: 0 above the top, 1
    /// past the end, 2 a section top (minus the stacked headers above or not), 3 a normal
    /// header's push boundary (or a quarter point either side), 4 a viewport bottom on a
    /// section boundary, anything else anywhere.
    struct Offset: Sendable {
        var kind: Int
        var section: Double
        var value: Double
        var nudge: Int
        var stacked: Bool
    }

    static let offset = zip(Gen.int(in: 0...7), fraction, fraction, Gen.int(in: 0...3), Gen.bool())
        .map { Offset(kind: $0, section: $1, value: $2, nudge: $3, stacked: $4) }

    /// Values between `value` and 0 to try when shrinking: 0, then half (only 0 below 1e-6, so
    /// that shrinking ends).
    static func smaller(_ value: Double) -> [Double] { value == 0 ? [] : value < 1e-6 ? [0] : [0, value / 2] }

    /// `value` to three decimals, for short descriptions of genes.
    static func short(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// The index `fraction` picks among `count` (count > 0).
    static func index(_ fraction: Double, count: Int) -> Int { min(count - 1, Int(fraction * Double(count))) }
}

// Short descriptions: a failing case prints its genes (the shrunk and the original ones).
extension LayoutGenes.Item: CustomStringConvertible {
    var description: String {
        let s = LayoutGenes.short
        return "item(h \(zeroHeight ? "0" : "\(s(height))"), w \(widthKind)/\(s(width)), span \(s(spanRoll)))"
    }
}

extension LayoutGenes.Query: CustomStringConvertible {
    var description: String {
        let s = LayoutGenes.short
        return "query(x \(s(x)), y \(s(y)), w \(widthChoice), h \(heightChoice)/\(s(height)), touch \(touch) \(s(element)))"
    }
}

extension LayoutGenes.Change: CustomStringConvertible {
    var description: String {
        let s = LayoutGenes.short
        return "change(roll \(roll), section \(s(section)), position \(s(position)), count \(count), "
            + "h \(zeroHeight ? "0" : "\(s(height))"), \(items)\(bigAppend ? " x60" : ""))"
    }
}

extension LayoutGenes.Offset: CustomStringConvertible {
    var description: String {
        let s = LayoutGenes.short
        return "offset(kind \(kind), section \(s(section)), value \(s(value)), nudge \(nudge), stacked \(stacked))"
    }
}
