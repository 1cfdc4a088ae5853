import Testing
@testable import LayoutEngine

/// Waterfall placement (docs/engine-semantics.md) against cases computed by hand.
@Suite struct WaterfallLayoutTests {
    static func frames(
        width: Double = 320, _ style: SectionStyle, _ sections: [[ItemSize]]
    ) throws -> LayoutFrames {
        SectionedLayout.computeFrames(
            bounds: Rect(x: 0, y: 0, width: width, height: 800), styles: [style],
            data: try LayoutData(sections: sections))
    }

    static func item(_ h: Double, full: Bool = false) -> ItemSize { ItemSize(height: h, spansAllColumns: full) }

    static func rect(_ f: LayoutFrames, _ id: ElementID) -> Rect? { f.frame(of: id) }

    /// Region 300 wide at x 10, three columns of 90 with 15 between: x = 10, 115, 220.
    static let threeColumns = SectionStyle(
        kind: .waterfall(WaterfallStyle(columns: 3)), insets: EdgeInsets(top: 8, left: 10, bottom: 4, right: 10),
        itemSpacing: 15, lineSpacing: 5, headerHeight: 20, footerHeight: 12, background: true)

    @Test func shortestColumnTiesGoLeftAndSpacingOnlyUnderAnItem() throws {
        let f = try Self.frames(Self.threeColumns, [[100, 50, 50, 30, 10].map { Self.item($0) }])
        // Items region starts at header 20 + top inset 8 = 28.
        #expect(Self.rect(f, .item(0, section: 0)) == Rect(x: 10, y: 28, width: 90, height: 100))
        #expect(Self.rect(f, .item(1, section: 0)) == Rect(x: 115, y: 28, width: 90, height: 50))  // tie 28/28: leftmost free
        #expect(Self.rect(f, .item(2, section: 0)) == Rect(x: 220, y: 28, width: 90, height: 50))
        #expect(Self.rect(f, .item(3, section: 0)) == Rect(x: 115, y: 83, width: 90, height: 30))  // 78 = 78: leftmost
        #expect(Self.rect(f, .item(4, section: 0)) == Rect(x: 220, y: 83, width: 90, height: 10))
        // Region ends at the tallest column (128); then bottom inset 4 and footer 12.
        #expect(f.itemsRegionBottoms[0] == 128)
        #expect(Self.rect(f, .header(section: 0)) == Rect(x: 0, y: 0, width: 320, height: 20))
        #expect(Self.rect(f, .footer(section: 0)) == Rect(x: 0, y: 132, width: 320, height: 12))
        #expect(Self.rect(f, .decoration(section: 0)) == Rect(x: 0, y: 0, width: 320, height: 144))
        #expect(f.contentHeight == 144)
    }

    @Test func fullWidthItemsStartBelowTheTallestColumnAndLevelAll() throws {
        let items = [Self.item(100), Self.item(50), Self.item(50), Self.item(20, full: true), Self.item(10), Self.item(7)]
        let f = try Self.frames(Self.threeColumns, [items])
        // Tallest column ends at 128; plus line spacing 5.
        #expect(Self.rect(f, .item(3, section: 0)) == Rect(x: 10, y: 133, width: 300, height: 20))
        // Every column now ends at 153 and holds an item: next items at 158, leftmost first.
        #expect(Self.rect(f, .item(4, section: 0)) == Rect(x: 10, y: 158, width: 90, height: 10))
        #expect(Self.rect(f, .item(5, section: 0)) == Rect(x: 115, y: 158, width: 90, height: 7))
        #expect(f.itemsRegionBottoms[0] == 168)
    }

    @Test func leadingFullWidthItemHasNoSpacingAbove() throws {
        let f = try Self.frames(Self.threeColumns, [[Self.item(40, full: true), Self.item(10)]])
        #expect(Self.rect(f, .item(0, section: 0)) == Rect(x: 10, y: 28, width: 300, height: 40))
        #expect(Self.rect(f, .item(1, section: 0)) == Rect(x: 10, y: 73, width: 90, height: 10))
    }

