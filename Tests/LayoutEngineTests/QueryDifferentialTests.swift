import Testing
import PropertyBased
@testable import LayoutEngine
@testable import LayoutTestSupport

/// Checks that `index` returns exactly what `linear` returns for `rect`, each element once.
func expectSameAsLinear(
    _ index: any RectQueryIndex, name: String, rect: Rect, frames: LayoutFrames, exact: Set<LayoutAttributes>,
    results: inout [LayoutAttributes], context: String
) {
    index.elements(in: rect, frames: frames, into: &results)
    let returned = Set(results)
    if returned == exact && returned.count == results.count { return }
    Issue.record("\(name) differs from linear for \(rect)\(context.isEmpty ? "" : " (\(context))"): missing \(exact.subtracting(returned).map(\.id).sorted().prefix(5)), extra \(returned.subtracting(exact).map(\.id).sorted().prefix(5)), duplicates \(results.count - returned.count)")
}

@Suite(.shrinking) struct QueryDifferentialTests {
    static let exactModes: [RectQueryMode] = RectQueryMode.allCases.filter(\.isExact)

    @Test func everyExactModeIsListed() {
        // The two heuristics; every other mode, present or added later, is held to linear's answer.
        #expect(RectQueryMode.allCases.filter { !$0.isExact } == [.binaryProbe, .masonryRange])
        #expect(Self.exactModes.contains(.intervalTree))
        #expect(Self.exactModes.contains(.linear) && Self.exactModes.contains(.binary))
        #expect(RectQueryMode(rawValue: "per-column") == .perColumn)
        #expect(RectQueryMode(rawValue: "buckets") == .buckets)
    }

    /// 8 chunks x 250 random layouts x up to 32 rects (16 on average), for every exact mode (and
    /// small buckets); a failure shrinks to a small layout and the one rect that shows it.
    @Test(arguments: 0..<8)
    func exactModesMatchLinear(chunk: Int) async {
        var results: [LayoutAttributes] = []
        results.reserveCapacity(4096)
        await propertyCheck(count: 250, input: RandomFrames.generator, RandomRect.generator.array(of: 1...32)) { random, rects in
            let frames = random.frames
            let elements = frames.allElements()
            let linear = LinearQuery(frames: frames)
            var indexes: [(String, any RectQueryIndex)] = Self.exactModes.map { ($0.rawValue, $0.make(frames: frames)) }
            indexes.append(("buckets(h=7.5)", BucketQuery(frames: frames, bucketHeight: 7.5)))
            indexes.append(("buckets(h=333)", BucketQuery(frames: frames, bucketHeight: 333)))
            for random in rects {
                let rect = random.rect(frames: frames, elements: elements)
                linear.elements(in: rect, frames: frames, into: &results)
                let exact = Set(results)
                #expect(exact.count == results.count, "linear returned duplicates")
                for (name, index) in indexes {
                    expectSameAsLinear(
                        index, name: name, rect: rect, frames: frames, exact: exact, results: &results, context: "")
                }
            }
        }
    }

    /// The whole content returns every element with its natural frame, in every exact mode.
    @Test func wholeContentReturnsEveryElement() async {
        await propertyCheck(count: 50, input: RandomFrames.generator) { random in
            let frames = random.frames
            let all = Set(frames.allElements().filter { !$0.frame.isEmpty })
            var results: [LayoutAttributes] = []
            let everything = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9 + frames.contentHeight)
            for mode in Self.exactModes {
                expectSameAsLinear(
                    mode.make(frames: frames), name: mode.rawValue, rect: everything, frames: frames,
                    exact: all, results: &results, context: "")
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
                        mode.make(frames: frames), name: mode.rawValue, rect: rect, frames: frames,
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
        var rng = Xoshiro(seed: (42, 43, 44, 45))
        let frames = RandomFrames.generator.run(using: &rng).frames
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
