import Testing
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Layouts tall enough that a `Double` no longer resolves 1e-9 pt (tens of millions of points),
/// with arbitrary fractional sizes: the reference must still agree with the engine within the
/// tolerance, whole and sampled.
@Suite struct LargeLayoutTests {
    static func largeLayout(items: Int) throws -> (data: LayoutData, styles: [SectionStyle]) {
        var rng = SeededRandom(seed: 42)
        let styles = [
            SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3, weights: [1, 1.7, 2.3])), insets: EdgeInsets(top: 3.3, left: 7.1, right: 5),
                         itemSpacing: 6.6, lineSpacing: 4.4, headerHeight: 31.7, footerHeight: 0, background: true),
            SectionStyle(kind: .list, lineSpacing: 0.7, headerHeight: 0, footerHeight: 9.9),
            SectionStyle(kind: .flow(justify: .spaceEvenly, align: .center), insets: EdgeInsets(left: 1.1, bottom: 2.2, right: 3.3),
                         itemSpacing: 5.5, lineSpacing: 3.1),
        ]
        // A few big sections and many small ones.
        var counts = [items / 3, items / 4, items / 5]
        var remaining = items - counts.reduce(0, +)
        while remaining > 0 {
            let count = min(remaining, rng.int(0...200))
            counts.append(count)
            remaining -= count
        }
        var widths: [Double] = [], heights: [Double] = [], spans: [Bool] = []
        for _ in 0..<items {
            widths.append(Double.random(in: 0...200, using: &rng))
            heights.append(Double.random(in: 20...300, using: &rng))
            spans.append(rng.chance(0.01))
        }
        return (try LayoutData(widths: widths, heights: heights, spansAllColumns: spans, counts: counts), styles)
    }

    @Test func engineAndReferenceAgreeAtTensOfMillionsOfPoints() throws {
        let (data, styles) = try Self.largeLayout(items: 200_000)
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        let frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        let reference = try ReferenceLayout(data: data, styles: styles, viewportWidth: bounds.width)
        #expect(reference.contentHeight > 8.4e6)  // past the point where 1e-9 is below an ulp
        #expect(ReferenceCheck.firstMismatch(of: frames, against: reference, coverage: .whole) == nil)
        #expect(ReferenceCheck.firstMismatch(of: frames, against: reference, coverage: .sample) == nil)
    }

    /// The sample still catches a wrong frame in a sampled section, and the counts are always
    /// compared in full.
    @Test func sampledCheckFindsWhatItCovers() throws {
        let (data, styles) = try Self.largeLayout(items: 20_000)
        let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
        let frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        let reference = try ReferenceLayout(data: data, styles: styles, viewportWidth: bounds.width)
        #expect(ReferenceCheck.firstMismatch(of: frames, against: reference, coverage: .sample) == nil)
        var shorter = data
        try shorter.removeItems(section: data.sectionCount - 1, at: 0)
        let other = try ReferenceLayout(data: shorter, styles: styles, viewportWidth: bounds.width)
        #expect(ReferenceCheck.firstMismatch(of: frames, against: other, coverage: .sample) != nil)
        // A wrong item in the last section (always sampled): found.
        var taller = data
        let last = data.sectionCount - 1
        try taller.setHeight(data.heights[data.sectionStarts[last]] + 1, section: last, item: 0)
        let wrong = try ReferenceLayout(data: taller, styles: styles, viewportWidth: bounds.width)
        let mismatch = ReferenceCheck.firstMismatch(of: frames, against: wrong, coverage: .sample)
        #expect(mismatch?.hasPrefix("item[\(last),0]") == true || mismatch?.hasPrefix("content height") == true)
    }
}
