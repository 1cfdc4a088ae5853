import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

/// The list-specific differential tests of the foundation: every exact query mode returns the
/// set `linear` returns. (The all-layouts differential suite lives in QueryDifferentialTests.)
@Suite struct ListQueryTests {
    static let exactModes: [RectQueryMode] = RectQueryMode.allCases.filter(\.isExact)

    static func ids(_ layout: SectionedLayout, _ rect: Rect) -> [ElementID] {
        var results: [LayoutAttributes] = []
        layout.elements(in: rect, into: &results)
        return results.map(\.id).sorted()
    }

    static func layout(_ data: LayoutData, style: SectionStyle, mode: RectQueryMode) throws -> SectionedLayout {
        var layout = try SectionedLayout.list(bounds: Rect(x: 0, y: 0, width: 390, height: 844), data: data, style: style, queryMode: mode)
        try layout.prepare()
        return layout
    }

    @Test func randomListsAndRects() throws {
        var random = SeededRandom(seed: 2026)
        for _ in 0..<300 {
            let sections = random.int(1...6)
            let data = try LayoutData(sections: (0..<sections).map { _ in
                (0..<random.int(0...80)).map { _ in
                    ItemSize(height: random.chance(0.1) ? 0 : random.double(0...(random.chance(0.05) ? 5000 : 120)))
                }
            })
            let style = SectionStyle(
                insets: EdgeInsets(top: random.double(0...20), left: random.double(0...30), bottom: random.double(0...20), right: random.double(0...30)),
                lineSpacing: random.chance(0.3) ? 0 : random.double(0...10),
                headerHeight: random.chance(0.5) ? 0 : random.double(0...50),
                footerHeight: random.chance(0.5) ? 0 : random.double(0...50),
                background: random.chance(0.3))
            let layouts = try Self.exactModes.map { try Self.layout(data, style: style, mode: $0) }
            let height = layouts[0].contentSize.height
            let elements = layouts[0].frames.allElements()
            for _ in 0..<40 {
                var rect: Rect
                switch random.int(0...5) {
                case 0: rect = Rect(x: 0, y: random.double(-900...height + 100), width: 390, height: 844)
                case 1: rect = Rect(x: random.double(-10...400), y: random.double(-10...height), width: random.double(0...3), height: random.double(0...3))
                case 2 where !elements.isEmpty:
                    // Touching an element's edge exactly from above or below.
                    let frame = elements[random.int(0...elements.count - 1)].frame
                    rect = random.chance(0.5) ? Rect(x: 0, y: frame.maxY, width: 390, height: 30)
                                              : Rect(x: 0, y: frame.minY - 30, width: 390, height: 30)
                case 3: rect = Rect(x: -1e6, y: -1e6, width: 3e6, height: 3e6 + height)
                case 4: rect = Rect(x: 0, y: random.chance(0.5) ? -500 : height, width: 390, height: random.chance(0.5) ? 500 : 0)
                default: rect = Rect(x: random.double(-100...400), y: random.double(-100...height), width: random.double(0...500), height: random.double(0...900))
                }
                let expected = Self.ids(layouts[0], rect)
                for layout in layouts.dropFirst() {
                    #expect(Self.ids(layout, rect) == expected, "\(layout.queryMode) disagrees for \(rect)")
                }
            }
        }
    }

    @Test func oneMillionItems() throws {
        var random = SeededRandom(seed: 7)
        let count = 1_000_000
        let heights = (0..<count).map { _ in random.double(20...200) }
        let data = try LayoutData(widths: [Double](repeating: 0, count: count), heights: heights, counts: [count])
        let style = SectionStyle(lineSpacing: 1, headerHeight: 40)
        let linear = try Self.layout(data, style: style, mode: .linear)
        let binary = try Self.layout(data, style: style, mode: .binary)
        let height = linear.contentSize.height
        #expect(height > 100_000_000)
        for _ in 0..<20 {
            let rect = Rect(x: 0, y: random.double(0...height), width: 390, height: 844)
            let expected = Self.ids(linear, rect)
            #expect(!expected.isEmpty)
            #expect(Self.ids(binary, rect) == expected)
        }
        // The last item and the very bottom edge.
        let last = try binary.attributes(for: .item(count - 1, section: 0)).frame
        #expect(Self.ids(binary, Rect(x: 0, y: last.maxY - 1, width: 390, height: 844)) == [.item(count - 1, section: 0)])
        #expect(Self.ids(binary, Rect(x: 0, y: last.maxY, width: 390, height: 844)).isEmpty)
    }
}
