import Testing
@testable import LayoutEngine

/// The pinning edge cases of docs/engine-semantics.md §7 items 3–8, each by hand, in every pinning mode.
@Suite struct PinningEdgeCaseTests {
    static let width = 390.0

    /// A prepared layout scrolled to `offset` through the UIKit lifecycle.
    static func layout(
        _ styles: [SectionStyle], _ sections: [[Double]], offset: Double, mode: PinningMode,
        viewportHeight: Double = 844, pinOffset: Double = 0
    ) throws -> SectionedLayout {
        let data = try LayoutData(sections: sections.map { $0.map { ItemSize(height: $0) } })
        var layout = try SectionedLayout(
            bounds: Rect(x: 0, y: 0, width: width, height: viewportHeight), styles: styles, data: data,
            pinOffset: pinOffset, pinningMode: mode)
        try layout.prepare()
        let bounds = Rect(x: 0, y: offset, width: width, height: viewportHeight)
        if layout.shouldInvalidate(forBoundsChange: bounds) {
            layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
        }
        try layout.prepare()
        return layout
    }

    static func y(_ layout: SectionedLayout, _ id: ElementID) throws -> Double { try layout.attributes(for: id).frame.y }

    /// Item 3: a header taller than its items never moves above its natural place, and the end of
    /// the items pushes it out (header 100 over one item of 20: E - h = 20).
    @Test(arguments: PinningMode.allCases)
    func headerTallerThanItsItems(mode: PinningMode) throws {
        let style = SectionStyle(headerHeight: 100, headerPin: .normal)
        for (offset, expected) in [(-40.0, 0.0), (0, 0), (10, 10), (20, 20), (50, 20), (119, 20)] {
            let layout = try Self.layout([style], [[20], [500]], offset: offset, mode: mode)
            #expect(try Self.y(layout, .header(section: 0)) == expected, "offset \(offset)")
        }
        let layout = try Self.layout([style], [[20], [500]], offset: 50, mode: mode)
        #expect(try layout.attributes(for: .header(section: 0)).isPinned)
        #expect(try Self.y(layout, .header(section: 1)) == 120)
    }

    /// Item 4: an empty section keeps its header and insets; its header pins only across its top inset.
    @Test(arguments: PinningMode.allCases)
    func emptySection(mode: PinningMode) throws {
        let style = SectionStyle(insets: EdgeInsets(top: 10, left: 0, bottom: 6, right: 0), headerHeight: 40, headerPin: .normal)
        // Section 0 holds 300 pt of items (0..356), section 1 is empty (356..412), section 2 after it.
        for (offset, expected) in [(356.0, 356.0), (361, 361), (366, 366), (380, 366), (700, 366)] {
            let layout = try Self.layout([style], [[100, 100, 100], [], [1000]], offset: offset, mode: mode)
            #expect(try Self.y(layout, .header(section: 1)) == expected, "offset \(offset)")
        }
    }

    /// Item 5: in the last section a normal header stays pushed by the end of its items during the
    /// overscroll past the end, while a stacked header stays pinned at the visible top.
    @Test(arguments: PinningMode.allCases)
    func lastSectionOverscroll(mode: PinningMode) throws {
        let normal = SectionStyle(headerHeight: 44, headerPin: .normal)
        // Content 0..1044: header 0..44, items 44..1044; the end of scrolling is 200.
        let layout = try Self.layout([normal], [[1000]], offset: 260, mode: mode)
        #expect(try Self.y(layout, .header(section: 0)) == 260)
        let past = try Self.layout([normal], [[1000]], offset: 1010, mode: mode)
        #expect(try Self.y(past, .header(section: 0)) == 1000)
        let stacked = SectionStyle(headerHeight: 44, headerPin: .stacked)
        let stackedPast = try Self.layout([stacked], [[1000]], offset: 1300, mode: mode)
        #expect(try Self.y(stackedPast, .header(section: 0)) == 1300)
        let above = try Self.layout([normal], [[1000]], offset: -60, mode: mode)
        #expect(try Self.y(above, .header(section: 0)) == 0)
        #expect(try !above.attributes(for: .header(section: 0)).isPinned)
    }

