import Testing
@testable import LayoutEngine

/// Random layouts that exercise every section kind and the awkward corners of each.
struct RandomLayoutGenerator {
    var rng: SplitMix64
    /// Round generated sizes to halves (exact arithmetic) or keep raw doubles (rounding at edges).
    var fractional: Bool

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        fractional = false
        fractional = rng.chance(0.5)
    }

    mutating func size(_ range: ClosedRange<Double>) -> Double {
        let value = rng.double(range)
        return fractional ? value : (value * 2).rounded() / 2
    }

    mutating func style(width: Double) -> SectionStyle {
        var style = SectionStyle()
        let maxInset = Swift.min(40, width / 4)
        style.insets = EdgeInsets(
            top: rng.chance(0.5) ? size(0...30) : 0, left: rng.chance(0.5) ? size(0...maxInset) : 0,
            bottom: rng.chance(0.5) ? size(0...30) : 0, right: rng.chance(0.5) ? size(0...maxInset) : 0)
        style.itemSpacing = rng.chance(0.7) ? size(0...20) : 0
        style.lineSpacing = rng.chance(0.7) ? size(0...20) : 0
        style.headerHeight = rng.chance(0.5) ? size(1...60) : 0
        style.footerHeight = rng.chance(0.4) ? size(1...40) : 0
        style.background = rng.chance(0.4)
        switch rng.int(0...2) {
        case 0:
            style.kind = .list
        case 1:
            style.kind = .flow(justify: rng.pick(Justify.allCases), align: rng.pick(Align.allCases))
        default:
            let columns = rng.int(1...5)
            let regionWidth = width - style.insets.horizontal
            // Keep the column gaps smaller than the region.
            if Double(columns - 1) * style.itemSpacing >= regionWidth { style.itemSpacing = 0 }
            let weights: [Double]? = rng.chance(0.3) ? (0..<columns).map { _ in rng.double(0.2...3) } : nil
            style.kind = .waterfall(WaterfallStyle(
                columns: columns, weights: weights, direction: rng.pick(RenderDirection.allCases)))
        }
        return style
    }

    mutating func item(regionWidth: Double) -> ItemSize {
        let roll = rng.unit()
        let height: Double
        if roll < 0.05 { height = 0 }
        else if roll < 0.08 { height = rng.double(0.0001...0.01) }
        else if roll < 0.10 { height = size(2_000...200_000) }
        else { height = size(1...200) }
        let widthRoll = rng.unit()
        let width: Double
        if widthRoll < 0.05 { width = 0 }
        else if widthRoll < 0.08 { width = regionWidth * rng.double(1...1.6) }
        else if widthRoll < 0.12 { width = regionWidth }
        else { width = size(0.5...Swift.max(1, regionWidth * 0.6)) }
        return ItemSize(width: width, height: height, spansAllColumns: rng.chance(0.1))
    }

    /// A random layout's frames.
    mutating func frames() throws -> LayoutFrames {
        let width = rng.chance(0.5) ? 390 : size(60...1200)
        let styles = (0..<rng.int(1...4)).map { _ in style(width: width) }
        let sectionCount = rng.chance(0.02) ? 0 : rng.int(1...8)
        var sections: [[ItemSize]] = []
        for s in 0..<sectionCount {
            let style = styles[s % styles.count]
            let regionWidth = width - style.insets.horizontal
            let roll = rng.unit()
            let count = roll < 0.15 ? 0 : roll < 0.25 ? 1 : roll < 0.9 ? rng.int(2...40) : rng.int(41...250)
            sections.append((0..<count).map { _ in item(regionWidth: regionWidth) })
        }
        let data = try LayoutData(sections: sections)
        let bounds = Rect(x: 0, y: 0, width: width, height: 844)
        _ = try SectionedLayout(bounds: bounds, styles: styles, data: data)  // validates the styles
        return SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
    }

    /// A random query rect of one of the awkward kinds.
    mutating func rect(frames: LayoutFrames, elements: [LayoutAttributes]) -> Rect {
        let width = frames.contentWidth, height = frames.contentHeight
        let anyY = { (rng: inout SplitMix64) in rng.double(-900...(height + 900)) }
        switch rng.int(0...13) {
        case 0:  // viewport-sized at a random offset
            return Rect(x: 0, y: anyY(&rng), width: 390, height: 844)
        case 1:  // tiny
            return Rect(x: rng.double(-5...(width + 5)), y: anyY(&rng), width: rng.double(0.001...2), height: rng.double(0.001...2))
        case 2:  // huge
            return Rect(x: -1e7, y: -1e7, width: 1e8 + width, height: 1e8 + height)
        case 3:  // empty
            return rng.chance(0.5)
                ? Rect(x: rng.double(0...width), y: anyY(&rng), width: 0, height: 500)
                : Rect(x: 0, y: anyY(&rng), width: width, height: rng.chance(0.5) ? 0 : -10)
        case 4:  // outside: above, below, left, right
            switch rng.int(0...3) {
            case 0: return Rect(x: 0, y: -500, width: width, height: 500)
            case 1: return Rect(x: 0, y: height, width: width, height: 500)
            case 2: return Rect(x: -500, y: 0, width: 500, height: height)
            default: return Rect(x: width + 1e6, y: 0, width: 500, height: height)
            }
        case 5:  // spans everything
            return Rect(x: -1, y: -1, width: width + 2, height: height + 2)
        case 6, 7, 8:  // touches an element's edge exactly (or is the element's frame)
            guard let element = elements.isEmpty ? nil : rng.pick(elements) else { return .zero }
            let f = element.frame
            let w = rng.double(0.5...300), h = rng.double(0.5...900)
            switch rng.int(0...5) {
            case 0: return Rect(x: f.maxX, y: f.minY, width: w, height: h)
            case 1: return Rect(x: f.minX - w, y: f.minY, width: w, height: h)
            case 2: return Rect(x: f.minX, y: f.maxY, width: w, height: h)
            case 3: return Rect(x: f.minX, y: f.minY - h, width: w, height: h)
            case 4: return Rect(x: f.minX - w, y: f.minY - h, width: w, height: h)
            default: return f
            }
        case 9:  // starts or ends exactly at a section boundary
            let s = rng.int(0...frames.sectionCount)
            let y = frames.sectionTops[s]
            let h = rng.double(0.5...900)
            return Rect(x: 0, y: rng.chance(0.5) ? y : y - h, width: width, height: h)
        case 10:  // a full-width band
            return Rect(x: 0, y: anyY(&rng), width: width, height: rng.double(1...3000))
        default:  // anything
            return Rect(
                x: rng.double(-100...(width + 100)), y: anyY(&rng),
                width: rng.double(0.1...width * 1.5), height: rng.double(0.1...2000))
        }
    }
}

