import Testing
@testable import LayoutEngine

/// `LayoutFrames.invariantViolation()` finds each kind of broken invariant, and the layouts and
/// updaters keep them (they run `_checkInvariants()` after every prepare and apply in debug builds).
@Suite struct FramesInvariantTests {
    static func frames() throws -> LayoutFrames {
        let styles = [
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)), headerHeight: 10, footerHeight: 5),
            SectionStyle(kind: .list, insets: EdgeInsets(top: 3, bottom: 4)),
        ]
        let data = try LayoutData(sections: [[ItemSize(height: 10), ItemSize(height: 20)], [], [ItemSize(height: 7)]])
        return SectionedLayout.computeFrames(bounds: Rect(x: 0, y: 0, width: 100, height: 100), styles: styles, data: data)
    }

    @Test func aFreshLayoutKeepsEveryInvariant() throws {
        #expect(try Self.frames().invariantViolation() == nil)
        #expect(LayoutFrames().invariantViolation() == nil)
    }

    /// The case the property tests shrank to: a list section of one zero-height item, with an
    /// arbitrary top inset and line spacing. Its region ended at `(top + spacing) - spacing`,
    /// one ulp below its top, and `prepare` stopped the debug build.
    @Test func aZeroHeightListItemEndsItsRegionAtItsTop() throws {
        let style = SectionStyle(kind: .list, insets: EdgeInsets(top: 18.146512752125826), lineSpacing: 12.407978279135532)
        let data = try LayoutData(sections: [[ItemSize(width: 0, height: 0)]])
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        let frames = SectionedLayout.computeFrames(bounds: bounds, styles: [style], data: data)
        #expect(frames.invariantViolation() == nil)
        #expect(frames.itemsRegionBottoms[0] == frames.itemsRegionTops[0])
        var layout = try SectionedLayout(bounds: bounds, styles: [style], data: data)
        try layout.prepare()
    }

    /// The incremental case the property tests shrank to: two zero-height rows under a header of
    /// arbitrary height; the first grows and shrinks back to 0. The second row's shifted top,
    /// old + (top - old), rounded an ulp below the region's top, and the region ended there.
    @Test func anIncrementalListUpdateEndsTheRegionAtItsTop() throws {
        let style = SectionStyle(kind: .list, headerHeight: 0.25003356643667074)
        let data = try LayoutData(sections: [[ItemSize(width: 0, height: 0), ItemSize(width: 0, height: 0)]])
        var updater = try IncrementalWaterfallUpdater(bounds: Rect(x: 0, y: 0, width: 390, height: 600), styles: [style], data: data)
        try updater.apply(.setHeight(section: 0, item: 0, height: 0.003333333333333334 * 300))
        try updater.apply(.setHeight(section: 0, item: 0, height: 0))
        #expect(updater.frames.invariantViolation() == nil)
        #expect(updater.frames.itemsRegionBottoms[0] == updater.frames.itemsRegionTops[0])
    }

    /// The stable-lanes case the property tests shrank to: a 1-column waterfall under a header of
    /// arbitrary height; a section of two zero-height items is inserted, the first grows and
    /// shrinks back to 0. The region must end at its top, not an ulp above or below it.
    @Test func aStableLanesHeightEditEndsTheRegionAtItsTop() throws {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 1)), headerHeight: 1.8296227385042194)
        let bounds = Rect(x: 0, y: 0, width: 390, height: 600)
        var updater = try StableLanesUpdater(bounds: bounds, styles: [style], data: LayoutData())
        try updater.apply(.insertSection(at: 0, items: [ItemSize(width: 0, height: 0), ItemSize(width: 0, height: 0)]))
        try updater.apply(.setHeight(section: 0, item: 0, height: 2))
        try updater.apply(.setHeight(section: 0, item: 0, height: 0))
        #expect(updater.frames.invariantViolation() == nil)
        #expect(updater.frames.itemsRegionBottoms[0] == updater.frames.itemsRegionTops[0])
    }

    @Test func eachBrokenInvariantIsNamed() throws {
        var frames = try Self.frames()
        frames.itemWidth.removeLast()
        #expect(frames.invariantViolation()?.hasPrefix("item arrays disagree") == true)

        frames = try Self.frames()
        frames.footerHeights.append(0)
        #expect(frames.invariantViolation()?.hasPrefix("footerHeights has 4 entries") == true)

        frames = try Self.frames()
        frames.sectionTops[2] = frames.sectionTops[1] - 1
        #expect(frames.invariantViolation()?.hasPrefix("section tops decrease") == true)

        frames = try Self.frames()
        frames.itemMinY[1] = .nan
        #expect(frames.invariantViolation()?.hasPrefix("item 1 has frame") == true)

        frames = try Self.frames()
        frames.itemHeight[0] = -1
        #expect(frames.invariantViolation()?.hasPrefix("item 0 has frame") == true)

        frames = try Self.frames()
        frames.sectionItemStarts[3] += 1
        #expect(frames.invariantViolation()?.hasPrefix("item starts run") == true)

        frames = try Self.frames()
        frames.itemsRegionBottoms[0] = frames.itemsRegionTops[0] - 1
        #expect(frames.invariantViolation()?.hasPrefix("section 0 has an items region") == true)
    }
}
