import Foundation
import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

/// What is particular to `masonry-range` (TanStack Virtual's masonry range, hand-computed on small
/// waterfalls) and `interval-tree` (react-virtualized's PositionCache); exactness of the latter is
/// `QueryDifferentialTests` / `QueryTraceTests`. And that every rect-query mode answers a warm
/// query without allocating.
@Suite struct MasonryQueryTests {
    static let bounds = Rect(x: 0, y: 0, width: 400, height: 844)

    static func frames(_ items: [ItemSize], columns: Int, width: Double = 400) throws -> LayoutFrames {
        let data = try LayoutData(sections: [items])
        let styles = [SectionStyle(kind: .waterfall(WaterfallStyle(columns: columns)))]
        return SectionedLayout.computeFrames(bounds: Rect(x: 0, y: 0, width: width, height: 844), styles: styles, data: data)
    }

    static func answers(_ frames: LayoutFrames, _ rect: Rect, _ index: any RectQueryIndex) -> (exact: [LayoutAttributes], returned: [LayoutAttributes]) {
        var exact: [LayoutAttributes] = [], returned: [LayoutAttributes] = []
        LinearQuery(frames: frames).elements(in: rect, frames: frames, into: &exact)
        index.elements(in: rect, frames: frames, into: &returned)
        return (exact, returned)
    }

    /// 2 columns: item 0 is 5,000 pt tall in column 0, items 1–100 (40 pt) fill column 1. For the
    /// rect 3010..<3090 the exact answer is items 0, 76, 77, 78 (binary-probe misses item 0).
    /// TanStack by hand: binary search on starts (0, 0, 40, …) for 3010 lands on item 76 (start
    /// 3000); the forward walk never sees lane 0 again, so it runs to the last index, 100; the
    /// backward walk needs a lane-0 start above 3010 and so runs down to item 0 (startIndex −1,
    /// aligned to 0). Range 0…100: all 101 items — the tall item is found (recall 1), at the price
    /// of 97 extras.
    @Test func masonryRangeWalksBackToATallItemAndReturnsEverythingBetween() throws {
        var items = [ItemSize(height: 5000)]
        items += (0..<100).map { _ in ItemSize(height: 40) }
        let frames = try Self.frames(items, columns: 2)
        let rect = Rect(x: 0, y: 3010, width: 400, height: 80)
        let (exact, returned) = Self.answers(frames, rect, MasonryRangeQuery(frames: frames))
        #expect(Set(exact.map(\.id)) == [.item(0, section: 0), .item(76, section: 0), .item(77, section: 0), .item(78, section: 0)])
        #expect(returned.map(\.id) == (0...100).map { .item($0, section: 0) })
        let recall = QueryRecall(returned: returned, exact: exact)
        #expect(recall.found == 4 && recall.expected == 4 && recall.extras == 97 && recall.recall == 1)
        // Where HD's probe gives up on the tall item.
        let (_, probe) = Self.answers(frames, rect, BinaryProbeQuery(frames: frames))
        #expect(QueryRecall(returned: probe, exact: exact).recall == 0.75)
    }

    /// 3 columns of 100 pt squares in rows (lanes i % 3). Rect 150..<250: exact rows 1 and 2
    /// (items 3–8). By hand: the binary search for 150 on starts 0,0,0,100,100,100,200,200,200
    /// ends on item 5; forward to 8 (the last index); backward records items 5, 4, 3 (every lane
    /// then starts above 150) and stops at 2, aligned down to 0. Range 0…8: row 0 comes along as 3
    /// extras (the walk's one-past-the-end and the alignment), recall 1.
    @Test func masonryRangeAlignsToLaneBoundaries() throws {
        let frames = try Self.frames((0..<9).map { _ in ItemSize(height: 100) }, columns: 3, width: 300)
        #expect((0..<9).map { frames.itemMinX[$0] } == [0, 100, 200, 0, 100, 200, 0, 100, 200])
        let index = MasonryRangeQuery(frames: frames)
        #expect(index.sectionLanes == [3] && index.itemLane == [0, 1, 2, 0, 1, 2, 0, 1, 2])
        let rect = Rect(x: 0, y: 150, width: 300, height: 100)
        let (exact, returned) = Self.answers(frames, rect, index)
        #expect(Set(exact.map(\.id)) == Set((3...8).map { ElementID.item($0, section: 0) }))
        #expect(returned.map(\.id) == (0...8).map { .item($0, section: 0) })
        let recall = QueryRecall(returned: returned, exact: exact)
        #expect(recall.recall == 1 && recall.extras == 3)
        // No more items than lanes: everything (x is not looked at). An empty rect: nothing (`outerSize === 0`).
        let three = try Self.frames((0..<3).map { _ in ItemSize(height: 100) }, columns: 3, width: 300)
        let narrow = Self.answers(three, Rect(x: 0, y: 50, width: 10, height: 10), MasonryRangeQuery(frames: three))
        #expect(narrow.exact.count == 1 && narrow.returned.count == 3)
        #expect(Self.answers(frames, Rect(x: 0, y: 150, width: 300, height: 0), index).returned.isEmpty)
    }

