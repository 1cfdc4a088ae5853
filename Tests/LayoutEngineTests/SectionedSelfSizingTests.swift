import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// `SectionedLayout`'s self-sizing through every offsets structure, and laid out again (no
/// structure), against a plain model of a list written on its own: on thousands of seeded random
/// lists (sections with headers, insets, spacing, footers) and random sequences of preferred
/// sizes in batches before one `prepare()`, every item's frame, the content size, the content
/// size adjustment (the real change), and random rect queries.
@Suite struct SectionedSelfSizingTests {
    /// The plain model: item tops summed from the section's top every time.
    struct PlainList {
        var heights: [[Double]]
        let style: SectionStyle
        let width: Double

        func regionHeight(_ s: Int) -> Double {
            heights[s].isEmpty ? 0 : heights[s].reduce(0, +) + Double(heights[s].count - 1) * style.lineSpacing
        }
        func sectionHeight(_ s: Int) -> Double {
            style.headerHeight + style.insets.top + regionHeight(s) + style.insets.bottom + style.footerHeight
        }
        func sectionTop(_ s: Int) -> Double { (0..<s).reduce(0) { $0 + sectionHeight($1) } }
        var contentHeight: Double { sectionTop(heights.count) }
        func frame(_ s: Int, _ i: Int) -> Rect {
            var y = sectionTop(s) + style.headerHeight + style.insets.top
            for j in 0..<i { y += heights[s][j] + style.lineSpacing }
            return Rect(x: style.insets.left, y: y, width: width - style.insets.horizontal, height: heights[s][i])
        }
        func items(in rect: Rect) -> Set<ElementID> {
            var found = Set<ElementID>()
            for s in heights.indices {
                for i in heights[s].indices where frame(s, i).intersects(rect) { found.insert(.item(i, section: s)) }
            }
            return found
        }
    }

