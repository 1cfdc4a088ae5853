import PropertyBased
import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Random stable-lanes scenarios for the differential tests of the counted storage: waterfalls of
/// 1–8 columns (weights, the three render directions) mixed with list and flow sections, full-width
/// items from none to most, zero heights, and changes at the first, last and random positions.
/// Heights and spacings are multiples of 1/4, so every sum is exact and the O(log n) reads must
/// equal the materialised frames to the bit.
private struct LanesScenario {
    var styles: [SectionStyle]
    var data: LayoutData
    var fullWidthChance: Double

    init(rng: inout SeededRandom, columns: Int, fullWidthLevel: Int) {
        fullWidthChance = [0, 0.05, 0.3, 0.7][fullWidthLevel]
        var styles = [Self.waterfall(columns: columns, &rng)]
        if rng.chance(0.5) {
            for _ in 0..<rng.int(1...2) {
                styles.append(rng.chance(0.5) ? Self.waterfall(columns: rng.int(1...8), &rng) : RandomScenario.style(&rng))
            }
        }
        self.styles = styles
        let fullWidthChance = self.fullWidthChance
        data = try! LayoutData(sections: (0..<rng.int(1...3)).map { _ in
            Self.items(rng.int(0...rng.pick([3, 40, 90])), fullWidthChance: fullWidthChance, &rng)
        })
    }

    static func waterfall(columns: Int, _ rng: inout SeededRandom) -> SectionStyle {
        let weights: [Double]? = rng.chance(0.3) ? (0..<columns).map { _ in rng.pick([0.5, 1, 2, 3]) } : nil
        let direction = rng.chance(0.6) ? RenderDirection.shortestFirst : rng.pick(RenderDirection.allCases)
        return SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: columns, weights: weights, direction: direction)),
            insets: EdgeInsets(top: rng.pick([0, 4]), left: rng.pick([0, 8]), bottom: rng.pick([0, 8]), right: rng.pick([0, 8])),
            itemSpacing: rng.pick([0, 8]), lineSpacing: rng.pick([0, 0, 5, 8.25]),
            headerHeight: rng.pick([0, 44]), footerHeight: rng.pick([0, 10]))
    }

    static func items(_ count: Int, fullWidthChance: Double, _ rng: inout SeededRandom) -> [ItemSize] {
        (0..<count).map { _ in
            // Few distinct heights and many zeros: lanes tie often, which the lane choice must get right.
            let height = rng.chance(0.1) ? 0 : rng.chance(0.5) ? Double(rng.pick([10, 20, 40])) : Double(rng.int(0...800)) / 4
            return ItemSize(width: Double(rng.int(0...100)), height: height, spansAllColumns: rng.chance(fullWidthChance))
        }
    }

    /// A position in 0...count: the first, the last, or anywhere.
    static func position(_ count: Int, _ rng: inout SeededRandom) -> Int {
        switch rng.int(0...4) {
        case 0: return 0
        case 1: return count
        default: return rng.int(0...count)
        }
    }

    func change(for data: LayoutData, _ rng: inout SeededRandom) -> LayoutChange {
        let sections = data.sectionCount
        if rng.chance(0.01) { return RandomMoves.invalidChange(for: data, &rng) }
        let fullWidthChance = fullWidthChance
        if rng.chance(0.2), let moved = RandomMoves.change(
            for: data, newItems: { _, n, rng in Self.items(n, fullWidthChance: fullWidthChance, &rng) }, &rng) {
            return moved
        }
        if rng.chance(0.04) {
            switch rng.int(0...4) {
            case 0: return .setHeight(section: 0, item: 0, height: rng.pick([-1, .nan, .infinity]))
            case 1: return .removeItems(section: max(0, sections - 1), at: rng.int(0...3), count: 1_000)
            case 2: return .insertItems(section: sections, at: 0, items: [])
            case 3: return .insertItems(section: max(0, sections - 1), at: 0, items: [ItemSize(height: 1), ItemSize(height: -2)])
            default: return .appendItems(section: -1, items: [])
            }
        }
        guard sections > 0 else { return .insertSection(at: 0, items: Self.items(rng.int(0...30), fullWidthChance: fullWidthChance, &rng)) }
        let s = rng.int(0...(sections - 1))
        let count = data.itemCount(inSection: s)
        let batch = rng.chance(0.7) ? 1 : rng.int(2...8)
        switch rng.int(0...99) {
        case 0..<30 where count > 0:
            let item = min(count - 1, Self.position(count, &rng))
            return .setHeight(section: s, item: item, height: Self.items(1, fullWidthChance: 0, &rng)[0].height)
        case 30..<55:
            return .insertItems(section: s, at: Self.position(count, &rng), items: Self.items(batch, fullWidthChance: fullWidthChance, &rng))
        case 55..<80 where count > 0:
            let at = min(count - 1, Self.position(count, &rng))
            return .removeItems(section: s, at: at, count: min(batch, count - at))
        case 80..<90:
            return .appendItems(section: s, items: Self.items(batch, fullWidthChance: fullWidthChance, &rng))
        case 90..<95:
            return .insertSection(at: rng.int(0...sections), items: Self.items(rng.int(0...30), fullWidthChance: fullWidthChance, &rng))
        default:
            return .removeSection(at: s)
        }
    }
}