    /// A single-lane list takes TanStack's `lanes === 1` path: binary search, then forward while the
    /// item ends above the bottom — exactly the intersecting rows of a list (a top on a row
    /// boundary is `findNearestBinarySearch`'s exact match, the row starting there).
    @Test func masonryRangeOnAListIsTheVisibleRows() throws {
        let data = try LayoutData(sections: [(0..<50).map { _ in ItemSize(height: 40) }])
        let frames = SectionedLayout.computeFrames(bounds: Self.bounds, styles: [SectionStyle()], data: data)
        let index = MasonryRangeQuery(frames: frames)
        #expect(index.sectionLanes == [1])
        var (exact, returned) = Self.answers(frames, Rect(x: 0, y: 410, width: 400, height: 100), index)
        #expect(returned.map(\.id) == exact.map(\.id))
        #expect(returned.map(\.id) == (10...12).map { .item($0, section: 0) })
        (exact, returned) = Self.answers(frames, Rect(x: 0, y: 400, width: 400, height: 100), index)
        #expect(returned.map(\.id) == (10...12).map { .item($0, section: 0) })
        #expect(QueryRecall(returned: returned, exact: exact).extras == 0)
    }

    /// What the faithful range cannot do: miss on a waterfall. In every lane the items run down
    /// in index order, so walking back until each lane has a start above the rect, and forward
    /// until each has an end below it, brackets every intersecting item whatever the binary
    /// search landed on: TanStack's range (since #937) pays for tall items and uneven columns with
    /// extras, not with misses. Seeded random waterfalls (1–8 columns, weights, every render
    /// direction, full-width items, items up to 8 viewports tall) and rects: recall is always 1.
    @Test func masonryRangeNeverMissesOnAWaterfall() throws {
        var rng = SeededRandom(seed: 936)
        var returned: [LayoutAttributes] = [], exact: [LayoutAttributes] = []
        var extras = 0
        for layoutIndex in 0..<150 {
            let columns = rng.int(1...8)
            let weights: [Double]? = rng.chance(0.5) ? (0..<columns).map { _ in rng.double(0.2...5) } : nil
            let direction = rng.pick(RenderDirection.allCases)
            let sections = (0..<rng.int(1...3)).map { _ in
                (0..<rng.int(0...300)).map { _ in
                    ItemSize(height: rng.chance(0.05) ? rng.double(844...6750) : rng.double(0...300), spansAllColumns: rng.chance(0.03))
                }
            }
            let style = SectionStyle(
                kind: .waterfall(WaterfallStyle(columns: columns, weights: weights, direction: direction)),
                itemSpacing: rng.pick([0, 8]), lineSpacing: rng.pick([0, 8]), headerHeight: rng.pick([0, 40]))
            let frames = SectionedLayout.computeFrames(bounds: Self.bounds, styles: [style], data: try LayoutData(sections: sections))
            let index = MasonryRangeQuery(frames: frames), linear = LinearQuery(frames: frames)
            for _ in 0..<40 {
                let rect = Rect(
                    x: rng.chance(0.8) ? 0 : rng.double(0...400), y: rng.double(-900...(frames.contentHeight + 100)),
                    width: rng.chance(0.8) ? 400 : rng.double(1...400), height: rng.pick([844, 1, 2000, rng.double(0...900)]))
                linear.elements(in: rect, frames: frames, into: &exact)
                index.elements(in: rect, frames: frames, into: &returned)
                let recall = QueryRecall(returned: returned, exact: exact)
                #expect(recall.recall == 1, "layout \(layoutIndex): \(columns) columns \(direction), rect \(rect): missed \(recall.expected - recall.found)")
                extras += recall.extras
            }
        }
        #expect(extras > 0)
    }

