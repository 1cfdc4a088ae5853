import Testing
@testable import LayoutEngine

/// Flow rows (docs/engine-semantics.md) against expectations computed by hand from the rules.
@Suite struct FlowLayoutTests {
    struct Placed {
        var frames: [Rect]
        var contentHeight: Double
    }

    /// Lays out one flow section of `items` (width, height) whose items region is `regionWidth`
    /// wide, and returns the item frames and the content height.
    static func place(
        _ items: [(Double, Double)], regionWidth: Double = 100, spacing: Double = 10, lineSpacing: Double = 5,
        justify: Justify, align: Align, insets: EdgeInsets = .zero, header: Double = 0, footer: Double = 0
    ) throws -> Placed {
        let style = SectionStyle(
            kind: .flow(justify: justify, align: align), insets: insets, itemSpacing: spacing,
            lineSpacing: lineSpacing, headerHeight: header, footerHeight: footer)
        let data = try LayoutData(sections: [items.map { ItemSize(width: $0.0, height: $0.1) }])
        let bounds = Rect(x: 0, y: 0, width: regionWidth + insets.horizontal, height: 844)
        var layout = try SectionedLayout(bounds: bounds, styles: [style], data: data, queryMode: .linear)
        try layout.prepare()
        let frames = try (0..<items.count).map { try layout.attributes(for: .item($0, section: 0)).frame }
        return Placed(frames: frames, contentHeight: layout.contentSize.height)
    }

    static func expectFrames(
        _ actual: [Rect], xs: [Double], ys: [Double], widths: [Double], heights: [Double],
        _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(actual.count == xs.count, "\(context)", sourceLocation: sourceLocation)
        for (i, frame) in actual.enumerated() where i < xs.count {
            let expected = Rect(x: xs[i], y: ys[i], width: widths[i], height: heights[i])
            let close = abs(frame.x - expected.x) < 1e-9 && abs(frame.y - expected.y) < 1e-9
                && frame.width == expected.width && frame.height == expected.height
            #expect(close, "\(context) item \(i): \(frame) != \(expected)", sourceLocation: sourceLocation)
        }
    }

    // Region 100 wide, spacing 10, lineSpacing 5. Rows:
    //  1. widths 20, 28, 20 (used 88, free 12), heights 10, 20, 30: mixed heights
    //  2. widths 40, 50: 40 + 10 + 50 = 100, an exact fit stays on the row (free 0)
    //  3. width 120: wider than the line, its own row (free -20)
    //  4. widths 0, 0: zero-width items, the spacing still applies (used 10, free 90)
    static let items: [(Double, Double)] = [
        (20, 10), (28, 20), (20, 30),
        (40, 10), (50, 16),
        (120, 8),
        (0, 4), (0, 6),
    ]

    /// Item x offsets in the region per justify, row by row (see `items`).
    static func expectedX(_ justify: Justify) -> [Double] {
        switch justify {
        case .start: return [0, 30, 68] + [0, 50] + [0] + [0, 10]
        case .center: return [6, 36, 74] + [0, 50] + [-10] + [45, 55]
        case .end: return [12, 42, 80] + [0, 50] + [-20] + [90, 100]
        // between: gap 10 + free / (n - 1)
        case .spaceBetween: return [0, 36, 80] + [0, 50] + [0] + [0, 100]
        // around: lead free / 2n, gap 10 + free / n
        case .spaceAround: return [2, 36, 78] + [0, 50] + [0] + [22.5, 77.5]
        // evenly: lead free / (n + 1), gap 10 + free / (n + 1)
        case .spaceEvenly: return [3, 36, 77] + [0, 50] + [0] + [30, 70]
        }
    }

    /// Item y offsets in the region per align: rows at 0, 35 (30 + 5), 56 (35 + 16 + 5), 69 (56 + 8 + 5).
    static func expectedY(_ align: Align) -> [Double] {
        switch align {
        case .start: return [0, 0, 0] + [35, 35] + [56] + [69, 69]
        case .center: return [10, 5, 0] + [38, 35] + [56] + [70, 69]
        case .end: return [20, 10, 0] + [41, 35] + [56] + [71, 69]
        }
    }

