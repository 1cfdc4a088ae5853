import Testing
import LayoutEngine
import LayoutReference

/// Each rule of docs/engine-semantics.md on a case small enough to work out by hand; the expected frames are
/// written as numbers, not computed.
@Suite struct HandComputedTests {
    static func layout(_ styles: [SectionStyle], _ sections: [[ItemSize]], width: Double = 100) throws -> ReferenceLayout {
        try ReferenceLayout(data: LayoutData(sections: sections), styles: styles, viewportWidth: width)
    }
    static func items(_ heights: [Double]) -> [ItemSize] { heights.map { ItemSize(height: $0) } }
    static func flowItems(_ sizes: [(Double, Double)]) -> [ItemSize] { sizes.map { ItemSize(width: $0.0, height: $0.1) } }
    static func itemFrames(_ layout: ReferenceLayout, section: Int = 0) -> [Rect] {
        (0..<layout.itemCount(inSection: section)).map { layout.frame(of: .item($0, section: section))! }
    }
    static func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    // MARK: List and the section frame

    @Test func listWithHeaderInsetsSpacingFooterAndBackground() throws {
        let style = SectionStyle(
            kind: .list, insets: EdgeInsets(top: 5, left: 10, bottom: 7, right: 20), itemSpacing: 99,
            lineSpacing: 3, headerHeight: 30, footerHeight: 11, background: true)
        let layout = try Self.layout([style], [Self.items([10, 0, 20])])
        // Items region from x 10 to 80, from y 30 + 5 = 35: items at 35, 48, 51.
        #expect(Self.itemFrames(layout) == [Self.r(10, 35, 70, 10), Self.r(10, 48, 70, 0), Self.r(10, 51, 70, 20)])
        // Region ends at 71; + 7 bottom inset = 78; footer 78..<89.
        #expect(layout.frame(of: .header(section: 0)) == Self.r(0, 0, 100, 30))
        #expect(layout.frame(of: .footer(section: 0)) == Self.r(0, 78, 100, 11))
        #expect(layout.frame(of: .decoration(section: 0)) == Self.r(0, 0, 100, 89))
        #expect(layout.contentHeight == 89)
        #expect(layout.allElements().map(\.id) == [
            .item(0, section: 0), .item(1, section: 0), .item(2, section: 0),
            .header(section: 0), .footer(section: 0), .decoration(section: 0)])
    }

    @Test func sectionsStackAndStylesCycleAndEmptySectionsKeepTheirInsets() throws {
        let a = SectionStyle(kind: .list, insets: EdgeInsets(top: 4, bottom: 6), headerHeight: 10)
        let b = SectionStyle(kind: .list, lineSpacing: 1, footerHeight: 5, background: true)
        let layout = try Self.layout([a, b], [Self.items([20]), [], Self.items([1, 2]), []])
        // s0 (a): 10 + 4 + 20 + 6 = 40. s1 (b, empty): footer only, 5. s2 (a): 10 + 4 + 3 + 6 = 23.
        // s3 (b, empty): 5.
        #expect(layout.sectionTops == [0, 40, 45, 68, 73])
        #expect(layout.frame(of: .item(0, section: 2)) == Self.r(0, 59, 100, 1))
        #expect(layout.frame(of: .item(1, section: 2)) == Self.r(0, 60, 100, 2))
        #expect(layout.frame(of: .header(section: 1)) == nil)
        #expect(layout.frame(of: .footer(section: 1)) == Self.r(0, 40, 100, 5))
        #expect(layout.frame(of: .decoration(section: 1)) == Self.r(0, 40, 100, 5))
        #expect(layout.frame(of: .decoration(section: 0)) == nil)
        #expect(layout.frame(of: .item(1, section: 0)) == nil)
        #expect(layout.frame(of: .item(0, section: 4)) == nil)
        let empty = try Self.layout([a], [[]])
        #expect(empty.contentHeight == 20)  // header 10 + insets 4 + 6
    }

    @Test func noDataAtAll() throws {
        let layout = try Self.layout([SectionStyle(headerHeight: 10, background: true)], [])
        #expect(layout.sectionCount == 0)
        #expect(layout.itemCount == 0)
        #expect(layout.contentHeight == 0)
        #expect(layout.allElements().isEmpty)
        #expect(layout.elements(in: Self.r(-10, -10, 1000, 1000)).isEmpty)
    }

    @Test func invalidConfigurationsThrow() {
        #expect(throws: LayoutError.self) { try Self.layout([], [Self.items([1])]) }
        #expect(throws: LayoutError.self) { try Self.layout([SectionStyle()], [], width: 0) }
        #expect(throws: LayoutError.self) { try Self.layout([SectionStyle()], [], width: .nan) }
        #expect(throws: LayoutError.self) {
            try Self.layout([SectionStyle(insets: EdgeInsets(left: 50, right: 50))], [])
        }
        #expect(throws: LayoutError.self) {
            try Self.layout([SectionStyle(kind: .waterfall(WaterfallStyle(columns: 0)))], [])
        }
    }

    // MARK: Flow

    /// Region 100 wide, spacing 10: items 30, 20, 30 fit exactly (30 + 10 + 20 + 10 + 30 = 100).
    static let exactRow = flowItems([(30, 10), (20, 20), (30, 6), (40, 8)])

    @Test func flowWrapsGreedilyAndAnExactFitStays() throws {
        let style = SectionStyle(kind: .flow(justify: .start, align: .start), itemSpacing: 10, lineSpacing: 4)
        let layout = try Self.layout([style], [Self.exactRow])
        #expect(Self.itemFrames(layout) == [
            Self.r(0, 0, 30, 10), Self.r(40, 0, 20, 20), Self.r(70, 0, 30, 6), Self.r(0, 24, 40, 8)])
        #expect(layout.contentHeight == 32)
    }

    @Test func flowAlignInsideTheRow() throws {
        for (align, ys) in [(Align.start, [0.0, 0, 0]), (.center, [5, 0, 7]), (.end, [10, 0, 14])] {
            let style = SectionStyle(kind: .flow(justify: .start, align: align), itemSpacing: 10)
            let layout = try Self.layout([style], [Array(Self.exactRow.prefix(3))])
            #expect(Self.itemFrames(layout).map(\.y) == ys, "\(align)")
        }
    }

    /// One row of items 10 and 20 wide with spacing 10 in a region of 100: free space 60.
    @Test(arguments: [
        (Justify.start, [0.0, 20]),
        (.center, [30, 50]),
        (.end, [60, 80]),
        (.spaceBetween, [0, 80]),  // the gap grows to 10 + 60
        (.spaceAround, [15, 65]),  // lead 60/4, gap 10 + 60/2
        (.spaceEvenly, [20, 60]),  // lead 60/3, gap 10 + 60/3
    ])
    func flowJustify(justify: Justify, xs: [Double]) throws {
        let style = SectionStyle(kind: .flow(justify: justify, align: .start), itemSpacing: 10)
        let layout = try Self.layout([style], [Self.flowItems([(10, 5), (20, 5)])])
        #expect(Self.itemFrames(layout).map(\.x) == xs)
    }

    /// A single item: space-between acts as start; the others by their formula with n = 1.
    @Test(arguments: [
        (Justify.start, 0.0), (.center, 40), (.end, 80), (.spaceBetween, 0), (.spaceAround, 40), (.spaceEvenly, 40),
    ])
    func flowJustifyOneItem(justify: Justify, x: Double) throws {
        let style = SectionStyle(kind: .flow(justify: justify, align: .start), insets: EdgeInsets(left: 0))
        let layout = try Self.layout([style], [Self.flowItems([(20, 5)])])
        #expect(Self.itemFrames(layout).map(\.x) == [x])
    }

    /// An item 140 wide in a region of 100 (insets 5 and 5 of 110): free -40. space-* act as
    /// start, center and end keep their formula and stick out on the left.
    @Test(arguments: [
        (Justify.start, 5.0), (.center, -15), (.end, -35), (.spaceBetween, 5), (.spaceAround, 5), (.spaceEvenly, 5),
    ])
    func flowOverflowingRow(justify: Justify, x: Double) throws {
        let style = SectionStyle(kind: .flow(justify: justify, align: .start), insets: EdgeInsets(left: 5, right: 5), itemSpacing: 3)
        let layout = try Self.layout([style], [Self.flowItems([(140, 5), (10, 5)])], width: 110)
        #expect(Self.itemFrames(layout)[0].x == x)
        #expect(Self.itemFrames(layout)[1].y == 5)  // the next item opened a new row
    }

    @Test func flowZeroWidthItemsTakeSpacing() throws {
        let style = SectionStyle(kind: .flow(justify: .start, align: .start), itemSpacing: 10)
        let layout = try Self.layout([style], [Self.flowItems([(0, 5), (0, 5), (80, 5), (0, 5)])])
        // 0 + 10 + 0 + 10 + 80 = 100 fits; the next zero-width item needs 110.
        #expect(Self.itemFrames(layout).map(\.x) == [0, 10, 20, 0])
        #expect(Self.itemFrames(layout).map(\.y) == [0, 0, 0, 5])
    }

    // MARK: Waterfall

    @Test func waterfallShortestFirstTiesGoLeft() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3)), itemSpacing: 5, lineSpacing: 2)
        // Columns (100 - 10) / 3 = 30 wide at 0, 35, 70.
        let layout = try Self.layout([style], [Self.items([10, 10, 5, 1, 3, 4])])
        #expect(Self.itemFrames(layout) == [
            Self.r(0, 0, 30, 10), Self.r(35, 0, 30, 10), Self.r(70, 0, 30, 5),
            Self.r(70, 7, 30, 1),  // column 2 ends at 5: shortest
            Self.r(70, 10, 30, 3),  // column 2 ends at 8 < 10
            Self.r(0, 12, 30, 4),  // columns 0 and 1 tie at 10 (column 2 at 13): the left one
        ])
        #expect(layout.contentHeight == 16)
    }

    @Test func waterfallWeightsAndFullWidthItems() throws {
        let style = SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: 2, weights: [1, 3])), insets: EdgeInsets(left: 10, right: 6),
            itemSpacing: 4, lineSpacing: 2, headerHeight: 8)
        var items = Self.items([10, 20])
        items.append(ItemSize(width: 999, height: 5, spansAllColumns: true))
        items += Self.items([1, 1])
        // Region 10..<94 (84 wide), available 80: columns 20 at x 10 and 60 at x 34. Region top 8.
        let layout = try Self.layout([style], [items])
        #expect(Self.itemFrames(layout) == [
            Self.r(10, 8, 20, 10), Self.r(34, 8, 60, 20),
            Self.r(10, 30, 84, 5),  // tallest column ends at 28, + 2
            Self.r(10, 37, 20, 1), Self.r(34, 37, 60, 1),  // both columns hold an item: + 2
        ])
    }

    @Test func waterfallFullWidthFirstHasNoSpacingAbove() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)), lineSpacing: 3)
        let items = [ItemSize(height: 5, spansAllColumns: true), ItemSize(height: 5, spansAllColumns: true), ItemSize(height: 1)]
        let layout = try Self.layout([style], [items])
        #expect(Self.itemFrames(layout) == [Self.r(0, 0, 100, 5), Self.r(0, 8, 100, 5), Self.r(0, 16, 50, 1)])
    }

    @Test func waterfallFixedDirectionsCountFullWidthItems() throws {
        var items = Self.items([50, 1, 1])
        items.insert(ItemSize(height: 2, spansAllColumns: true), at: 1)  // index 1
        let ltr = try Self.layout([SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2, direction: .leftToRight)))], [items])
        // Items 0, 2, 3 go to columns 0, 0, 1 (index mod 2), whatever the heights.
        #expect(Self.itemFrames(ltr) == [Self.r(0, 0, 50, 50), Self.r(0, 50, 100, 2), Self.r(0, 52, 50, 1), Self.r(50, 52, 50, 1)])
        let rtl = try Self.layout([SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2, direction: .rightToLeft)))], [items])
        #expect(Self.itemFrames(rtl) == [Self.r(50, 0, 50, 50), Self.r(0, 50, 100, 2), Self.r(50, 52, 50, 1), Self.r(0, 52, 50, 1)])
    }

    @Test func waterfallIgnoresItemWidthsAndEndsAtTheTallestColumn() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 4)), insets: EdgeInsets(top: 1, bottom: 2))
        let layout = try Self.layout([style], [[ItemSize(width: 500, height: 7)]])
        #expect(Self.itemFrames(layout) == [Self.r(0, 1, 25, 7)])
        #expect(layout.contentHeight == 10)
    }

    // MARK: Queries and intersection

    @Test func intersectionIsHalfOpenAndEmptyRectsMeetNothing() {
        let a = Self.r(0, 0, 10, 10)
        #expect(ReferenceLayout.intersects(a, Self.r(5, 5, 10, 10)))
        #expect(!ReferenceLayout.intersects(a, Self.r(10, 0, 5, 5)))  // touching the right edge
        #expect(!ReferenceLayout.intersects(a, Self.r(0, 10, 5, 5)))  // touching the bottom edge
        #expect(!ReferenceLayout.intersects(a, Self.r(-5, -5, 5, 20)))  // touching the left edge
        #expect(!ReferenceLayout.intersects(a, Self.r(2, 2, 0, 5)))  // zero width inside
        #expect(!ReferenceLayout.intersects(a, Self.r(2, 2, 5, 0)))
        #expect(!ReferenceLayout.intersects(a, Self.r(2, 2, -5, 5)))
        #expect(!ReferenceLayout.intersects(Self.r(2, 2, 0, 0), a))
        #expect(ReferenceLayout.intersects(a, Self.r(9.5, 9.5, 100, 100)))
        #expect(ReferenceLayout.intersects(a, a))
    }

    @Test func elementsInRectScansEverything() throws {
        let style = SectionStyle(kind: .list, headerHeight: 5, background: true)
        let layout = try Self.layout([style], [Self.items([10, 10, 0, 10])])
        // Items at 5, 15, 25 (empty), 25; header 0..<5; decoration 0..<35.
        #expect(layout.elements(in: Self.r(0, 15, 100, 10)).map(\.id) == [.item(1, section: 0), .decoration(section: 0)])
        #expect(layout.elements(in: Self.r(0, 4, 1, 2)).map(\.id) == [.item(0, section: 0), .header(section: 0), .decoration(section: 0)])
        #expect(layout.elements(in: Self.r(0, 35, 100, 10)).isEmpty)
        #expect(layout.elements(in: Self.r(0, 0, 0, 100)).isEmpty)
    }

    // MARK: Coverage

    @Test func samplesAreDeterministicAndKeepTheEnds() {
        #expect(ReferenceCoverage.sampledSections(count: 10) == Array(0..<10))
        let sections = ReferenceCoverage.sampledSections(count: 10_000)
        #expect(sections.prefix(8) == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(sections.suffix(8) == Array(9992..<10000))
        #expect(sections.count < 80)
        #expect(sections == sections.sorted() && Set(sections).count == sections.count)
        let items = ReferenceCoverage.sampledItems(count: 1_000_000)
        #expect(items.count < 4200 && items.last == 999_999 && items.first == 0)
        #expect(ReferenceCoverage.automatic.isWhole(itemCount: 300_000))
        #expect(!ReferenceCoverage.automatic.isWhole(itemCount: 300_001))
    }

    @Test func toleranceIsAbsoluteThenUlps() {
        #expect(ReferenceTolerance.equal(100, 100 + 1e-10))
        #expect(!ReferenceTolerance.equal(100, 100 + 1e-8))
        let big = 6e7  // ulp 7.45e-9
        #expect(ReferenceTolerance.equal(big, big + 8 * big.ulp))
        #expect(!ReferenceTolerance.equal(big, big + 9 * big.ulp))
        #expect(!ReferenceTolerance.equal(0, .nan))
    }
}
