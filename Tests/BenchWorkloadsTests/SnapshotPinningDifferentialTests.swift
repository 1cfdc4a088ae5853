import Testing
import PropertyBased
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// What `dump` and `render` show (`LayoutSnapshot` with the layout's pins) against the
/// reference's pinning, on random layouts with pins and a pinOffset, at offsets drawn to hit the
/// boundaries (above the top, past the end, on section tops and push boundaries), for every exact
/// query mode: the whole dump and the viewport's answer.
@Suite struct SnapshotPinningDifferentialTests {
    @Test func snapshotsShowTheReferencePins() async {
        var checked = 0
        await checkProperty(count: 80, input: RandomPinnedLayout.generator, LayoutGenes.offset.array(of: 1...10)) { random, offsets in
            let reference = try ReferenceLayout(data: random.data, styles: random.styles, viewportWidth: random.width)
            let frames = SectionedLayout.computeFrames(bounds: random.bounds, styles: random.styles, data: random.data)
            let everything = Rect(x: -1e9, y: -1e9, width: 2e9, height: 4e9 + reference.contentHeight)
            for mode in RectQueryMode.allCases where mode.isExact {
                let snapshot = LayoutSnapshot(
                    frames: frames, queryMode: mode, viewport: random.bounds, styles: random.styles, pinOffset: random.pinOffset)
                for genes in offsets {
                    let offset = random.offset(genes, in: reference)
                    let context = "mode \(mode), offset \(offset)"
                    // The whole dump, less the zero-size elements that no rect query returns.
                    let dumped = snapshot.elements(in: nil, offset: offset).filter { $0.frame.intersects(everything) }
                    if let mismatch = ReferenceCheck.firstMismatch(
                        ofPinnedQuery: everything, answer: dumped, against: reference, pinOffset: random.pinOffset,
                        offset: offset, viewportHeight: random.viewportHeight)
                    {
                        Issue.record("\(context), whole dump: \(mismatch)")
                        return
                    }
                    let viewport = Rect(x: 0, y: offset, width: random.width, height: random.viewportHeight)
                    if let mismatch = ReferenceCheck.firstMismatch(
                        ofPinnedQuery: viewport, answer: snapshot.elements(in: viewport, offset: offset), against: reference,
                        pinOffset: random.pinOffset, offset: offset, viewportHeight: random.viewportHeight)
                    {
                        Issue.record("\(context), viewport: \(mismatch)")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 80 * 5)
    }
}