    @Test(arguments: Justify.allCases, Align.allCases)
    func everyJustifyAndAlign(justify: Justify, align: Align) throws {
        // Insets and a header move the region to (7, 11 + 3).
        let insets = EdgeInsets(top: 3, left: 7, bottom: 2, right: 13)
        let placed = try Self.place(Self.items, justify: justify, align: align, insets: insets, header: 11)
        Self.expectFrames(
            placed.frames, xs: Self.expectedX(justify).map { $0 + 7 }, ys: Self.expectedY(align).map { $0 + 14 },
            widths: Self.items.map(\.0), heights: Self.items.map(\.1), "\(justify) \(align)")
        // Rows end at 69 + 6 = 75: no lineSpacing after the last row.
        #expect(placed.contentHeight == 11 + 3 + 75 + 2)
    }

    @Test(arguments: Justify.allCases)
    func singleItem(justify: Justify) throws {
        let expected: Double
        switch justify {
        case .start, .spaceBetween: expected = 0
        case .center, .spaceAround, .spaceEvenly: expected = 35  // free 70: 70/2, 70/2, 70/2
        case .end: expected = 70
        }
        for align in Align.allCases {
            let placed = try Self.place([(30, 10)], justify: justify, align: align)
            Self.expectFrames(placed.frames, xs: [expected], ys: [0], widths: [30], heights: [10], "\(justify) \(align)")
            #expect(placed.contentHeight == 10)
        }
    }

    @Test(arguments: Justify.allCases, Align.allCases)
    func emptySection(justify: Justify, align: Align) throws {
        let placed = try Self.place(
            [], justify: justify, align: align, insets: EdgeInsets(top: 4, left: 1, bottom: 6, right: 1),
            header: 20, footer: 10)
        #expect(placed.frames.isEmpty)
        #expect(placed.contentHeight == 20 + 4 + 6 + 10)
    }

    @Test func exactFitStaysAndZeroWidthAfterItWraps() throws {
        // 30 + 5 + 30 + 5 + 30 = 100: one row. A zero-width item then needs 100 + 5 + 0 > 100: a new row.
        let placed = try Self.place([(30, 10), (30, 10), (30, 10), (0, 10)], spacing: 5, justify: .start, align: .start)
        Self.expectFrames(
            placed.frames, xs: [0, 35, 70, 0], ys: [0, 0, 0, 15], widths: [30, 30, 30, 0], heights: [10, 10, 10, 10],
            "exact fit")
        #expect(placed.contentHeight == 25)
    }

    @Test func itemWiderThanTheLineTakesItsOwnRow() throws {
        // A wide first item is accepted; the next item goes to a new row; a wide item after
        // others starts its own row too.
        let items: [(Double, Double)] = [(150, 10), (10, 10), (10, 10), (101, 20), (10, 10)]
        for justify in Justify.allCases {
            let placed = try Self.place(items, justify: justify, align: .start)
            let wide: (Double) -> Double = { width in
                switch justify {
                case .center: return (100 - width) / 2
                case .end: return 100 - width
                default: return 0
                }
            }
            let row2: [Double]
            switch justify {
            case .start: row2 = [0, 20]
            case .center: row2 = [35, 55]
            case .end: row2 = [70, 90]
            case .spaceBetween: row2 = [0, 90]
            case .spaceAround: row2 = [17.5, 72.5]
            case .spaceEvenly: row2 = [70.0 / 3, 10 + 70.0 / 3 + 10 + 70.0 / 3]
            }
            let last: Double
            switch justify {
            case .start, .spaceBetween: last = 0
            case .center, .spaceAround, .spaceEvenly: last = 45
            case .end: last = 90
            }
            Self.expectFrames(
                placed.frames, xs: [wide(150)] + row2 + [wide(101), last], ys: [0, 15, 15, 30, 55],
                widths: items.map(\.0), heights: items.map(\.1), "\(justify)")
            // The overflowing rows stick out on the left for center and end only.
            #expect((placed.frames[0].minX < 0) == (justify == .center || justify == .end))
        }
    }