/// Checks that `index` returns exactly what `linear` returns for `rect`, each element once.
func expectSameAsLinear(
    _ index: any RectQueryIndex, name: String, rect: Rect, frames: LayoutFrames, exact: Set<LayoutAttributes>,
    results: inout [LayoutAttributes], context: String
) {
    index.elements(in: rect, frames: frames, into: &results)
    let returned = Set(results)
    if returned == exact && returned.count == results.count { return }
    Issue.record("\(name) differs from linear for \(rect) (\(context)): missing \(exact.subtracting(returned).map(\.id).sorted().prefix(5)), extra \(returned.subtracting(exact).map(\.id).sorted().prefix(5)), duplicates \(results.count - returned.count)")
}

@Suite struct QueryDifferentialTests {
    static let exactModes: [RectQueryMode] = RectQueryMode.allCases.filter(\.isExact)

    @Test func everyExactModeIsListed() {
        #expect(Set(Self.exactModes) == [.linear, .unionBlocks, .binary, .perColumn, .buckets])
        #expect(!RectQueryMode.binaryProbe.isExact)
        #expect(RectQueryMode(rawValue: "per-column") == .perColumn)
        #expect(RectQueryMode(rawValue: "buckets") == .buckets)
    }

    /// 8 chunks x 250 seeded random layouts x 16 rects, for every exact mode (and small buckets).
    @Test(arguments: 0..<8)
    func exactModesMatchLinear(chunk: Int) throws {
        var results: [LayoutAttributes] = []
        results.reserveCapacity(4096)
        for layout in 0..<250 {
            let seed = UInt64(chunk * 1_000_003 + layout)
            var generator = RandomLayoutGenerator(seed: seed)
            let frames = try generator.frames()
            let elements = frames.allElements()
            let linear = LinearQuery(frames: frames)
            var indexes: [(String, any RectQueryIndex)] = Self.exactModes.map { ($0.rawValue, $0.makeIndex(frames: frames)) }
            indexes.append(("buckets(h=7.5)", BucketQuery(frames: frames, bucketHeight: 7.5)))
            indexes.append(("buckets(h=333)", BucketQuery(frames: frames, bucketHeight: 333)))
            for _ in 0..<16 {
                let rect = generator.rect(frames: frames, elements: elements)
                linear.elements(in: rect, frames: frames, into: &results)
                let exact = Set(results)
                #expect(exact.count == results.count, "linear returned duplicates")
                for (name, index) in indexes {
                    expectSameAsLinear(
                        index, name: name, rect: rect, frames: frames, exact: exact, results: &results,
                        context: "seed \(seed)")
                }
            }
        }
    }

