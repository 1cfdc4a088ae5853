import Testing
import PropertyBased
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// The reuse strategies on random scrolls (property tests: a failure shrinks to few rows, few
/// identifiers and a short scroll): after every step each visible row has exactly one cell of its
/// own identifier, and the stacks create no more cells than the most rows of an identifier ever
/// visible at once.
@Suite(.shrinking) struct ReusePoolTests {
    /// One frame of a scroll: `kind` 0...4 a small step, 5...7 a step of up to a screen, 8 back
    /// to the top, 9 a jump anywhere; `amount` how far; `extra` 0...4 rows more or fewer visible.
    struct Scroll: Sendable {
        var kind: Int
        var amount: Double
        var extra: Int
    }

    static let scroll = zip(Gen.int(in: 0...9), Gen.double(in: 0...1), Gen.int(in: 0...4)).map(Scroll.init)

    /// The visible ranges of a scroll over `rows` rows.
    static func ranges(rows: Int, visible: Int, scrolls: [Scroll]) -> [Range<Int>] {
        var first = 0
        return scrolls.map { scroll in
            func step(_ range: ClosedRange<Int>) -> Int {
                let span = range.upperBound - range.lowerBound
                return range.lowerBound + Swift.min(span, Int(scroll.amount * Double(span + 1)))
            }
            switch scroll.kind {
            case 0...4: first += step(-2...3)
            case 5...7: first += step(-visible...visible)
            case 8: first = 0
            default: first = step(0...(rows - 1))
            }
            first = Swift.min(Swift.max(0, first), rows - 1)
            let count = Swift.max(0, visible + scroll.extra - 2)
            return first..<Swift.min(rows, first + count)
        }
    }

    /// Scrolls over random rows: how many identifiers, the identifier of each row (from a seed),
    /// how many rows are visible, and up to 600 frames (300 on average).
    static let scrolls = zip(
        Gen.int(in: 1...4), Gen.int(in: 1...3000), Gen.uint64().withoutShrink(), Gen.int(in: 1...30), scroll.array(of: 1...600))

    @Test func everyVisibleRowHasOneCellOfItsIdentifier() async {
        await propertyCheck(count: 20, input: Self.scrolls) { input in
            let (identifierCount, rows, seed, visible, scrolls) = input
            var rng = SeededRandom(seed: seed)
            let identifiers = (0..<rows).map { _ in UInt8(rng.int(0...(identifierCount - 1))) }
            let ranges = Self.ranges(rows: rows, visible: visible, scrolls: scrolls)
            // The most rows of each identifier visible at once bounds what the stacks may create.
            var mostVisible = Array(repeating: 0, count: identifierCount)
            for range in ranges {
                var counts = Array(repeating: 0, count: identifierCount)
                for row in range { counts[Int(identifiers[row])] += 1 }
                for i in 0..<identifierCount { mostVisible[i] = Swift.max(mostVisible[i], counts[i]) }
            }
            var appearances = 0, previous = 0..<0
            for range in ranges {
                appearances += range.count - range.clamped(to: previous).count
                previous = range
            }
            for mode in ReuseMode.allCases {
                var pool = mode.make(identifierCount: identifierCount, capacityPerIdentifier: visible + 2)
                var seen: [Bool] = []
                for (frame, range) in ranges.enumerated() {
                    pool.show(range, identifiers: identifiers)
                    if let problem = pool.firstProblem(visible: range, identifiers: identifiers, seen: &seen) {
                        Issue.record("\(mode) frame \(frame): \(problem)")
                        break
                    }
                }
                let statistics = pool.statistics
                #expect(statistics.dequeues == appearances, "\(mode)")
                switch mode {
                case .none:
                    #expect(statistics.cellsCreated == appearances)
                    #expect(statistics.peakPoolSize == 0)
                case .setScan, .stacks:
                    for i in 0..<identifierCount {
                        let created = pool.cellIdentifiers.filter { $0 == UInt8(i) }.count
                        #expect(created <= mostVisible[i], "\(mode): \(created) cells of identifier \(i), at most \(mostVisible[i]) visible")
                    }
                    #expect(statistics.discarded == 0)
                }
            }
        }
    }

    @Test func aFullStackDropsCellsAndCountsThem() {
        var pool = ReuseMode.stacks.make(identifierCount: 1, capacityPerIdentifier: 2)
        let identifiers = [UInt8](repeating: 0, count: 100)
        pool.show(0..<10, identifiers: identifiers)
        pool.show(50..<60, identifiers: identifiers)
        var seen: [Bool] = []
        #expect(pool.firstProblem(visible: 50..<60, identifiers: identifiers, seen: &seen) == nil)
        // 10 cells left, 2 fit the stack, 8 were dropped; 8 of the 10 new rows needed new cells.
        #expect(pool.statistics.discarded == 8)
        #expect(pool.statistics.cellsCreated == 18)
        #expect(pool.statistics.peakPoolSize == 2)
    }

    @Test func theVerifierCatchesACellUnderTheWrongIdentifier() {
        var pool = ReuseMode.stacks.make(identifierCount: 2, capacityPerIdentifier: 4)
        var identifiers: [UInt8] = [0, 0, 1, 1, 0, 0]
        pool.show(0..<2, identifiers: identifiers)
        identifiers[0] = 1  // the row changed kind but kept its cell
        var seen: [Bool] = []
        #expect(pool.firstProblem(visible: 0..<2, identifiers: identifiers, seen: &seen)?.contains("identifier") == true)
    }
}