    @Test func zeroWidthItemsStillHaveSpacingBetweenThem() throws {
        let placed = try Self.place([(0, 10), (0, 10), (0, 10)], justify: .start, align: .start)
        Self.expectFrames(placed.frames, xs: [0, 10, 20], ys: [0, 0, 0], widths: [0, 0, 0], heights: [10, 10, 10], "zero")
        let between = try Self.place([(0, 10), (0, 10), (0, 10)], justify: .spaceBetween, align: .start)
        // free = 100 - 20 = 80, gap 10 + 40.
        Self.expectFrames(between.frames, xs: [0, 50, 100], ys: [0, 0, 0], widths: [0, 0, 0], heights: [10, 10, 10], "zero")
    }

    @Test func gapsLargerThanItems() throws {
        // Spacing 50, items 5 wide: 5 + 50 + 5 = 60; a third needs 115 > 100.
        let items: [(Double, Double)] = [(5, 10), (5, 10), (5, 10)]
        let start = try Self.place(items, spacing: 50, lineSpacing: 7, justify: .start, align: .start)
        Self.expectFrames(start.frames, xs: [0, 55, 0], ys: [0, 0, 17], widths: [5, 5, 5], heights: [10, 10, 10], "start")
        let between = try Self.place(items, spacing: 50, lineSpacing: 7, justify: .spaceBetween, align: .start)
        // free 40, gap 50 + 40; the last row has one item: as start.
        Self.expectFrames(between.frames, xs: [0, 95, 0], ys: [0, 0, 17], widths: [5, 5, 5], heights: [10, 10, 10], "between")
        let evenly = try Self.place(items, spacing: 50, lineSpacing: 7, justify: .spaceEvenly, align: .start)
        // Row 1: free 40, lead 40/3, gap 50 + 40/3. Row 2: free 95, lead 95/2.
        Self.expectFrames(
            evenly.frames, xs: [40.0 / 3, 40.0 / 3 + 5 + 50 + 40.0 / 3, 47.5], ys: [0, 0, 17], widths: [5, 5, 5],
            heights: [10, 10, 10], "evenly")
        #expect(evenly.contentHeight == 27)
    }

    @Test func lineSpacingOnlyBetweenRows() throws {
        let one = try Self.place([(50, 10), (40, 30)], lineSpacing: 100, justify: .start, align: .start)
        #expect(one.contentHeight == 30)
        let two = try Self.place([(50, 10), (40, 30), (60, 20)], lineSpacing: 100, justify: .start, align: .end)
        Self.expectFrames(
            two.frames, xs: [0, 60, 0], ys: [20, 0, 130], widths: [50, 40, 60], heights: [10, 30, 20], "two rows")
        #expect(two.contentHeight == 150)
    }

    @Test func rowsOfMixedHeightsAreAsTallAsTheTallestItem() throws {
        let items: [(Double, Double)] = [(30, 5), (30, 50), (30, 20), (30, 7), (30, 3)]
        let placed = try Self.place(items, spacing: 0, lineSpacing: 0, justify: .start, align: .center)
        // Row 1: three items, 50 tall. Row 2: two items, 7 tall, at 50.
        Self.expectFrames(
            placed.frames, xs: [0, 30, 60, 0, 30], ys: [22.5, 0, 15, 50, 52], widths: [30, 30, 30, 30, 30],
            heights: [5, 50, 20, 7, 3], "mixed")
        #expect(placed.contentHeight == 57)
    }

    @Test func distributionFallsBackOnOverflow() {
        for justify in Justify.allCases {
            let d = FlowSectionLayout.distribution(justify: justify, free: -20, count: 1, spacing: 10)
            #expect(d.gap == 10)
            switch justify {
            case .center: #expect(d.leading == -10)
            case .end: #expect(d.leading == -20)
            default: #expect(d.leading == 0)
            }
        }
        #expect(FlowSectionLayout.distribution(justify: .spaceBetween, free: 30, count: 1, spacing: 4) == (0, 4))
        #expect(FlowSectionLayout.distribution(justify: .spaceAround, free: 30, count: 3, spacing: 4) == (5, 14))
        #expect(FlowSectionLayout.distribution(justify: .spaceEvenly, free: 30, count: 2, spacing: 4) == (10, 14))
    }
}
