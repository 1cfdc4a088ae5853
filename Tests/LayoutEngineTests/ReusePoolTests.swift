import Testing
@testable import LayoutEngine

/// The reuse strategies on seeded random scrolls: after every step each visible row has exactly one
/// cell of its own identifier, and the stacks create no more cells than the most rows of an
/// identifier ever visible at once.
@Suite struct ReusePoolTests {
    /// Visible ranges of a scroll over `rows` rows: small steps, flings, jumps, and back to the top.
    static func ranges(rows: Int, visible: Int, frames: Int, rng: inout SplitMix64) -> [Range<Int>] {
        var first = 0
        return (0..<frames).map { _ in
            switch rng.int(0...9) {
            case 0: first = rng.int(0...(rows - 1))
            case 1: first = 0
            case 2...4: first += rng.int(-visible...visible)
            default: first += rng.int(-2...3)
            }
            first = Swift.min(Swift.max(0, first), rows - 1)
            let count = Swift.max(0, visible + rng.int(-2...2))
            return first..<Swift.min(rows, first + count)
        }
    }

    @Test func everyVisibleRowHasOneCellOfItsIdentifier() {
        for seed in 0..<20 {
            var rng = SplitMix64(seed: UInt64(seed) + 40)
            let identifierCount = rng.int(1...4)
            let rows = rng.int(1...3000)
            let identifiers = (0..<rows).map { _ in UInt8(rng.int(0...(identifierCount - 1))) }
            let visible = rng.int(1...30)
            let ranges = Self.ranges(rows: rows, visible: visible, frames: 300, rng: &rng)
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
                        Issue.record("\(mode) seed \(seed) frame \(frame): \(problem)")
                        break
                    }
                }
                let statistics = pool.statistics
                #expect(statistics.dequeues == appearances, "\(mode) seed \(seed)")
                switch mode {
                case .none:
                    #expect(statistics.cellsCreated == appearances)
                    #expect(statistics.peakPoolSize == 0)
                case .setScan, .stacks:
                    for i in 0..<identifierCount {
                        let created = pool.cellIdentifiers.filter { $0 == UInt8(i) }.count
                        #expect(created <= mostVisible[i], "\(mode) seed \(seed): \(created) cells of identifier \(i), at most \(mostVisible[i]) visible")
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