    /// The interval tree's structure on unsorted sections of 1 to 80 items: entries in order of
    /// top, and each node's subtree maximum at least the largest bottom of its subtree's nodes that
    /// exist (equal when the subtree is complete; cgranges' `last` stands in for missing right
    /// children).
    @Test func intervalTreeKeepsSubtreeMaxima() throws {
        for n in 1...80 {
            let items = (0..<n).map { ItemSize(height: Double(20 + ($0 * 53 + n) % 300)) }
            let frames = try Self.frames(items, columns: 3)
            let tree = IntervalTreeQuery(frames: frames)
            #expect(tree.entryMinY == tree.entryMinY.sorted())
            #expect(Set(tree.entryItem) == Set((0..<n).map(Int32.init)))
            for i in 0..<n {
                let k = (~i).trailingZeroBitCount  // a node's level: its trailing ones
                let low = i - ((1 << k) - 1), high = i + (1 << k) - 1
                let expected = (low...Swift.min(n - 1, high)).map { tree.entryMaxY[$0] }.max()!
                if high < n {
                    #expect(tree.entrySubtreeMaxY[i] == expected, "n \(n): node \(i) level \(k)")
                } else {
                    #expect(tree.entrySubtreeMaxY[i] >= expected, "n \(n): node \(i) level \(k)")
                }
            }
        }
    }

    /// A relayout of the same item count rebuilds the trees in place (no new storage).
    @Test func intervalTreeRebuildReusesItsStorage() throws {
        let frames = try Self.frames((0..<500).map { ItemSize(height: Double(30 + ($0 * 17) % 200)) }, columns: 4)
        var tree = IntervalTreeQuery(frames: frames)
        let before = tree.entryMinY.withUnsafeBufferPointer { $0.baseAddress }
        tree.rebuild(frames: frames)
        #expect(tree.entryMinY.withUnsafeBufferPointer { $0.baseAddress } == before)
        #expect(tree.allocatedBytes >= 500 * 28)
    }

    /// Every mode, once its buffer has the capacity, answers a sweep of viewport queries over a
    /// waterfall with tall items and several sections without allocating (jemalloc's per-thread
    /// counter). Unoptimized generic code may allocate, so a debug build holds the two masonry
    /// modes and `linear` to it, an optimized one (`swift test -c release`) every mode.
    @Test(arguments: RectQueryMode.allCases)
    func warmQueriesAllocateNothing(mode: RectQueryMode) throws {
        let allocated = try #require(ThreadAllocatedBytes(), "jemalloc's mallctl is not linked into the test binary")
        var sections: [[ItemSize]] = []
        for s in 0..<4 {
            sections.append((0..<2000).map { i in ItemSize(height: i % 37 == 0 ? 3000 : Double(40 + (i * 31 + s) % 260)) })
        }
        let styles = [SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3)), itemSpacing: 8, lineSpacing: 8, headerHeight: 40)]
        var layout = try SectionedLayout(bounds: Self.bounds, styles: styles, data: try LayoutData(sections: sections), queryMode: mode)
        try layout.prepare()
        var results: [LayoutAttributes] = []
        results.reserveCapacity(8192)
        let height = layout.contentSize.height
        var checksum = 0
        func sweep() {
            var y = -400.0
            while y < height {
                layout.elements(in: Rect(x: 0, y: y, width: 400, height: 844), into: &results)
                checksum &+= results.count
                y += 997.5
            }
        }
        sweep()
        let before = allocated.read()
        sweep()
        let after = allocated.read()
        #expect(checksum > 0)
        #if DEBUG
        if [.linear, .masonryRange, .intervalTree].contains(mode) {
            #expect(after == before, "\(mode.rawValue): \(after - before) bytes allocated by warm queries")
        }
        #else
        #expect(after == before, "\(mode.rawValue): \(after - before) bytes allocated by warm queries")
        #endif
    }
}
