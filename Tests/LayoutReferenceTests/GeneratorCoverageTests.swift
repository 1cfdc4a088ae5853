import Testing
import PropertyBased
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// The random layouts of the property tests reach the edge cases of docs/engine-semantics.md §7 (and
/// docs/engine-semantics.md's degenerate inputs) often enough: counted over a fixed sample of generated cases, each
/// kind must appear in at least 1% of them, so a change to the generators cannot quietly stop
/// testing one.
@Suite struct GeneratorCoverageTests {
    static func sample<Value>(_ generator: Generator<Value, some SendableSequenceType>, count: Int) -> [Value] {
        var rng = Xoshiro(seed: (7, 11, 13, 17))
        return (0..<count).map { _ in generator.run(using: &rng) }
    }

    static func expectCommon(_ counts: KeyValuePairs<String, Int>, of total: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, count) in counts {
            #expect(count * 100 >= total, "\(name): \(count) of \(total)", sourceLocation: sourceLocation)
        }
    }

    @Test func layoutsReachEveryDegenerateAndAwkwardCase() {
        let layouts = Self.sample(RandomLayout.generator(), count: 2000)
        var noSections = 0, allEmpty = 0, someEmpty = 0, zeroHeight = 0, widerThanRow = 0, spanning = 0
        var notShortestFirst = 0, weighted = 0, mixedFlowRows = 0, arbitrary = 0, big = 0
        for random in layouts {
            let data = random.data
            if data.sectionCount == 0 { noSections += 1 } else if data.itemCount == 0 { allEmpty += 1 }
            var flags = Set<String>()
            for s in 0..<data.sectionCount {
                let style = random.styles[s % random.styles.count]
                let items = (0..<data.itemCount(inSection: s)).map { data.size(section: s, item: $0) }
                if items.isEmpty && data.itemCount > 0 { flags.insert("empty") }
                if items.count > 100 { flags.insert("big") }
                if items.contains(where: { $0.height == 0 }) { flags.insert("zero") }
                switch style.kind {
                case .flow(_, let align):
                    if items.contains(where: { $0.width > random.width - style.insets.horizontal }) { flags.insert("wide") }
                    if align != .start && Set(items.map(\.height)).count > 1 { flags.insert("mixed") }
                case .waterfall(let waterfall):
                    if items.contains(where: \.spansAllColumns) { flags.insert("span") }
                    if waterfall.direction != .shortestFirst { flags.insert("direction") }
                    if waterfall.weights != nil { flags.insert("weights") }
                case .list:
                    break
                }
            }
            someEmpty += flags.contains("empty") ? 1 : 0
            zeroHeight += flags.contains("zero") ? 1 : 0
            widerThanRow += flags.contains("wide") ? 1 : 0
            spanning += flags.contains("span") ? 1 : 0
            notShortestFirst += flags.contains("direction") ? 1 : 0
            weighted += flags.contains("weights") ? 1 : 0
            mixedFlowRows += flags.contains("mixed") ? 1 : 0
            big += flags.contains("big") ? 1 : 0
            arbitrary += random.exact ? 0 : 1
        }
        Self.expectCommon([
            "no sections": noSections, "every section empty": allEmpty, "an empty section among others": someEmpty,
            "a zero-height item": zeroHeight, "a flow item wider than its row": widerThanRow,
            "a full-width waterfall item": spanning, "a left-to-right or right-to-left waterfall": notShortestFirst,
            "weighted columns": weighted, "a flow row of mixed heights, not top-aligned": mixedFlowRows,
            "a section of over 100 items": big, "arbitrary doubles": arbitrary,
        ], of: layouts.count)
    }

    @Test func pinnedLayoutsReachTheStickyEdgeCases() throws {
        let layouts = Self.sample(RandomPinnedLayout.generator, count: 500)
        var tallHeader = 0, stacked = 0, pinnedFooter = 0, tallFooter = 0, pinOffset = 0, shortViewport = 0, emptySection = 0
        for random in layouts {
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            var flags = Set<String>()
            for s in 0..<reference.sectionCount {
                let style = random.styles[s % random.styles.count]
                let itemsHeight = reference.sectionTops[s + 1] - reference.sectionTops[s] - style.headerHeight - style.footerHeight
                if style.headerPin != .none && style.headerHeight > itemsHeight { flags.insert("tall header") }
                if style.headerPin == .stacked && style.headerHeight > 0 { flags.insert("stacked") }
                if style.footerPin == .normal && style.footerHeight > 0 { flags.insert("footer") }
                if style.footerHeight > random.viewportHeight { flags.insert("tall footer") }
                if reference.itemCount(inSection: s) == 0 && style.headerHeight > 0 { flags.insert("empty") }
            }
            tallHeader += flags.contains("tall header") ? 1 : 0
            stacked += flags.contains("stacked") ? 1 : 0
            pinnedFooter += flags.contains("footer") ? 1 : 0
            tallFooter += flags.contains("tall footer") ? 1 : 0
            emptySection += flags.contains("empty") ? 1 : 0
            pinOffset += random.pinOffset > 0 ? 1 : 0
            shortViewport += random.viewportHeight < 844 ? 1 : 0
        }
        Self.expectCommon([
            "a pinned header taller than its section's items": tallHeader, "stacked headers": stacked,
            "a pinned footer": pinnedFooter, "a footer taller than the viewport": tallFooter,
            "an empty section with a header": emptySection, "a pinOffset (content inset)": pinOffset,
            "a short viewport": shortViewport,
        ], of: layouts.count)
    }

    @Test func queriesTouchElementEdgesExactly() throws {
        let cases = Self.sample(zip(RandomLayout.generator(), LayoutGenes.query.array(of: 1...24)), count: 300)
        var touching = 0, total = 0
        for (random, queries) in cases {
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let elements = reference.allElements()
            for query in queries {
                let rect = DifferentialTests.rect(query, in: reference, elements: elements)
                total += 1
                if elements.contains(where: { $0.frame.maxY == rect.minY || $0.frame.minY == rect.maxY || $0.frame.maxX == rect.minX
                    || $0.frame.minX == rect.maxX })
                {
                    touching += 1
                }
            }
        }
        Self.expectCommon(["a rect touching an element's edge": touching], of: total)
    }
}