/// The O(log n) reads of `updater` against its materialised frames: every item's frame, and the
/// items meeting a few random rects (including empty ones and ones past the content).
private func readsMatchFrames(_ updater: StableLanesUpdater, _ rng: inout SeededRandom) -> String? {
    let frames = updater.frames
    for s in 0..<frames.sectionCount {
        let start = frames.sectionItemStarts[s]
        for i in frames.itemRange(inSection: s) {
            let expected = frames.itemFrame(global: i, section: s)
            guard let frame = updater.itemFrame(section: s, item: i - start), frame == expected else {
                return "item [\(s), \(i - start)]: \(String(describing: updater.itemFrame(section: s, item: i - start))), expected \(expected)"
            }
        }
        if updater.itemFrame(section: s, item: frames.itemRange(inSection: s).count) != nil { return "a frame past the end of section \(s)" }
    }
    let height = frames.contentHeight
    for _ in 0..<4 {
        let minY = rng.double(-20...(height + 20)).rounded()
        let rect = Rect(x: rng.pick([0, 100, 300]), y: minY, width: rng.pick([0, 50, 390]), height: rng.pick([0, 1, 120, 900]))
        var expected: [ElementID] = []
        for s in 0..<frames.sectionCount {
            let start = frames.sectionItemStarts[s]
            for i in frames.itemRange(inSection: s) where rect.intersects(frames.itemFrame(global: i, section: s)) {
                expected.append(.item(i - start, section: s))
            }
        }
        var found: [ElementID] = [.item(99, section: 99)]  // stale content the query must clear
        updater.itemIDs(intersecting: rect, into: &found)
        if found != expected { return "items in \(rect): \(found.count) found, \(expected.count) expected" }
    }
    return nil
}

@Suite struct StableLanesSequenceTests {
    static let bounds = Rect(x: 0, y: 0, width: 390, height: 844)

    /// The backbone: random sequences of changes through tiny chunks (2–8 items, so a few dozen
    /// items make a tree with splits and merges) against `StableLanesReference` after every step:
    /// the same frames, the same data, the same error for a bad change, and O(log n) reads equal
    /// to the materialised frames.
    @Test func equalsTheReferenceThroughTinyChunks() async {
        await propertyCheck(
            count: 400, input: Gen.int(in: 0...1_000_000), Gen.int(in: 1...8), Gen.int(in: 2...8), Gen.int(in: 0...3)
        ) { seed, columns, capacity, fullWidthLevel in
            var rng = SeededRandom(seed: UInt64(seed))
            let scenario = LanesScenario(rng: &rng, columns: columns, fullWidthLevel: fullWidthLevel)
            if let problem = Self.run(scenario, chunkCapacity: capacity, steps: 24, &rng) {
                Issue.record("seed \(seed), \(columns) columns, chunks of \(capacity): \(problem)")
            }
        }
    }

    /// One scenario against its reference; the first problem, or nil.
    private static func run(_ scenario: LanesScenario, chunkCapacity: Int?, steps: Int, _ rng: inout SeededRandom) -> String? {
        var updater: StableLanesUpdater, reference: StableLanesReference
        do {
            updater = try StableLanesUpdater(bounds: bounds, styles: scenario.styles, data: scenario.data, chunkCapacity: chunkCapacity)
            reference = try StableLanesReference(bounds: bounds, styles: scenario.styles, data: scenario.data)
        } catch {
            return "init: \(error)"
        }
        if let problem = reference.firstDifference(of: updater.frames) { return "initial layout: \(problem)" }
        for step in 0..<steps {
            let change = scenario.change(for: reference.data, &rng)
            var expectedError: LayoutError?
            var data = reference.data
            do { try change.apply(to: &data) } catch { expectedError = error }
            var error: LayoutError?
            do { try updater.apply(change) } catch let thrown { error = thrown }
            if error?.description != expectedError?.description { return "step \(step) \(change): error \(String(describing: error)), expected \(String(describing: expectedError))" }
            if expectedError == nil { try! reference.apply(change) }
            if updater.data != reference.data { return "step \(step) \(change): data differs" }
            if let problem = reference.firstDifference(of: updater.frames) {
                return "step \(step) \(change): \(problem)"
            }
            if let violation = updater.invariantViolation() { return "step \(step) \(change): \(violation)" }
            for s in 0..<reference.data.sectionCount where updater.lanes(ofSection: s).count != reference.data.itemCount(inSection: s) {
                return "step \(step): lanes of section \(s)"
            }
            if let problem = readsMatchFrames(updater, &rng) { return "step \(step) \(change): \(problem)" }
        }
        return nil
    }