    @Test func weightsGiveProportionalColumns() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2, weights: [1, 3])), itemSpacing: 20)
        let f = try Self.frames(width: 420, style, [[50, 20, 10].map { Self.item($0) }])
        // 400 points shared 1:3 after one gap of 20.
        #expect(Self.rect(f, .item(0, section: 0)) == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(Self.rect(f, .item(1, section: 0)) == Rect(x: 120, y: 0, width: 300, height: 20))
        #expect(Self.rect(f, .item(2, section: 0)) == Rect(x: 120, y: 20, width: 300, height: 10))
    }

    @Test func emptySectionKeepsHeaderInsetsAndFooter() throws {
        let style = SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: 3)), insets: EdgeInsets(top: 5, left: 0, bottom: 7, right: 0),
            headerHeight: 10, footerHeight: 3)
        let f = try Self.frames(style, [[], [Self.item(30)]])
        #expect(f.itemsRegionBottoms[0] == 15)
        #expect(f.sectionTops[1] == 25)
        #expect(Self.rect(f, .footer(section: 0)) == Rect(x: 0, y: 22, width: 320, height: 3))
        #expect(Self.rect(f, .item(0, section: 1)) == Rect(x: 0, y: 40, width: 320.0 / 3, height: 30))
        #expect(f.contentHeight == 25 + 15 + 30 + 7 + 3)
    }

    @Test func oneColumnStacksAndFullWidthBehavesTheSame() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 1)), lineSpacing: 4)
        let f = try Self.frames(style, [[Self.item(10), Self.item(20, full: true), Self.item(5)]])
        #expect(Self.rect(f, .item(0, section: 0)) == Rect(x: 0, y: 0, width: 320, height: 10))
        #expect(Self.rect(f, .item(1, section: 0)) == Rect(x: 0, y: 14, width: 320, height: 20))
        #expect(Self.rect(f, .item(2, section: 0)) == Rect(x: 0, y: 38, width: 320, height: 5))
    }

    @Test func zeroHeightItemsTieOnBottomsNotOnOccupancy() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)), lineSpacing: 5)
        let f = try Self.frames(width: 200, style, [[0, 0, 0].map { Self.item($0) }])
        // Both columns end at 0 after item 0, so item 1 goes left again, under item 0.
        #expect(Self.rect(f, .item(0, section: 0))?.y == 0)
        #expect(Self.rect(f, .item(1, section: 0)) == Rect(x: 0, y: 5, width: 100, height: 0))
        #expect(Self.rect(f, .item(2, section: 0)) == Rect(x: 100, y: 0, width: 100, height: 0))
    }

    @Test func renderDirectionsIgnoreHeights() throws {
        let heights = [100, 10, 10, 10].map { Self.item($0) }
        var style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3, direction: .leftToRight)), lineSpacing: 5)
        var f = try Self.frames(width: 300, style, [heights])
        #expect(f.itemMinX == [0, 100, 200, 0])
        #expect(Self.rect(f, .item(3, section: 0))?.y == 105)  // column 0 although it is the tallest
        style.kind = .waterfall(WaterfallStyle(columns: 3, direction: .rightToLeft))
        f = try Self.frames(width: 300, style, [heights])
        #expect(f.itemMinX == [200, 100, 0, 200])
        #expect(Self.rect(f, .item(3, section: 0))?.y == 105)
    }

    @Test func sectionsStackWithoutGaps() throws {
        let f = try Self.frames(Self.threeColumns, [[Self.item(100)], [Self.item(10)]])
        #expect(f.sectionTops == [0, 144, 144 + 20 + 8 + 10 + 4 + 12])
        #expect(Self.rect(f, .item(0, section: 1)) == Rect(x: 10, y: 144 + 28, width: 90, height: 10))
    }
}