    /// Item 6: the end of the items region excludes the bottom inset and the footer; the footer
    /// stops at the top of the items region, which includes the top inset.
    @Test(arguments: PinningMode.allCases)
    func insets(mode: PinningMode) throws {
        let style = SectionStyle(
            insets: EdgeInsets(top: 10, left: 8, bottom: 30, right: 8), headerHeight: 40, footerHeight: 20,
            headerPin: .normal, footerPin: .normal)
        // Section 0: header 0..40, top inset, items 50..350, bottom inset, footer 380..400.
        let sections: [[Double]] = [[100, 100, 100], [2000]]
        let deep = try Self.layout([style], sections, offset: 330, mode: mode)
        #expect(try Self.y(deep, .header(section: 0)) == 310)
        let middle = try Self.layout([style], sections, offset: 100, mode: mode, viewportHeight: 200)
        #expect(try Self.y(middle, .header(section: 0)) == 100)
        #expect(try Self.y(middle, .footer(section: 0)) == 280)  // B - h = 300 - 20
        let low = try Self.layout([style], sections, offset: -200, mode: mode, viewportHeight: 210)
        #expect(try Self.y(low, .footer(section: 0)) == 50)      // held at the items' top
        let below = try Self.layout([style], sections, offset: 0, mode: mode, viewportHeight: 300)
        #expect(try Self.y(below, .footer(section: 1)) == 400 + 40 + 10)  // resting at its items' top
    }

    /// Item 8: stacked headers accumulate, and normal headers pin below them (a two-level list).
    @Test(arguments: PinningMode.allCases)
    func stackedOffsets(mode: PinningMode) throws {
        let top = SectionStyle(headerHeight: 30, headerPin: .stacked)
        let second = SectionStyle(headerHeight: 20, headerPin: .stacked)
        let normal = SectionStyle(headerHeight: 40, headerPin: .normal)
        // Sections of 500 pt of items: 0: 0..530, 1: 530..1050, 2: 1050..1590, 3: 1590..2130.
        let sections: [[Double]] = [[500], [500], [500], [500]]
        let styles = [top, second, normal, normal]
        let layout = try Self.layout(styles, sections, offset: 1100, mode: mode, pinOffset: 10)
        #expect(try Self.y(layout, .header(section: 0)) == 1110)
        #expect(try Self.y(layout, .header(section: 1)) == 1140)
        #expect(try Self.y(layout, .header(section: 2)) == 1160)
        #expect(try Self.y(layout, .header(section: 3)) == 1590)
        // On the push boundary: header 2 ends where its items end (1590).
        let pushed = try Self.layout(styles, sections, offset: 1540, mode: mode, pinOffset: 10)
        #expect(try Self.y(pushed, .header(section: 2)) == 1550)
        #expect(try Self.y(pushed, .header(section: 3)) == 1600)
        // The viewport query returns the stacked headers although their natural frames are far above.
        var results: [LayoutAttributes] = []
        layout.elements(in: Rect(x: 0, y: 1100, width: Self.width, height: 844), into: &results)
        let headers = results.filter { $0.id.kind == .header }.sorted { $0.id < $1.id }
        #expect(headers.map(\.id.section) == [0, 1, 2, 3])
        #expect(headers.map(\.isPinned) == [true, true, true, false])
        // Later sections draw above earlier ones; pinned headers above items.
        #expect(headers.map(\.zIndex) == headers.map(\.zIndex).sorted())
        #expect(Set(headers.map(\.zIndex)).count == 4)
        #expect(results.filter { $0.id.kind == .item }.allSatisfy { $0.zIndex < headers[0].zIndex })
    }

    /// Item 7: a footer taller than the viewport is held at the top of its items.
    @Test(arguments: PinningMode.allCases)
    func footerTallerThanTheViewport(mode: PinningMode) throws {
        let style = SectionStyle(footerHeight: 1000, footerPin: .normal)
        let sections: [[Double]] = [Array(repeating: 100, count: 20), [100]]
        let top = try Self.layout([style], sections, offset: 0, mode: mode)
        #expect(try Self.y(top, .footer(section: 0)) == 0)
        let middle = try Self.layout([style], sections, offset: 1500, mode: mode)
        #expect(try Self.y(middle, .footer(section: 0)) == 1344)
        let past = try Self.layout([style], sections, offset: 2500, mode: mode)
        #expect(try Self.y(past, .footer(section: 0)) == 2000)
        #expect(try !past.attributes(for: .footer(section: 0)).isPinned)
        var results: [LayoutAttributes] = []
        middle.elements(in: Rect(x: 0, y: 1500, width: Self.width, height: 844), into: &results)
        let footer = try #require(results.first { $0.id == .footer(section: 0) })
        #expect(footer.isPinned && footer.zIndex == PinnedElements.footerZIndex && footer.zIndex > 0)
    }