    /// The whole content returns every element with its natural frame, in every exact mode.
    @Test func wholeContentReturnsEveryElement() throws {
        for seed in UInt64(0)..<50 {
            var generator = RandomLayoutGenerator(seed: 777_000 + seed)
            let frames = try generator.frames()
            let all = Set(frames.allElements().filter { !$0.frame.isEmpty })
            var results: [LayoutAttributes] = []
            let everything = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9 + frames.contentHeight)
            for mode in Self.exactModes {
                expectSameAsLinear(
                    mode.makeIndex(frames: frames), name: mode.rawValue, rect: everything, frames: frames,
                    exact: all, results: &results, context: "seed \(seed)")
            }
        }
    }

    /// Degenerate layouts: no sections, only empty sections, one item, a zero-size item.
    @Test func degenerateLayouts() throws {
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        let cases: [[[ItemSize]]] = [
            [], [[]], [[], [], []], [[ItemSize(width: 10, height: 10)]], [[ItemSize(width: 0, height: 0)]],
            [[], [ItemSize(width: 390, height: 1e7)], []],
        ]
        let styles = [
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3)), headerHeight: 10, footerHeight: 5, background: true),
            SectionStyle(kind: .flow(justify: .center, align: .end)),
        ]
        for sections in cases {
            let data = try LayoutData(sections: sections)
            let frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
            let rects = [
                Rect(x: 0, y: 0, width: 390, height: 844), Rect(x: 0, y: -10, width: 390, height: 10),
                Rect(x: 0, y: 5e6, width: 390, height: 844), Rect(x: 1, y: 1, width: 1, height: 1),
                Rect(x: -1e9, y: -1e9, width: 3e9, height: 3e9),
            ]
            var results: [LayoutAttributes] = []
            for rect in rects {
                LinearQuery(frames: frames).elements(in: rect, frames: frames, into: &results)
                let exact = Set(results)
                for mode in Self.exactModes {
                    expectSameAsLinear(
                        mode.makeIndex(frames: frames), name: mode.rawValue, rect: rect, frames: frames,
                        exact: exact, results: &results, context: "\(sections.map(\.count))")
                }
            }
        }
    }

    /// The new modes through `SectionedLayout`, as the harness uses them.
    @Test(arguments: [RectQueryMode.perColumn, .buckets])
    func newModesThroughSectionedLayout(mode: RectQueryMode) throws {
        var sections: [[ItemSize]] = []
        for s in 0..<10 {
            var items: [ItemSize] = []
            for i in 0..<(s % 4 == 0 ? 0 : 300) {
                let width = Double(30 + i % 50)
                let height = Double(40 + (i * 37 + s) % 260)
                items.append(ItemSize(width: width, height: height, spansAllColumns: i % 29 == 0))
            }
            sections.append(items)
        }
        let data = try LayoutData(sections: sections)
        let styles = [
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3)), insets: EdgeInsets(left: 8, right: 8),
                         itemSpacing: 8, lineSpacing: 8, headerHeight: 44, background: true),
            SectionStyle(kind: .flow(justify: .spaceBetween, align: .center), itemSpacing: 4, lineSpacing: 4, footerHeight: 20),
            SectionStyle(kind: .list, lineSpacing: 1, headerHeight: 30),
        ]
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        var layout = try SectionedLayout(bounds: bounds, styles: styles, data: data, queryMode: .linear)
        try layout.prepare()
        let reference = layout
        layout.setQueryMode(mode)
        try layout.prepare()
        var expected: [LayoutAttributes] = [], results: [LayoutAttributes] = []
        results.reserveCapacity(1024)
        var y = -844.0
        while y < layout.contentSize.height + 844 {
            let rect = Rect(x: 0, y: y, width: 390, height: 844)
            reference.elements(in: rect, into: &expected)
            layout.elements(in: rect, into: &results)
            #expect(Set(results) == Set(expected) && results.count == expected.count, "\(mode) at y \(y)")
            y += 397.25
        }
    }

    @Test func indexesReportTheirMemory() throws {
        var generator = RandomLayoutGenerator(seed: 42)
        let frames = try generator.frames()
        let perColumn = PerColumnQuery(frames: frames)
        let buckets = BucketQuery(frames: frames)
        #expect(perColumn.allocatedBytes >= (frames.sectionCount + 1) * 4)
        #expect(buckets.allocatedBytes >= (buckets.bucketCount + 1) * 4)
        #expect(buckets.bucketCount <= Swift.max(1, frames.itemCount))
    }

    /// A waterfall's columns become groups; the full-width items go to the spanning group.
    @Test func perColumnGroupsWaterfallColumns() throws {
        var items: [ItemSize] = [], flowItems: [ItemSize] = []
        for i in 0..<100 {
            let height = Double(50 + (i % 7) * 10)
            items.append(ItemSize(height: height, spansAllColumns: i % 10 == 9))
        }
        for i in 0..<30 { flowItems.append(ItemSize(width: Double(10 + i), height: 20)) }
        let data = try LayoutData(sections: [items, flowItems])
        let styles = [
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3)), itemSpacing: 8, lineSpacing: 8),
            SectionStyle(kind: .flow(justify: .start, align: .start), itemSpacing: 2),
        ]
        let frames = SectionedLayout.computeFrames(bounds: Rect(x: 0, y: 0, width: 390, height: 844), styles: styles, data: data)
        let index = PerColumnQuery(frames: frames)
        // 3 columns + spanning in the waterfall; 30 distinct x ranges in the flow: one group.
        #expect(Int(index.sectionGroupStarts[1]) == 4)
        #expect(Int(index.sectionGroupStarts[2]) - Int(index.sectionGroupStarts[1]) == 1)
        #expect(Int(index.groupStarts[4]) - Int(index.groupStarts[3]) == 10)
    }

    // MARK: binary-probe and recall

    /// A 2-column waterfall with one very tall item in column 0: a rect far down column 1 meets the
    /// tall item, which lies more than 40 elements before the hits HD's walk starts from.
    @Test func binaryProbeMissesATallItemBeyondItsProbeWindow() throws {
        var items = [ItemSize(height: 5000)]
        items += (0..<100).map { _ in ItemSize(height: 40) }
        let data = try LayoutData(sections: [items])
        let styles = [SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)))]
        let frames = SectionedLayout.computeFrames(bounds: Rect(x: 0, y: 0, width: 400, height: 844), styles: styles, data: data)
        let rect = Rect(x: 0, y: 3010, width: 400, height: 80)
        var exact: [LayoutAttributes] = [], probe: [LayoutAttributes] = []
        LinearQuery(frames: frames).elements(in: rect, frames: frames, into: &exact)
        BinaryProbeQuery(frames: frames).elements(in: rect, frames: frames, into: &probe)
        #expect(Set(exact.map(\.id)) == [.item(0, section: 0), .item(76, section: 0), .item(77, section: 0), .item(78, section: 0)])
        #expect(probe.count < exact.count)
        #expect(!probe.contains { $0.id == .item(0, section: 0) })
        let recall = QueryRecall(returned: probe, exact: exact)
        #expect(recall.found == 3 && recall.expected == 4 && recall.extras == 0)
        #expect(recall.recall == 0.75)
    }

    /// A flow row of 60 short items followed by a tall one, aligned center: HD's binary search
    /// assumes minY is sorted, walks towards the short items and never finds the tall one.
    @Test func binaryProbeMissesInAFlowRowOfMixedHeights() throws {
        var items = (0..<60).map { _ in ItemSize(width: 1, height: 10) }
        items.append(ItemSize(width: 1, height: 1000))
        let data = try LayoutData(sections: [items])
        let styles = [SectionStyle(kind: .flow(justify: .start, align: .center))]
        let frames = SectionedLayout.computeFrames(bounds: Rect(x: 0, y: 0, width: 390, height: 844), styles: styles, data: data)
        let rect = Rect(x: 0, y: 100, width: 390, height: 10)
        var exact: [LayoutAttributes] = [], probe: [LayoutAttributes] = []
        LinearQuery(frames: frames).elements(in: rect, frames: frames, into: &exact)
        BinaryProbeQuery(frames: frames).elements(in: rect, frames: frames, into: &probe)
        #expect(exact.map(\.id) == [.item(60, section: 0)])
        #expect(probe.count < exact.count)
        #expect(QueryRecall(returned: probe, exact: exact).recall == 0)
    }

    @Test func recallCountsFoundExpectedAndExtras() {
        func attributes(_ index: Int) -> LayoutAttributes {
            LayoutAttributes(id: .item(index, section: 0), frame: Rect(x: 0, y: Double(index) * 10, width: 10, height: 10))
        }
        let exact = [0, 1, 2, 3].map(attributes)
        let returned = [0, 1, 9].map(attributes)
        let recall = QueryRecall(returned: returned, exact: exact)
        #expect(recall.found == 2)
        #expect(recall.expected == 4)
        #expect(recall.extras == 1)
        #expect(recall.recall == 0.5)
        let none = QueryRecall(returned: [], exact: [])
        #expect(none.recall == 1 && none.found == 0 && none.expected == 0 && none.extras == 0)
        #expect(QueryRecall(returned: [attributes(5)], exact: []).recall == 1)
    }

    /// HD counts elements within 1 pt of the rect as hits: extras, with recall still 1.
    @Test func recallCountsBinaryProbeExtrasFromItsTolerance() throws {
        let data = try LayoutData(sections: [[ItemSize(height: 100), ItemSize(height: 100), ItemSize(height: 100)]])
        let frames = SectionedLayout.computeFrames(
            bounds: Rect(x: 0, y: 0, width: 390, height: 844), styles: [SectionStyle()], data: data)
        let rect = Rect(x: 0, y: 100.5, width: 390, height: 99)
        var exact: [LayoutAttributes] = [], probe: [LayoutAttributes] = []
        LinearQuery(frames: frames).elements(in: rect, frames: frames, into: &exact)
        BinaryProbeQuery(frames: frames).elements(in: rect, frames: frames, into: &probe)
        #expect(exact.map(\.id) == [.item(1, section: 0)])
        #expect(Set(probe.map(\.id)) == [.item(0, section: 0), .item(1, section: 0), .item(2, section: 0)])
        let recall = QueryRecall(returned: probe, exact: exact)
        #expect(recall.found == 1 && recall.expected == 1 && recall.extras == 2 && recall.recall == 1)
    }
}