    /// The production chunk size on a long section: middle inserts, deletes and height changes
    /// (and a batch at each end) against the reference, the reads checked at the end.
    @Test func equalsTheReferenceOnALongSection() throws {
        var rng = SeededRandom(seed: 12)
        let items = (0..<6_000).map { i in ItemSize(height: Double(rng.int(240...1200)) / 4, spansAllColumns: i % 50 == 49) }
        let style = SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: 3)), insets: EdgeInsets(top: 0, left: 8, bottom: 0, right: 8),
            itemSpacing: 8, lineSpacing: 8, headerHeight: 44, footerHeight: 20)
        let data = try LayoutData(sections: [items, Array(items.prefix(500))])
        var updater = try StableLanesUpdater(bounds: Self.bounds, styles: [style], data: data)
        var reference = try StableLanesReference(bounds: Self.bounds, styles: [style], data: data)
        #expect(updater.chunkCount(ofSection: 0) > 6)
        for step in 0..<40 {
            let count = reference.data.itemCount(inSection: 0)
            let at = step < 2 ? [0, count][step] : count / 4 + rng.int(0...(count / 2))
            let change: LayoutChange
            switch step % 3 {
            case 0: change = .insertItems(section: 0, at: at, items: [ItemSize(height: Double(rng.int(0...300)), spansAllColumns: rng.chance(0.1))])
            case 1: change = .removeItems(section: 0, at: min(at, count - 3), count: step < 2 ? 3 : 1)
            default: change = .setHeight(section: 0, item: min(at, count - 1), height: Double(rng.int(0...300)))
            }
            try updater.apply(change)
            try reference.apply(change)
            if step % 8 == 7 || step == 39 {
                #expect(reference.firstDifference(of: updater.frames) == nil, "step \(step) \(change)")
            }
        }
        #expect(readsMatchFrames(updater, &rng) == nil)
    }

    /// A bad change throws what `LayoutData` throws, before anything changes, even when the
    /// updater's storage is shared with a copy.
    @Test func badChangesThrowTheDataErrorAndChangeNothing() throws {
        let data = try LayoutData(sections: [[10, 20, 30].map { ItemSize(height: $0) }, []])
        let styles = [SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2)))]
        let updater = try StableLanesUpdater(bounds: Self.bounds, styles: styles, data: data, chunkCapacity: 2)
        let bad: [LayoutChange] = [
            .setHeight(section: 0, item: 3, height: 10), .setHeight(section: 0, item: 0, height: -1),
            .setHeight(section: 2, item: 0, height: 1), .removeItems(section: 0, at: 2, count: 2),
            .removeItems(section: 0, at: -1, count: 1), .removeItems(section: 1, at: 0, count: -1),
            .insertItems(section: 2, at: 0, items: []), .insertItems(section: 0, at: 4, items: []),
            .insertItems(section: 0, at: 1, items: [ItemSize(height: 1), ItemSize(width: .nan, height: 1)]),
            .appendItems(section: 0, items: [ItemSize(height: .infinity)]), .appendItems(section: 5, items: []),
            .insertSection(at: 3, items: []), .insertSection(at: 0, items: [ItemSize(height: -3)]),
            .removeSection(at: 2), .removeSection(at: -1),
        ]
        for change in bad {
            var expected = data
            var expectedError: LayoutError?
            do { try change.apply(to: &expected) } catch { expectedError = error }
            #expect(expectedError != nil, "\(change)")
            var copy = updater
            var error: LayoutError?
            do { try copy.apply(change) } catch let thrown { error = thrown }
            #expect(error?.description == expectedError?.description, "\(change)")  // NaN != NaN in the reason
            #expect(copy.data == data)
            #expect(copy.frames == updater.frames)
        }
    }
}
