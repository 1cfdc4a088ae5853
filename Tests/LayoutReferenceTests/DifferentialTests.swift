import Testing
import PropertyBased
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// The engine against the reference on thousands of random layouts (property tests: a failure
/// shrinks to a small layout and prints the seed that replays it): `SectionedLayout`'s frames
/// (read both as `LayoutFrames` and through `attributes(for:)`), every exact rect-query mode,
/// and the `full` and `incremental` waterfall updaters after random changes.
@Suite(.shrinking) struct DifferentialTests {
    static func prepared(_ random: RandomLayout, queryMode: RectQueryMode = .binary) throws -> SectionedLayout {
        var layout = try SectionedLayout(bounds: random.bounds, styles: random.styles, data: random.data, queryMode: queryMode)
        try layout.prepare()
        return layout
    }

    /// 2 × 1,500 random layouts.
    @Test(arguments: 0..<2)
    func sectionedLayoutMatchesTheReference(half: Int) async {
        var compared = 0
        await checkProperty(count: 1500, input: RandomLayout.generator()) { random in
            let layout = try Self.prepared(random)
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            if let mismatch = ReferenceCheck.firstMismatch(of: layout.frames, against: reference) {
                Issue.record("\(mismatch)")
                return
            }
            if let mismatch = ReferenceCheck.firstMismatch(of: layout, against: reference, coverage: .whole) {
                Issue.record("via attributes(for:): \(mismatch)")
                return
            }
            compared += reference.itemCount
        }
        #expect(compared > 20_000)
    }

    /// The rect `genes` describe for `reference`: inside, around and beyond the content, empty
    /// ones, and rects whose edges touch element edges exactly.
    static func rect(_ genes: LayoutGenes.Query, in reference: ReferenceLayout, elements: [ReferenceElement]) -> Rect {
        let height = reference.contentHeight, width = reference.contentWidth
        var rect = Rect(
            x: -20 + genes.x * (width + 20), y: -50 + genes.y * (height + 100),
            width: [width, width / 3, 1, 0][genes.widthChoice], height: [600, 100, 1, 0, genes.height * 300][genes.heightChoice])
        if !elements.isEmpty && genes.touch >= 6 {
            let frame = elements[LayoutGenes.index(genes.element, count: elements.count)].frame
            switch genes.touch {
            case 6: rect.y = frame.y + frame.height  // touches the element's bottom
            case 7: rect.y = frame.y - rect.height  // touches its top
            case 8: rect.x = frame.x + frame.width; rect.y = frame.y  // touches its right edge
            default: rect.x = frame.x - rect.width; rect.y = frame.y
            }
        }
        return rect
    }

    /// 400 random layouts per mode, up to 24 rects each.
    @Test(arguments: RectQueryMode.allCases.filter(\.isExact))
    func exactQueriesMatchTheReference(mode: RectQueryMode) async {
        var answers = 0
        var results: [LayoutAttributes] = []
        await checkProperty(count: 400, input: RandomLayout.generator(), LayoutGenes.query.array(of: 1...24)) { random, queries in
            let layout = try Self.prepared(random, queryMode: mode)
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let elements = reference.allElements()
            for query in queries {
                let rect = Self.rect(query, in: reference, elements: elements)
                layout.elements(in: rect, into: &results)
                answers += results.count
                if let mismatch = ReferenceCheck.firstMismatch(ofQuery: rect, answer: results, against: reference) {
                    Issue.record("\(mode): \(mismatch)")
                    return
                }
            }
        }
        #expect(answers > 4_000)
    }

