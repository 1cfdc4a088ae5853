import Testing
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Every anchoring rule of the engine, applied by every `RowOffsets` structure, against
/// `ScrollAnchorReference` on thousands of seeded random changes, scroll offsets and contexts; and
/// what each rule must leave on screen, on hand-computed cases.
@Suite struct ScrollAnchorDifferentialTests {
    static func randomChange(count: Int, rng: inout SeededRandom) -> RowChange {
        func height() -> Double { rng.chance(0.05) ? 0 : Double(rng.int(0...800)) / 4 }
        switch rng.int(0...9) {
        case 0...5 where count > 0: return .setHeight(row: rng.int(0...(count - 1)), height: height())
        case 6, 7: return .insert(at: rng.pick([0, count, rng.int(0...count)]), heights: (0..<rng.int(1...4)).map { _ in height() })
        default:
            guard count > 0 else { return .insert(at: 0, heights: [height()]) }
            let at = rng.int(0...(count - 1))
            return .remove(at: at, count: rng.int(1...Swift.min(4, count - at)))
        }
    }

    @Test(arguments: ScrollAnchorMode.allCases)
    func everyStructureAppliesTheRuleAsTheReferenceDoes(_ mode: ScrollAnchorMode) throws {
        var rng = SeededRandom(seed: 0xA9C0 &+ UInt64(mode.rawValue.utf8.count))
        for _ in 0..<150 {
            let heights = (0..<rng.int(0...40)).map { _ in Double(rng.int(0...400)) / 4 }
            var reference = try ScrollAnchorReference(heights: heights, mode: mode)
            var structures = try RowOffsetsMode.allCases.map { try $0.make(heights: heights, estimate: 44) }
            for step in 0..<40 {
                let content = reference.rows.contentHeight
                // On a row boundary half of the time: the rules differ exactly there.
                let boundary = reference.rows.allOffsets[rng.int(0...reference.rows.count)]
                reference.scroll = rng.chance(0.5) ? boundary : rng.double(-20...(content + 20))
                let context = ScrollAnchorContext(isRemeasurement: rng.chance(0.5), scrollingBackward: rng.chance(0.5),
                                                  firstLaidOut: rng.int(0...Swift.max(0, reference.rows.count)))
                let change = Self.randomChange(count: reference.rows.count, rng: &rng)
                let scroll = reference.scroll
                let expected = try reference.apply(change, context: context)
                if mode == .exact { #expect(expected.screenMove.magnitude < 1e-9, "exact moved the top row by \(expected.screenMove)") }
                if mode == .none { #expect(expected.correction == 0) }
                for index in structures.indices {
                    let correction = try structures[index].apply(change, anchoredAt: scroll, mode: mode, context: context)
                    #expect(ReferenceTolerance.equal(correction, expected.correction),
                            "\(mode) \(RowOffsetsMode.allCases[index]) step \(step) \(change) at \(scroll): \(correction), expected \(expected.correction)")
                    let count = structures[index].count
                    let low = rng.int(0...count), high = rng.int(low...count)
                    let shown = structures[index].flutterEstimatedContentHeight(laidOut: low..<high)
                    var flutter = try ScrollAnchorReference(heights: (0..<count).map { structures[index].height(of: $0) }, mode: .flutter)
                    flutter.scroll = 0
                    #expect(ReferenceTolerance.equal(shown, flutter.shownContentHeight(laidOut: low..<high)))
                }
            }
        }
    }

    /// Rows of 100 pt, the viewport top at 250 (inside row 2; row 3 is the top row that starts
    /// at or below it), and row 1 (entirely above) measured at 160 pt.
    @Test func eachRuleOnAMeasurementAbove() throws {
        func step(_ mode: ScrollAnchorMode, _ context: ScrollAnchorContext, row: Int = 1) throws -> ScrollAnchorReference.Step {
            var reference = try ScrollAnchorReference(heights: Array(repeating: 100, count: 10), mode: mode)
            reference.scroll = 250
            return try reference.apply(.setHeight(row: row, height: 160), context: context)
        }
        let first = ScrollAnchorContext(firstLaidOut: 2)
        #expect(try step(.exact, first) == .init(correction: 60, screenMove: 0))
        #expect(try step(.none, first) == .init(correction: 0, screenMove: 60))
        #expect(try step(.tanstack, first) == .init(correction: 60, screenMove: 0))
        // TanStack's re-measurement: only when not scrolling backward.
        #expect(try step(.tanstack, .init(isRemeasurement: true, scrollingBackward: true)) == .init(correction: 0, screenMove: 60))
        #expect(try step(.tanstack, .init(isRemeasurement: true)) == .init(correction: 60, screenMove: 0))
        // The row spanning the fold: a first measurement is corrected, a re-measurement is not.
        #expect(try step(.tanstack, .init(), row: 2) == .init(correction: 60, screenMove: 0))
        #expect(try step(.tanstack, .init(isRemeasurement: true), row: 2) == .init(correction: 0, screenMove: 60))
        // Flutter: above the first laid-out child corrected, at or below it not.
        #expect(try step(.flutter, first) == .init(correction: 60, screenMove: 0))
        #expect(try step(.flutter, .init(firstLaidOut: 1)) == .init(correction: 0, screenMove: 60))
    }

    /// Edits: only `exact` keeps the top row; an older page of 3 × 50 pt above moves it 150 pt down.
    @Test func onlyExactAnchorsEdits() throws {
        for mode in ScrollAnchorMode.allCases {
            var reference = try ScrollAnchorReference(heights: Array(repeating: 100, count: 10), mode: mode)
            reference.scroll = 300
            let step = try reference.apply(.insert(at: 0, heights: [50, 50, 50]), context: .init())
            #expect(step == (mode == .exact ? .init(correction: 150, screenMove: 0) : .init(correction: 0, screenMove: 150)), "\(mode)")
            let removal = try reference.apply(.remove(at: 0, count: 2), context: .init())
            #expect(removal.screenMove == (mode == .exact ? 0 : -100), "\(mode)")
        }
    }

    /// Flutter's extent: trailing edge + average laid-out extent × rows after; exact at the end.
    @Test func flutterExtrapolatesFromTheLaidOutChildren() throws {
        let heights: [Double] = [10, 20, 30, 40, 50, 60]
        let structure = try CountedTreeRowOffsets(heights: heights)
        // Rows 1 and 2 laid out: trailing 60, average 25, 3 rows after: 60 + 75.
        #expect(structure.flutterEstimatedContentHeight(laidOut: 1..<3) == 135)
        #expect(structure.flutterEstimatedContentHeight(laidOut: 4..<6) == 210)
        #expect(structure.flutterEstimatedContentHeight(laidOut: 0..<0) == 210)
    }
}
