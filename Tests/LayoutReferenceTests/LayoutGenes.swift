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
    }

    static let item = zip(Gen.bool(0.07), fraction, Gen.int(in: 0...9), fraction, fraction).map {
        Item(zeroHeight: $0, height: $1, widthKind: $2, width: $3, spanRoll: $4)
    }

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
    }

    static let style = zip(
        zip(fraction.optional(valueRate: 0.5), fraction.optional(valueRate: 0.5), fraction.optional(valueRate: 0.5),
            fraction.optional(valueRate: 0.5)),
        zip(fraction.optional(valueRate: 0.7), fraction.optional(valueRate: 0.7), fraction.optional(valueRate: 0.5),
            fraction.optional(valueRate: 0.4), Gen.bool(0.4)),
        zip(Gen.int(in: 0...2), Gen.int(in: 0...(Justify.allCases.count - 1)), Gen.int(in: 0...(Align.allCases.count - 1)),
            Gen.int(in: 1...6), fraction.array(of: 6).optional(valueRate: 0.3), Gen.int(in: 0...4)),
        zip(Gen.int(in: 0...(HeaderPin.allCases.count - 1)), Gen.int(in: 0...(FooterPin.allCases.count - 1)),
            fraction.optional(valueRate: 0.15), fraction.optional(valueRate: 0.1))
    ).map { insets, sizes, kind, pins in
        Style(
            insets: insets, itemSpacing: sizes.0, lineSpacing: sizes.1, header: sizes.2, footer: sizes.3, background: sizes.4,
            kind: kind.0, justify: kind.1, align: kind.2, columns: kind.3, weights: kind.4, direction: kind.5,
            headerPin: pins.0, footerPin: pins.1, tallHeader: pins.2, tallFooter: pins.3)
    }

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
    }

    static let query = zip(fraction, fraction, Gen.int(in: 0...3), Gen.int(in: 0...4), fraction, Gen.int(in: 0...9), fraction)
        .map { Query(x: $0, y: $1, widthChoice: $2, heightChoice: $3, height: $4, touch: $5, element: $6) }

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

    /// The index `fraction` picks among `count` (count > 0).
    static func index(_ fraction: Double, count: Int) -> Int { min(count - 1, Int(fraction * Double(count))) }
}