    /// The valid change `genes` describe for `data` (appends, inserts, removals, height edits,
    /// item moves within and across sections, section moves, reloads with new sizes, section
    /// inserts and removals), with sizes like `RandomLayout`'s.
    static func change(_ genes: LayoutGenes.Change, random: RandomLayout, data: LayoutData) -> LayoutChange {
        func items(_ genes: some Sequence<LayoutGenes.Item>, section: Int) -> [ItemSize] {
            let style = random.styles[section % random.styles.count]
            return genes.map {
                RandomLayout.item($0, regionWidth: random.width - style.insets.horizontal, spacing: style.itemSpacing,
                                  exact: random.exact, fullWidthChance: random.fullWidthChance)
            }
        }
        let sections = data.sectionCount
        guard sections > 0 else { return .insertSection(at: 0, items: items(genes.items, section: 0)) }
        let s = LayoutGenes.index(genes.section, count: sections)
        let count = data.itemCount(inSection: s)
        switch genes.roll {
        case 30..<34 where count > 0:
            // An item move, to its own section (even counts) or to the next one, anywhere in it.
            let to = genes.count % 2 == 0 ? s : (s + 1) % sections
            let room = to == s ? count : data.itemCount(inSection: to) + 1
            let target = LayoutGenes.index(genes.height, count: room)
            return .moveItem(
                from: ItemPath(section: s, item: LayoutGenes.index(genes.position, count: count)),
                to: ItemPath(section: to, item: target))
        case 34..<37:
            return .moveSection(from: s, to: LayoutGenes.index(genes.position, count: sections))
        case 37..<40 where count > 0:
            let at = LayoutGenes.index(genes.position, count: count)
            return .reloadItems(section: s, at: at, items: items(genes.items.prefix(min(genes.count, count - at)), section: s))
        case 0..<40 where count > 0:
            let height = genes.zeroHeight ? 0 : RandomLayout.size(0...300, genes.height, exact: random.exact)
            return .setHeight(section: s, item: LayoutGenes.index(genes.position, count: count), height: height)
        case 40..<60:
            let appended = genes.bigAppend ? (0..<60).map { genes.items[$0 % genes.items.count] } : genes.items
            return .appendItems(section: s, items: items(appended, section: s))
        case 60..<75:
            return .insertItems(section: s, at: LayoutGenes.index(genes.position, count: count + 1), items: items(genes.items.prefix(5), section: s))
        case 75..<88 where count > 0:
            let at = LayoutGenes.index(genes.position, count: count)
            return .removeItems(section: s, at: at, count: min(1 + genes.count % 5, count - at))
        case 88..<95:
            let at = LayoutGenes.index(genes.position, count: sections + 1)
            return .insertSection(at: at, items: items(genes.items.prefix(genes.count - 1), section: at))
        case 95..<100:
            return .removeSection(at: s)
        default:
            return .appendItems(section: s, items: items(genes.items.prefix(1), section: s))
        }
    }

    /// 600 random layouts per mode, each with up to 20 changes checked one by one.
    @Test(arguments: [WaterfallUpdateMode.full, .incremental])
    func updatersMatchTheReferenceAfterEveryChange(mode: WaterfallUpdateMode) async {
        var checks = 0
        await checkProperty(count: 600, input: RandomLayout.generator(maxItems: 25), LayoutGenes.change.array(of: 1...20)) { random, changes in
            var updater = try mode.make(bounds: random.bounds, styles: random.styles, data: random.data)
            var data = random.data
            for (step, changeGenes) in changes.enumerated() {
                let change = Self.change(changeGenes, random: random, data: data)
                try change.apply(to: &data)
                try updater.apply(change)
                // `incremental` shifts a suffix by δ instead of re-summing it: with dyadic inputs every
                // sum is exact and ties break as in the reference; with arbitrary fractions a tie
                // within the tolerance may break either way (ReferenceLayout(breakingNearTiesLike:)).
                let reference = mode == .incremental && !random.exact
                    ? try ReferenceLayout(data: data, styles: random.styles, viewportWidth: random.width, breakingNearTiesLike: updater.frames)
                    : try ReferenceLayout(data: data, styles: random.styles, viewportWidth: random.width)
                checks += 1
                if let mismatch = ReferenceCheck.firstMismatch(of: updater.frames, against: reference) {
                    Issue.record("\(mode) step \(step) \(change): \(mismatch)")
                    return
                }
            }
        }
        #expect(checks > 5_000)
    }
}
