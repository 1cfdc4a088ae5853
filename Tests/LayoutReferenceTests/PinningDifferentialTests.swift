import Testing
import PropertyBased
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Every pinning mode against the reference's direct computation of docs/engine-semantics.md, at thousands of
/// random offsets (drawn to hit the boundaries) on random section structures; a failure shrinks
/// to a small layout and the one offset that shows it.
@Suite(.shrinking) struct PinningDifferentialTests {
    /// 6 chunks x 60 layouts x up to 40 offsets (20 on average), as a sequence of bounds changes
    /// for each mode: the viewport query, a random rect query and `attributes(for:)` of every
    /// pinnable element.
    @Test(arguments: 0..<6)
    func everyPinningModeMatchesTheReference(chunk: Int) async {
        var results: [LayoutAttributes] = []
        var checked = 0
        let scrolls = zip(LayoutGenes.offset, LayoutGenes.query).array(of: 1...40)
        await checkProperty(count: 60, input: RandomPinnedLayout.generator, scrolls) { random, scrolls in
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let elements = reference.allElements()
            var layouts = try PinningMode.allCases.map { try random.layout(mode: $0) }
            for (offsetGenes, queryGenes) in scrolls {
                let offset = random.offset(offsetGenes, in: reference)
                let rect = DifferentialTests.rect(queryGenes, in: reference, elements: elements)
                let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                let pinnable = reference.pinnableSupplementaries(
                    pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                for m in layouts.indices {
                    if layouts[m].shouldInvalidate(forBoundsChange: viewport) {
                        layouts[m].invalidate(with: layouts[m].invalidationContext(forBoundsChange: viewport))
                    }
                    try layouts[m].prepare()
                    let context = "mode \(layouts[m].pinningMode), offset \(offset)"
                    for query in [viewport, rect] {
                        layouts[m].elements(in: query, into: &results)
                        if let mismatch = ReferenceCheck.firstMismatch(
                            ofPinnedQuery: query, answer: results, against: reference, pinOffset: random.pinOffset,
                            offset: offset, viewportHeight: random.viewportHeight)
                        {
                            Issue.record("\(context): \(mismatch)")
                            return
                        }
                    }
                    for expected in pinnable {
                        let actual = try layouts[m].attributes(for: expected.id)
                        guard ReferenceTolerance.equal(actual.frame, expected.frame) && actual.zIndex == expected.zIndex else {
                            Issue.record("\(context): \(expected.id) at \(actual.frame) z \(actual.zIndex), expected \(expected.frame) z \(expected.zIndex)")
                            return
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 60 * 15 * 3)
    }

    /// Pinned elements are added to the answer of every rect-query mode, for the viewport and for
    /// any other rect (a prefetch band, a rect far from the viewport that stacked headers reach);
    /// for the heuristic one, every pinned element of the viewport is there even when it misses
    /// items.
    @Test(arguments: RectQueryMode.allCases)
    func pinningComposesWithEveryQueryMode(queryMode: RectQueryMode) async {
        var results: [LayoutAttributes] = []
        let scrolls = zip(LayoutGenes.offset, LayoutGenes.query).array(of: 1...12)
        await checkProperty(count: 60, input: RandomPinnedLayout.generator, scrolls) { random, scrolls in
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let elements = reference.allElements()
            var layout = try random.layout(mode: .cached, queryMode: queryMode)
            for (offsetGenes, queryGenes) in scrolls {
                let offset = random.offset(offsetGenes, in: reference)
                let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                layout.invalidate(with: .bounds(viewport))
                try layout.prepare()
                let context = "query \(queryMode), offset \(offset)"
                if queryMode.isExact {
                    for query in [viewport, DifferentialTests.rect(queryGenes, in: reference, elements: elements)] {
                        layout.elements(in: query, into: &results)
                        if let mismatch = ReferenceCheck.firstMismatch(
                            ofPinnedQuery: query, answer: results, against: reference, pinOffset: random.pinOffset,
                            offset: offset, viewportHeight: random.viewportHeight)
                        {
                            Issue.record("\(context): \(mismatch)")
                            return
                        }
                    }
                } else {
                    layout.elements(in: viewport, into: &results)
                    let returned = Set(results.map(\.id))
                    let pinned = reference.pinnableSupplementaries(
                        pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                    for expected in pinned where expected.isPinned && expected.frame.intersects(viewport)
                        && expected.frame.minY > viewport.minY + 1e-6 && expected.frame.maxY < viewport.maxY - 1e-6
                        && !returned.contains(expected.id)
                    {
                        Issue.record("\(expected.id) missing (\(context))")
                        return
                    }
                }
            }
        }
    }
}