    @Test(arguments: [nil] + RowOffsetsMode.allCases.map(Optional.some))
    func agreesWithThePlainList(offsets: RowOffsetsMode?) throws {
        var rng = SeededRandom(seed: 4901)
        var results: [LayoutAttributes] = []
        for _ in 0..<400 {
            let sections = rng.int(1...4)
            let counts = (0..<sections).map { _ in rng.int(0...40) }
            let estimate = Double(rng.int(0...200)) / 4
            var style = SectionStyle(kind: .list, lineSpacing: Double(rng.int(0...8)) / 2)
            style.headerHeight = rng.pick([0, 28])
            style.footerHeight = rng.pick([0, 12])
            style.insets = EdgeInsets(top: Double(rng.int(0...8)), left: 4, bottom: Double(rng.int(0...8)), right: 6)
            let width = 320.0
            let data = try LayoutData(
                widths: Array(repeating: 0, count: counts.reduce(0, +)), heights: Array(repeating: estimate, count: counts.reduce(0, +)), counts: counts)
            var plain = PlainList(heights: counts.map { Array(repeating: estimate, count: $0) }, style: style, width: width)
            let bounds = Rect(x: 0, y: 0, width: width, height: 400)
            var layout = try SectionedLayout(bounds: bounds, styles: [style], data: data, offsets: offsets)
            #expect(layout.offsetsMode == offsets)
            try layout.prepare()
            for _ in 0..<rng.int(1...12) {
                let before = layout.contentSize
                var adjustment = 0.0
                // Distinct items in a pass, as UIKit sizes each new cell once, against the pass's layout.
                var picked = Set<ElementID>()
                for _ in 0..<rng.int(1...5) {
                    let nonEmpty = counts.indices.filter { counts[$0] > 0 }
                    guard let s = nonEmpty.isEmpty ? nil : rng.pick(nonEmpty) else { break }
                    let i = rng.int(0...(counts[s] - 1))
                    guard picked.insert(.item(i, section: s)).inserted else { continue }
                    let original = try layout.attributes(for: .item(i, section: s))
                    var preferred = original
                    preferred.frame.height = rng.chance(0.05) ? 0 : Double(rng.int(0...800)) / 4
                    guard layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original) else {
                        #expect(preferred.frame.height == original.frame.height)
                        continue
                    }
                    let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
                    adjustment += context.contentSizeAdjustment.height
                    layout.invalidate(with: context)
                    plain.heights[s][i] = preferred.frame.height
                }
                try layout.prepare()
                let where_ = "offsets \(offsets?.rawValue ?? "none"), counts \(counts)"
                #expect(ReferenceTolerance.equal(layout.contentSize.height, plain.contentHeight), "\(where_): content height \(layout.contentSize.height), the plain list's \(plain.contentHeight)")
                #expect(ReferenceTolerance.equal(before.height + adjustment, layout.contentSize.height), "\(where_): contentSizeAdjustment is not the real change")
                for s in counts.indices {
                    for i in 0..<counts[s] {
                        let frame = try layout.attributes(for: .item(i, section: s)).frame
                        #expect(ReferenceTolerance.equal(frame, plain.frame(s, i)), "\(where_): item[\(s),\(i)] at \(frame), the plain list's \(plain.frame(s, i))")
                    }
                }
                let top = rng.double(-50...(plain.contentHeight + 50))
                let rect = Rect(x: 0, y: top, width: width, height: rng.double(0...500))
                layout.elements(in: rect, into: &results)
                let found = Set(results.filter { $0.id.kind == .item }.map(\.id))
                #expect(found == plain.items(in: rect), "\(where_): the query of \(rect)")
                for attributes in results where attributes.id.kind == .item {
                    #expect(attributes.frame == (try layout.attributes(for: attributes.id)).frame, "\(where_): a query's frame and attributes(for:) disagree")
                }
            }
        }
    }

    /// Once warm, a preferred size applied through an offsets structure, its `prepare()` and a
    /// viewport query allocate nothing (jemalloc's per-thread counter). Unoptimized generic code
    /// may allocate, so a debug build only reports it; an optimized one (`swift test -c release`)
    /// holds every structure to it.
    @Test(arguments: RowOffsetsMode.allCases)
    func warmPreferredSizesAllocateNothing(offsets: RowOffsetsMode) throws {
        let allocated = try #require(ThreadAllocatedBytes(), "jemalloc's mallctl is not linked into the test binary")
        let data = try LayoutData(widths: Array(repeating: 0, count: 3000), heights: Array(repeating: 44, count: 3000), counts: [1000, 2000])
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        var layout = try SectionedLayout(bounds: bounds, styles: [SectionStyle(kind: .list, lineSpacing: 1, headerHeight: 28)], data: data, offsets: offsets)
        try layout.prepare()
        var results: [LayoutAttributes] = []
        results.reserveCapacity(4096)
        func measure(_ round: Int) throws {
            for k in 0..<200 {
                let id = ElementID.item((k * 37) % 2000, section: 1)
                let original = try layout.attributes(for: id)
                var preferred = original
                preferred.frame.height = Double(44 + (k * 13 + round) % 170)
                let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
                layout.invalidate(with: context)
                try layout.prepare()
                layout.elements(in: Rect(x: 0, y: Double(k) * 300, width: 390, height: 844), into: &results)
            }
        }
        try measure(0)
        let before = allocated.read()
        try measure(1)
        let after = allocated.read()
        #if DEBUG
        if after != before { print("\(offsets.rawValue): \(after - before) bytes allocated by warm preferred sizes (debug build)") }
        #else
        #expect(after == before, "\(offsets.rawValue): \(after - before) bytes allocated by warm preferred sizes")
        #endif
    }

    /// An offsets structure keeps list sections only; a flow or waterfall section is refused,
    /// naming the section.
    @Test func offsetsRefuseOtherSectionKinds() throws {
        let data = try LayoutData(widths: [10, 10], heights: [10, 10], counts: [1, 1])
        let styles = [SectionStyle(kind: .list), SectionStyle(kind: .flow(justify: .start, align: .start))]
        #expect(throws: LayoutError.self) {
            _ = try SectionedLayout(bounds: Rect(x: 0, y: 0, width: 100, height: 100), styles: styles, data: data, offsets: .fenwick)
        }
        do {
            _ = try SectionedLayout(bounds: Rect(x: 0, y: 0, width: 100, height: 100), styles: styles, data: data, offsets: .fenwick)
        } catch {
            #expect("\(error)".contains("sections[1]"), "\(error)")
        }
    }
}
