import Testing
@testable import LayoutEngine

/// `SectionedLayout` with list, flow and waterfall sections together (docs/engine-semantics.md), against frames
/// computed by hand.
@Suite struct CompositionTests {
    static let width = 400.0

    /// Three styles for four sections (the fourth cycles back to the list style):
    ///  0. list: insets (10, 20, 5, 30), lineSpacing 4, header 44, footer 30, background
    ///  1. flow start/start: insets (5, 10, 5, 10), itemSpacing 10, lineSpacing 8, footer 20
    ///  2. waterfall, 2 columns: insets (0, 8, 0, 8), spacing 8 both ways, header 20, background
    ///  3. (style 0) empty
    static let styles = [
        SectionStyle(
            kind: .list, insets: EdgeInsets(top: 10, left: 20, bottom: 5, right: 30), lineSpacing: 4,
            headerHeight: 44, footerHeight: 30, background: true),
        SectionStyle(
            kind: .flow(justify: .start, align: .start), insets: EdgeInsets(top: 5, left: 10, bottom: 5, right: 10),
            itemSpacing: 10, lineSpacing: 8, footerHeight: 20),
        SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: 2)), insets: EdgeInsets(left: 8, right: 8), itemSpacing: 8,
            lineSpacing: 8, headerHeight: 20, background: true),
    ]

    static func data() throws -> LayoutData {
        try LayoutData(sections: [
            [ItemSize(height: 50), ItemSize(height: 60)],
            [ItemSize(width: 100, height: 40), ItemSize(width: 200, height: 30), ItemSize(width: 100, height: 20)],
            [
                ItemSize(height: 100), ItemSize(height: 50), ItemSize(height: 30),
                ItemSize(height: 10, spansAllColumns: true), ItemSize(height: 20),
            ],
            [],
        ])
    }

    static func layout(_ mode: RectQueryMode = .binary) throws -> SectionedLayout {
        var layout = try SectionedLayout(
            bounds: Rect(x: 0, y: 0, width: width, height: 844), styles: styles, data: data(), queryMode: mode)
        try layout.prepare()
        return layout
    }

    static func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    /// Every element's expected frame, worked out by hand.
    static let expected: [ElementID: Rect] = [
        // Section 0 (list), 0 ..< 203: header 44, inset 10, items at 54 and 54 + 50 + 4, bottom
        // 168 + 5, footer 30.
        .decoration(section: 0): r(0, 0, 400, 203),
        .header(section: 0): r(0, 0, 400, 44),
        .item(0, section: 0): r(20, 54, 350, 50),
        .item(1, section: 0): r(20, 108, 350, 60),
        .footer(section: 0): r(0, 173, 400, 30),
        // Section 1 (flow), 203 ..< 301: no header, inset 5; 100 + 10 + 200 fits in 380, the third
        // item wraps to 208 + 40 + 8; bottom 276 + 5, footer 20.
        .item(0, section: 1): r(10, 208, 100, 40),
        .item(1, section: 1): r(120, 208, 200, 30),
        .item(2, section: 1): r(10, 256, 100, 20),
        .footer(section: 1): r(0, 281, 400, 20),
        // Section 2 (waterfall), 301 ..< 467: header 20; columns (384 - 8) / 2 = 188 wide at 8 and
        // 204. 100 -> col 0; 50 -> col 1; 30 -> col 1 (371 < 421) at 379; full width at
        // max(421, 409) + 8 = 429; 20 -> col 0 (tie, leftmost) at 439 + 8.
        .decoration(section: 2): r(0, 301, 400, 166),
        .header(section: 2): r(0, 301, 400, 20),
        .item(0, section: 2): r(8, 321, 188, 100),
        .item(1, section: 2): r(204, 321, 188, 50),
        .item(2, section: 2): r(204, 379, 188, 30),
        .item(3, section: 2): r(8, 429, 384, 10),
        .item(4, section: 2): r(8, 447, 188, 20),
        // Section 3 (list style again), empty, 467 ..< 556: header 44, insets 10 + 5, footer 30.
        .decoration(section: 3): r(0, 467, 400, 89),
        .header(section: 3): r(0, 467, 400, 44),
        .footer(section: 3): r(0, 526, 400, 30),
    ]

    @Test func framesOfEveryElement() throws {
        let layout = try Self.layout()
        for (id, frame) in Self.expected {
            let attributes = try layout.attributes(for: id)
            #expect(attributes.frame == frame, "\(id)")
            #expect(attributes.zIndex == LayoutFrames.zIndex(of: id.kind))
            #expect(!attributes.isPinned)
        }
        #expect(layout.contentSize == Size(width: 400, height: 556))
        #expect(Set(layout.frames.allElements().map(\.id)) == Set(Self.expected.keys))
    }

    @Test func sectionsStackFromZeroWithoutGaps() throws {
        let frames = try Self.layout().frames
        #expect(frames.sectionTops == [0, 203, 301, 467, 556])
        #expect(frames.itemsRegionTops == [54, 5, 20, 54])
        #expect(frames.itemsRegionBottoms == [168, 73, 166, 54])
    }

    @Test func headersAndFootersAreFullWidthAtTheSectionEdges() throws {
        let layout = try Self.layout()
        let frames = layout.frames
        for s in 0..<frames.sectionCount {
            if let header = frames.headerFrame(s) {
                #expect(header.minX == 0 && header.width == Self.width && header.minY == frames.sectionTops[s])
            }
            if let footer = frames.footerFrame(s) {
                #expect(footer.minX == 0 && footer.width == Self.width && footer.maxY == frames.sectionTops[s + 1])
            }
            if frames.hasBackground[s] {
                let background = try layout.attributes(for: .decoration(section: s)).frame
                #expect(background == frames.sectionFrame(s))
            }
        }
        // No header of height 0, no footer of height 0, no background when off.
        #expect(frames.headerFrame(1) == nil)
        #expect(frames.footerFrame(2) == nil)
        #expect(!frames.hasBackground[1])
    }

    @Test func zIndices() throws {
        let layout = try Self.layout()
        #expect(try layout.attributes(for: .decoration(section: 0)).zIndex == -1)
        #expect(try layout.attributes(for: .item(0, section: 1)).zIndex == 0)
        #expect(try layout.attributes(for: .header(section: 2)).zIndex == 1)
        #expect(try layout.attributes(for: .footer(section: 1)).zIndex == 1)
        var results: [LayoutAttributes] = []
        layout.elements(in: Self.r(0, 0, 400, 556), into: &results)
        for attributes in results {
            let expected = attributes.id.kind == .decoration ? -1 : attributes.id.kind == .item ? 0 : 1
            #expect(attributes.zIndex == expected)
        }
    }

    @Test func stylesCycle() throws {
        let layout = try Self.layout()
        #expect(layout.style(ofSection: 3) == Self.styles[0])
        #expect(layout.style(ofSection: 5) == Self.styles[2])
        // Section 3 got style 0's header, insets and footer.
        #expect(layout.frames.headerHeights[3] == 44 && layout.frames.footerHeights[3] == 30)
    }

    @Test(arguments: RectQueryMode.allCases.filter(\.isExact))
    func queriesReturnTheExpectedElements(mode: RectQueryMode) throws {
        let layout = try Self.layout(mode)
        var results: [LayoutAttributes] = []
        layout.elements(in: Self.r(-10, -10, 420, 600), into: &results)
        #expect(results.count == Self.expected.count)
        #expect(Dictionary(uniqueKeysWithValues: results.map { ($0.id, $0.frame) }) == Self.expected)
        // A band from the flow section's second row to the waterfall's first items, which it
        // only touches: they are excluded.
        layout.elements(in: Self.r(0, 256, 400, 65), into: &results)
        #expect(Set(results.map(\.id)) == [
            .item(2, section: 1), .footer(section: 1), .decoration(section: 2), .header(section: 2),
        ])
        layout.elements(in: Self.r(200, 420, 10, 2), into: &results)
        #expect(Set(results.map(\.id)) == [.decoration(section: 2)])
        layout.elements(in: Self.r(0, 556, 400, 100), into: &results)
        #expect(results.isEmpty)
    }

    @Test func attributesThrowForAMissingElement() throws {
        let layout = try Self.layout()
        let missing: [ElementID] = [
            .item(2, section: 0), .item(-1, section: 0), .item(0, section: 3), .item(0, section: 4),
            .header(section: 1), .footer(section: 2), .decoration(section: 1), .header(section: -1),
            ElementID(kind: .header, section: 0, index: 1),
        ]
        for id in missing {
            #expect(throws: LayoutError.self, "\(id)") { try layout.attributes(for: id) }
        }
    }

    // MARK: Invalid input

    static func make(_ style: SectionStyle, width: Double = 400) throws(LayoutError) -> SectionedLayout {
        try SectionedLayout(bounds: Rect(x: 0, y: 0, width: width, height: 844), styles: [style], data: LayoutData())
    }

    @Test func initRejectsInvalidSizes() {
        let invalid: [Double] = [-1, .nan, .infinity, -.infinity]
        for value in invalid {
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(insets: EdgeInsets(top: value))) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(insets: EdgeInsets(left: value))) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(insets: EdgeInsets(bottom: value))) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(insets: EdgeInsets(right: value))) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(itemSpacing: value)) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(lineSpacing: value)) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(headerHeight: value)) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(footerHeight: value)) }
            #expect(throws: LayoutError.self) { try Self.make(SectionStyle(), width: value) }
            #expect(throws: LayoutError.self) { try LayoutData(sections: [[ItemSize(height: value)]]) }
            #expect(throws: LayoutError.self) { try LayoutData(sections: [[ItemSize(width: value, height: 1)]]) }
        }
        #expect(throws: LayoutError.self) { try Self.make(SectionStyle(), width: 0) }
        #expect(throws: LayoutError.self) {
            try SectionedLayout(bounds: Rect(x: 0, y: 0, width: 400, height: .nan), styles: [SectionStyle()], data: LayoutData())
        }
        #expect(throws: LayoutError.self) {
            try SectionedLayout(bounds: Rect(x: 0, y: 0, width: 400, height: 844), styles: [], data: LayoutData())
        }
    }

    @Test func initRejectsAWidthNotLargerThanTheInsets() throws {
        #expect(throws: LayoutError.self) { try Self.make(SectionStyle(insets: EdgeInsets(left: 200, right: 200))) }
        #expect(throws: LayoutError.self) { try Self.make(SectionStyle(insets: EdgeInsets(left: 300, right: 200))) }
        _ = try Self.make(SectionStyle(insets: EdgeInsets(left: 199.5, right: 200)))
    }

    @Test func initRejectsBadWaterfalls() throws {
        func waterfall(_ columns: Int, _ weights: [Double]? = nil, spacing: Double = 0) -> SectionStyle {
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: columns, weights: weights)), itemSpacing: spacing)
        }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(0)) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(-2)) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(2, [1, 0])) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(2, [1, -1])) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(2, [1, .nan])) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(2, [1, .infinity])) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(2, [1])) }
        #expect(throws: LayoutError.self) { try Self.make(waterfall(3, spacing: 200)) }
        _ = try Self.make(waterfall(3, [1, 2, 0.5], spacing: 8))
        // A bad style anywhere in the list is reported with its index.
        let error = #expect(throws: LayoutError.self) {
            try SectionedLayout(
                bounds: Rect(x: 0, y: 0, width: 400, height: 844), styles: [SectionStyle(), waterfall(0)],
                data: LayoutData())
        }
        #expect(error?.field.hasPrefix("sections[1]") == true)
    }

    @Test func insetsApplyToEmptySectionsOfEveryKind() throws {
        let insets = EdgeInsets(top: 7, left: 1, bottom: 9, right: 1)
        let kinds: [SectionKind] = [
            .list, .flow(justify: .center, align: .end), .waterfall(WaterfallStyle(columns: 3)),
        ]
        let styles = kinds.map { SectionStyle(kind: $0, insets: insets, headerHeight: 3, footerHeight: 2) }
        var layout = try SectionedLayout(
            bounds: Rect(x: 0, y: 0, width: 100, height: 844), styles: styles, data: LayoutData(sections: [[], [], []]))
        try layout.prepare()
        #expect(layout.frames.sectionTops == [0, 21, 42, 63])
        #expect(layout.frames.itemsRegionTops == [10, 10, 10])
        #expect(layout.frames.itemsRegionBottoms == [10, 10, 10])
    }
}