    /// A rect query returns a pinned header whose natural frame lies outside the rect.
    @Test(arguments: PinningMode.allCases)
    func pinnedHeaderOutsideItsNaturalFrame(mode: PinningMode) throws {
        let style = SectionStyle(headerHeight: 44, headerPin: .normal)
        let layout = try Self.layout([style], [Array(repeating: 50, count: 100)], offset: 1000, mode: mode, pinOffset: 64)
        var results: [LayoutAttributes] = []
        layout.elements(in: Rect(x: 0, y: 1000, width: Self.width, height: 844), into: &results)
        let header = try #require(results.first { $0.id.kind == .header })
        #expect(header.frame == Rect(x: 0, y: 1064, width: Self.width, height: 44))
        #expect(header.isPinned && header.zIndex > 0)
        // Only once, even when the natural frame is in the rect too.
        layout.elements(in: Rect(x: 0, y: 0, width: Self.width, height: 2000), into: &results)
        #expect(results.filter { $0.id.kind == .header }.count == 1)
    }

    /// `shouldInvalidate(forBoundsChange:)` is true only when something pinned can move.
    @Test func invalidationOnlyWhenSomethingPinnedCanMove() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 5000)]])
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        let scrolled = Rect(x: 0, y: 100, width: 390, height: 844)
        let taller = Rect(x: 0, y: 0, width: 390, height: 900)
        let wider = Rect(x: 0, y: 0, width: 400, height: 844)
        let plain = try SectionedLayout(bounds: bounds, styles: [SectionStyle(headerHeight: 44)], data: data)
        #expect(!plain.shouldInvalidate(forBoundsChange: scrolled))
        #expect(plain.shouldInvalidate(forBoundsChange: wider))
        let headers = try SectionedLayout(bounds: bounds, styles: [SectionStyle(headerHeight: 44, headerPin: .normal)], data: data)
        #expect(headers.shouldInvalidate(forBoundsChange: scrolled))
        #expect(!headers.shouldInvalidate(forBoundsChange: taller))
        // A pin without a header pins nothing.
        let noHeader = try SectionedLayout(bounds: bounds, styles: [SectionStyle(headerPin: .stacked)], data: data)
        #expect(!noHeader.shouldInvalidate(forBoundsChange: scrolled))
        let footers = try SectionedLayout(bounds: bounds, styles: [SectionStyle(footerHeight: 30, footerPin: .normal)], data: data)
        #expect(footers.shouldInvalidate(forBoundsChange: taller))
        #expect(footers.shouldInvalidate(forBoundsChange: scrolled))
    }

    /// A bounds-only invalidation keeps the item frames, except in `relayout`, which lays out again.
    @Test(arguments: PinningMode.allCases)
    func boundsOnlyInvalidationKeepsItemFrames(mode: PinningMode) throws {
        let style = SectionStyle(headerHeight: 44, headerPin: .normal)
        var layout = try Self.layout([style], [Array(repeating: 50, count: 100)], offset: 0, mode: mode)
        let passes = layout.layoutPasses, frames = layout.frames
        for offset in stride(from: 10.0, through: 400, by: 30) {
            let bounds = Rect(x: 0, y: offset, width: Self.width, height: 844)
            #expect(layout.shouldInvalidate(forBoundsChange: bounds))
            layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
            try layout.prepare()
        }
        #expect(layout.frames == frames)
        #expect(layout.layoutPasses == passes + (mode == .relayout ? 14 : 0))
    }

    /// A negative or NaN pinOffset is refused with its field.
    @Test func badPinOffset() throws {
        for bad in [-1.0, .nan, .infinity] {
            #expect(throws: LayoutError.self) {
                try SectionedLayout(bounds: Rect(x: 0, y: 0, width: 390, height: 844), styles: [SectionStyle()],
                                    data: LayoutData(), pinOffset: bad)
            }
        }
    }
}
