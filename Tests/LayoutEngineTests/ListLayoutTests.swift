import Testing
@testable import LayoutEngine

@Suite struct ListLayoutTests {
    let bounds = Rect(x: 0, y: 0, width: 320, height: 480)

    func prepared(_ layout: SectionedLayout) throws -> SectionedLayout {
        var layout = layout
        try layout.prepare()
        return layout
    }

    @Test func singleSectionFramesByHand() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 44), ItemSize(height: 60), ItemSize(height: 10)]])
        let style = SectionStyle(insets: EdgeInsets(top: 5, left: 10, bottom: 7, right: 20), lineSpacing: 2,
                                 headerHeight: 30, footerHeight: 12)
        let layout = try prepared(SectionedLayout.list(bounds: bounds, data: data, style: style))
        // Header at 0 (30 high), top inset 5, items from y = 35 at x 10, width 290.
        #expect(try layout.attributes(for: .header(section: 0)).frame == Rect(x: 0, y: 0, width: 320, height: 30))
        #expect(try layout.attributes(for: .item(0, section: 0)).frame == Rect(x: 10, y: 35, width: 290, height: 44))
        #expect(try layout.attributes(for: .item(1, section: 0)).frame == Rect(x: 10, y: 81, width: 290, height: 60))
        #expect(try layout.attributes(for: .item(2, section: 0)).frame == Rect(x: 10, y: 143, width: 290, height: 10))
        // Items end at 153, bottom inset 7, footer 12 high at 160.
        #expect(try layout.attributes(for: .footer(section: 0)).frame == Rect(x: 0, y: 160, width: 320, height: 12))
        #expect(layout.contentSize == Size(width: 320, height: 172))
        #expect(try layout.attributes(for: .header(section: 0)).zIndex == 1)
        #expect(try layout.attributes(for: .item(0, section: 0)).zIndex == 0)
    }

    @Test func sectionsStackWithoutGapAndEmptySectionsKeepInsets() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 10)], [], [ItemSize(height: 20), ItemSize(height: 5)]])
        let style = SectionStyle(insets: EdgeInsets(top: 3, left: 0, bottom: 4, right: 0), lineSpacing: 1,
                                 headerHeight: 8, background: true)
        let layout = try prepared(SectionedLayout.list(bounds: bounds, data: data, style: style))
        // Section 0: header 8, inset 3, item 10, inset 4 = 25.
        // Section 1 (empty): header 8, inset 3 + 4 = 15, from 25 to 40.
        // Section 2: 8 + 3 + 20 + 1 + 5 + 4 = 41, from 40 to 81.
        #expect(layout.frames.sectionTops == [0, 25, 40, 81])
        #expect(try layout.attributes(for: .header(section: 1)).frame == Rect(x: 0, y: 25, width: 320, height: 8))
        #expect(try layout.attributes(for: .item(0, section: 2)).frame == Rect(x: 0, y: 51, width: 320, height: 20))
        #expect(try layout.attributes(for: .item(1, section: 2)).frame == Rect(x: 0, y: 72, width: 320, height: 5))
        #expect(try layout.attributes(for: .decoration(section: 1)).frame == Rect(x: 0, y: 25, width: 320, height: 15))
        #expect(try layout.attributes(for: .decoration(section: 1)).zIndex == -1)
        #expect(throws: LayoutError.self) { try layout.attributes(for: .item(0, section: 1)) }
        #expect(throws: LayoutError.self) { try layout.attributes(for: .footer(section: 0)) }
        #expect(throws: LayoutError.self) { try layout.attributes(for: .header(section: 3)) }
    }

    @Test func zeroHeightItemsOccupyNoSpaceButKeepSpacing() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 0), ItemSize(height: 0), ItemSize(height: 10)]])
        let layout = try prepared(SectionedLayout.list(bounds: bounds, data: data, style: SectionStyle(lineSpacing: 4)))
        #expect(try layout.attributes(for: .item(2, section: 0)).frame.minY == 8)
        var results: [LayoutAttributes] = []
        layout.elements(in: Rect(x: 0, y: -10, width: 320, height: 100), into: &results)
        #expect(results.map(\.id) == [.item(2, section: 0)])
    }

    @Test func widthChangeRelayoutsAndScrollDoesNot() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 44)]])
        var layout = try prepared(SectionedLayout.list(bounds: bounds, data: data))
        #expect(!layout.shouldInvalidate(forBoundsChange: Rect(x: 0, y: 300, width: 320, height: 480)))
        let rotated = Rect(x: 0, y: 0, width: 480, height: 320)
        #expect(layout.shouldInvalidate(forBoundsChange: rotated))
        layout.invalidate(with: layout.invalidationContext(forBoundsChange: rotated))
        try layout.prepare()
        #expect(try layout.attributes(for: .item(0, section: 0)).frame.width == 480)
    }

    @Test func dataChangesTakeEffectAtPrepare() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 10), ItemSize(height: 10)]])
        var layout = try prepared(SectionedLayout.list(bounds: bounds, data: data))
        try layout.updateData { (data: inout LayoutData) throws(LayoutError) in
            try data.insertItems([ItemSize(height: 5)], section: 0, at: 1)
        }
        try layout.prepare()
        #expect(try layout.attributes(for: .item(2, section: 0)).frame.minY == 15)
        #expect(layout.contentSize.height == 25)
    }

    @Test func badInputIsATypedErrorNamingTheField() throws {
        func field(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch let error as LayoutError { return error.field } catch { return "other" }
        }
        #expect(field { _ = try LayoutData(sections: [[ItemSize(height: -1)]]) } == "sections[0].items[0].height")
        #expect(field { _ = try LayoutData(sections: [[ItemSize(height: 1), ItemSize(height: .nan)]]) } == "sections[0].items[1].height")
        #expect(field { _ = try LayoutData(sections: [[ItemSize(width: .infinity, height: 1)]]) } == "sections[0].items[0].width")
        #expect(field { _ = try LayoutData(widths: [1], heights: [1], counts: [-1, 2]) } == "sections[0].count")
        let data = try LayoutData(sections: [[ItemSize(height: 1)]])
        #expect(field { _ = try SectionedLayout.list(bounds: bounds, data: data, style: SectionStyle(lineSpacing: -2)) }
            == "sections[0].lineSpacing")
        #expect(field { _ = try SectionedLayout.list(bounds: bounds, data: data, style: SectionStyle(headerHeight: .infinity)) }
            == "sections[0].header.height")
        #expect(field {
            _ = try SectionedLayout.list(bounds: bounds, data: data, style: SectionStyle(insets: EdgeInsets(left: 200, right: 120)))
        } == "sections[0].insets")
        #expect(field { _ = try SectionedLayout.list(bounds: Rect(x: 0, y: 0, width: .nan, height: 1), data: data) }
            == "viewport.width")
        var mutable = data
        #expect(field { try mutable.setHeight(-3, section: 0, item: 0) } == "sections[0].items[0].height")
        #expect(field { try mutable.removeItems(section: 0, at: 1) } == "item")
        #expect(field { try mutable.removeSection(at: 4) } == "section")
        #expect(mutable == data, "a failed mutation leaves the data unchanged")
    }

    /// UIKit's moves and reloads: a move is a removal and an insert (never a swap), across sections
    /// too; a section move keeps the section whole; a reload replaces sizes, width included; every
    /// index that does not exist is a `LayoutError` naming the field, the data unchanged.
    @Test func movesAndReloads() throws {
        func size(_ h: Double) -> ItemSize { ItemSize(width: h / 10, height: h) }
        let data = try LayoutData(sections: [[size(10), size(20), size(30)], [size(40)], []])
        func heights(_ d: LayoutData) -> [[Double]] {
            (0..<d.sectionCount).map { s in d.itemRange(inSection: s).map { d.heights[$0] } }
        }
        var d = data
        try LayoutChange.moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 2)).apply(to: &d)
        #expect(heights(d) == [[20, 30, 10], [40], []])
        try LayoutChange.moveItem(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 2, item: 0)).apply(to: &d)
        #expect(heights(d) == [[20, 10], [40], [30]])
        #expect(d.widths == [2, 1, 4, 3], "a moved item keeps its width")
        try LayoutChange.moveItem(from: ItemPath(section: 1, item: 0), to: ItemPath(section: 0, item: 2)).apply(to: &d)
        #expect(heights(d) == [[20, 10, 40], [], [30]])
        try LayoutChange.moveSection(from: 0, to: 2).apply(to: &d)
        #expect(heights(d) == [[], [30], [20, 10, 40]])
        try LayoutChange.moveSection(from: 2, to: 0).apply(to: &d)
        #expect(heights(d) == [[20, 10, 40], [], [30]])
        try LayoutChange.reloadItems(section: 0, at: 1, items: [ItemSize(width: 77, height: 5, spansAllColumns: true), size(6)]).apply(to: &d)
        #expect(heights(d) == [[20, 5, 6], [], [30]])
        #expect(d.widths[1] == 77 && d.spansAllColumns[1])

        func field(_ change: LayoutChange) -> String? {
            var copy = data
            let apply: () throws -> Void = { try change.apply(to: &copy) }
            do { try apply() } catch let error as LayoutError { return copy == data ? error.field : "changed the data" } catch {
                return "other"
            }
            return nil
        }
        let p = ItemPath.init(section:item:)
        #expect(field(.moveItem(from: p(0, 3), to: p(0, 0))) == "from")
        #expect(field(.moveItem(from: p(2, 0), to: p(0, 0))) == "from")
        #expect(field(.moveItem(from: p(-1, 0), to: p(0, 0))) == "from")
        #expect(field(.moveItem(from: p(0, 0), to: p(3, 0))) == "to.section")
        #expect(field(.moveItem(from: p(0, 0), to: p(0, 3))) == "to.item", "within a section the last index is count − 1")
        #expect(field(.moveItem(from: p(0, 0), to: p(1, 1))) == nil, "into another section the count itself is an index")
        #expect(field(.moveItem(from: p(0, 0), to: p(1, 2))) == "to.item")
        #expect(field(.moveItem(from: p(0, 0), to: p(1, -1))) == "to.item")
        #expect(field(.moveSection(from: 3, to: 0)) == "from")
        #expect(field(.moveSection(from: 0, to: 3)) == "to")
        #expect(field(.moveSection(from: 1, to: 1)) == nil)
        #expect(field(.reloadItems(section: 0, at: 2, items: [size(1), size(2)])) == "item")
        #expect(field(.reloadItems(section: 3, at: 0, items: [size(1)])) == "item")
        #expect(field(.reloadItems(section: 0, at: 1, items: [size(1), ItemSize(width: .nan, height: 1)])) == "sections[0].items[2].width")
        #expect(field(.reloadItems(section: 1, at: 0, items: [ItemSize(height: -4)])) == "sections[1].items[0].height")
    }
}
