import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Every `RowOffsets` strategy against `PrefixSumReference` after thousands of seeded random
/// changes: offsets, heights, content height, row-at-offset on and between every boundary, and the
/// scroll-anchoring correction.
@Suite struct RowOffsetsTests {
    static func makeAll(_ heights: [Double], estimate: Double) throws -> [(RowOffsetsMode, any RowOffsets)] {
        try RowOffsetsMode.allCases.map { ($0, try $0.make(heights: heights, estimate: estimate)) }
    }

    /// A random change for a list of `count` rows; heights are multiples of 1/4 unless `arbitrary`.
    static func randomChange(count: Int, rng: inout SeededRandom, arbitrary: Bool) -> RowChange {
        func height() -> Double {
            if rng.chance(0.05) { return 0 }
            return arbitrary ? rng.double(0...300) : Double(rng.int(0...1200)) / 4
        }
        switch rng.int(0...9) {
        case 0...5 where count > 0:
            return .setHeight(row: rng.int(0...(count - 1)), height: height())
        case 6, 7:
            let at = rng.pick([0, count, rng.int(0...count)])
            return .insert(at: at, heights: (0..<rng.int(1...5)).map { _ in height() })
        default:
            guard count > 0 else { return .insert(at: 0, heights: [height()]) }
            let at = rng.pick([0, rng.int(0...(count - 1))])
            return .remove(at: at, count: rng.int(1...Swift.min(5, count - at)))
        }
    }

    /// The boundaries, the points between them, and points outside the content.
    static func probes(_ reference: PrefixSumReference) -> [Double] {
        let offsets = reference.allOffsets
        var probes = offsets + [-1, -0.25, offsets.last! + 0.5, offsets.last! + 1e9, -.infinity, .infinity]
        for i in 0..<(offsets.count - 1) where offsets[i + 1] > offsets[i] {
            probes.append((offsets[i] + offsets[i + 1]) / 2)
            probes.append(offsets[i + 1].nextDown)
        }
        return probes
    }

    @Test func everyModeEqualsThePlainPrefixSumAfterRandomChanges() throws {
        var changes = 0
        for seed in 0..<40 {
            var rng = SeededRandom(seed: UInt64(seed) &* 7919)
            let estimate = Double(rng.int(40...200)) / 4
            let count = rng.pick([0, 1, 2, rng.int(3...300)])
            let initial: [Double] = rng.chance(0.5)
                ? Array(repeating: estimate, count: count)
                : (0..<count).map { _ in rng.pick([estimate, estimate * 2, 30.25]) }
            var reference = try PrefixSumReference(heights: initial)
            var modes = try Self.makeAll(initial, estimate: estimate)
            // Stable identities of the rows, to follow the anchor row through inserts and removals.
            var ids = Array(0..<count), nextID = count
            for step in 0..<100 {
                let change = Self.randomChange(count: reference.count, rng: &rng, arbitrary: false)
                // A scroll offset on the 1/4 pt grid too, so that every sum below is exact.
                let scroll = reference.count == 0 ? 0 : (reference.contentHeight * rng.double(-0.05...1.05) * 4).rounded() / 4
                // The first row that starts at or below the viewport top, found by a plain scan.
                let anchor = (0..<reference.count).first { reference.offset(of: $0) >= scroll }
                let anchorID = anchor.map { ids[$0] }
                let screenTop = anchor.map { reference.offset(of: $0) - scroll } ?? 0
                let correction = try reference.apply(change, anchoredAt: scroll)
                switch change {
                case .setHeight: break
                case .insert(let at, let heights):
                    ids.insert(contentsOf: (nextID..<(nextID + heights.count)), at: at)
                    nextID += heights.count
                case .remove(let at, let removing): ids.removeSubrange(at..<(at + removing))
                }
                // Anchoring keeps that row, and so everything below it, where it was on screen.
                if let anchorID, let row = ids.firstIndex(of: anchorID) {
                    #expect(reference.offset(of: row) - (scroll + correction) == screenTop,
                            "seed \(seed) step \(step): \(change) moved the anchor row")
                }
                let probes = Self.probes(reference)
                for index in modes.indices {
                    let (mode, _) = modes[index]
                    let modeCorrection = try modes[index].1.apply(change, anchoredAt: scroll)
                    let structure = modes[index].1
                    #expect(modeCorrection == correction, "\(mode) seed \(seed) step \(step): correction")
                    #expect(structure.count == reference.count)
                    for row in 0...reference.count where structure.offset(of: row) != reference.offset(of: row) {
                        Issue.record("\(mode) seed \(seed) step \(step) \(change): offset of row \(row) is \(structure.offset(of: row)), expected \(reference.offset(of: row))")
                        break
                    }
                    for row in 0..<reference.count where structure.height(of: row) != reference.height(of: row) {
                        Issue.record("\(mode) seed \(seed) step \(step): height of row \(row)")
                        break
                    }
                    for y in probes where try structure.row(at: y) != reference.row(at: y) {
                        Issue.record("\(mode) seed \(seed) step \(step) \(change): row(at: \(y)) is \(try structure.row(at: y)), expected \(try reference.row(at: y))")
                        break
                    }
                    if let tree = structure as? CountedTreeRowOffsets, let problem = tree.invariantViolation() {
                        Issue.record("btree seed \(seed) step \(step): \(problem)")
                    }
                }
                changes += 1
            }
        }
        #expect(changes == 4000)
    }

    /// The reference itself, against a plain array summed anew after every change: its starts are
    /// the heights above each row added in order, bit for bit (it re-sums in place from the
    /// changed row, so a start it failed to overwrite, or an array of the wrong length, shows).
    @Test func referenceStartsAreTheInOrderSumsAfterEveryChange() throws {
        for seed in 0..<20 {
            var rng = SeededRandom(seed: UInt64(seed) + 900)
            var plain = (0..<rng.int(0...300)).map { _ in rng.double(0...300) }
            var reference = try PrefixSumReference(heights: plain)
            for step in 0..<200 {
                let change = Self.randomChange(count: plain.count, rng: &rng, arbitrary: true)
                switch change {
                case .setHeight(let row, let height): plain[row] = height
                case .insert(let at, let heights): plain.insert(contentsOf: heights, at: at)
                case .remove(let at, let removing): plain.removeSubrange(at..<(at + removing))
                }
                try reference.apply(change)
                var sums = [0.0], y = 0.0
                for height in plain { y += height; sums.append(y) }
                #expect(reference.allOffsets == sums, "seed \(seed) step \(step)")
                #expect(reference.heights == plain)
            }
        }
    }

    @Test func rowAtOffsetIsExactOnEveryBoundary() throws {
        var rng = SeededRandom(seed: 12)
        let heights = (0..<2000).map { _ in rng.chance(0.1) ? 0 : Double(rng.int(1...800)) / 8 }
        let reference = try PrefixSumReference(heights: heights)
        for (mode, structure) in try Self.makeAll(heights, estimate: 44) {
            for row in 0..<heights.count where heights[row] > 0 {
                // A row of non-zero height owns its top boundary; the point just above belongs to the row before.
                #expect(try structure.row(at: reference.offset(of: row)) == row, "\(mode) row \(row)")
                if row > 0 {
                    #expect(try structure.row(at: reference.offset(of: row).nextDown) == reference.row(at: reference.offset(of: row).nextDown), "\(mode) row \(row)")
                }
            }
        }
    }

    /// Heights with arbitrary fractions: sums round differently in each structure, so offsets agree
    /// within the project's tolerance and row-at-offset agrees away from the boundaries.
    @Test func arbitraryFractionsAgreeWithinTolerance() throws {
        for seed in 0..<10 {
            var rng = SeededRandom(seed: UInt64(seed) + 500)
            let initial = (0..<rng.int(1...400)).map { _ in rng.double(0...300) }
            var reference = try PrefixSumReference(heights: initial)
            var modes = try Self.makeAll(initial, estimate: 43.7)
            for step in 0..<100 {
                let change = Self.randomChange(count: reference.count, rng: &rng, arbitrary: true)
                try reference.apply(change)
                for index in modes.indices { try modes[index].1.apply(change) }
                for (mode, structure) in modes {
                    for row in 0...reference.count where !ReferenceTolerance.equal(structure.offset(of: row), reference.offset(of: row)) {
                        Issue.record("\(mode) seed \(seed) step \(step): offset of row \(row)")
                        break
                    }
                    for row in 0..<reference.count where reference.height(of: row) > 1e-3 {
                        let y = reference.offset(of: row) + reference.height(of: row) / 2
                        if try structure.row(at: y) != row { Issue.record("\(mode) seed \(seed) step \(step): row(at: \(y))"); break }
                    }
                }
            }
        }
    }

    /// The counted tree through thousands of inserts and removals at random places: splits, merges,
    /// root growth and collapse, with its invariants checked at every step.
    @Test func countedTreeKeepsItsInvariantsThroughSplitsAndMerges() throws {
        var rng = SeededRandom(seed: 99)
        var plain = (0..<3000).map { Double($0 % 7) }
        var tree = CountedHeightTree(plain)
        for step in 0..<6000 {
            let growing = (step / 1500) % 2 == 1
            if plain.isEmpty || (growing ? rng.chance(0.8) : rng.chance(0.2)) {
                let at = rng.int(0...plain.count), value = Double(rng.int(0...40)) / 2
                plain.insert(value, at: at)
                tree.insert(value, at: at)
            } else {
                let at = rng.int(0...(plain.count - 1))
                plain.remove(at: at)
                tree.remove(at: at)
            }
            if let problem = tree.invariantViolation() { Issue.record("step \(step): \(problem)"); return }
            if step % 500 == 0 || plain.count < 3 {
                #expect(tree.count == plain.count)
                var sum = 0.0
                for (i, value) in plain.enumerated() {
                    #expect(tree.value(at: i) == value)
                    #expect(tree.prefixSum(upTo: i) == sum)
                    sum += value
                }
                #expect(tree.total == sum)
            }
        }
        // Down to empty and back.
        while tree.count > 0 { tree.remove(at: rng.int(0...(tree.count - 1))) }
        #expect(tree.invariantViolation() == nil)
        tree.insert(5, at: 0)
        #expect(tree.total == 5)
    }

    /// DZTableView keeps `float` offsets: at 30,000 rows of 200.25 pt (6,007,500 pt) a float sum is
    /// off by whole points, since floats are 0.5 pt apart beyond 4.2M pt. Every mode here is exact.
    @Test func noFloat32DriftAtSixMillionPoints() throws {
        let rows = 30_000, height = 200.25
        var float: Float = 0
        var worstFloatError = 0.0
        for row in 0..<rows {
            float += Float(height)
            worstFloatError = Swift.max(worstFloatError, abs(Double(float) - Double(row + 1) * height))
        }
        #expect(Double(float) != 6_007_500)
        #expect(worstFloatError >= 0.5, "float32 accumulation drifts (worst \(worstFloatError) pt)")
        var rng = SeededRandom(seed: 3)
        for (mode, var structure) in try Self.makeAll(Array(repeating: height, count: rows), estimate: 44) {
            // Measure a few rows again (same height), so the deltas of the Fenwick tree are in play.
            for row in stride(from: 0, to: rows, by: 3000) { try structure.setHeight(height, of: row) }
            #expect(structure.contentHeight == 6_007_500, "\(mode)")
            for _ in 0..<200 {
                let row = rng.int(0...rows)
                #expect(structure.offset(of: row) == Double(row) * height, "\(mode) row \(row)")
            }
            #expect(try structure.row(at: 6_007_500 - 200.25) == rows - 1)
            #expect(try structure.row(at: (6_007_500 - 200.25).nextDown) == rows - 2)
        }
    }

    @Test func fenwickStartsFromOneEstimateWithoutPerRowWork() throws {
        var offsets = try FenwickRowOffsets(count: 1_000_000, estimate: 44)
        #expect(offsets.contentHeight == 44_000_000)
        #expect(try offsets.row(at: 44 * 500_000 + 1) == 500_000)
        try offsets.setHeight(100, of: 10)
        #expect(offsets.offset(of: 11) == 11 * 44 + 56)
        #expect(try offsets.row(at: 11 * 44 + 56) == 11)
    }

    @Test func badInputThrowsNamingTheValueAndChangesNothing() throws {
        for (mode, var structure) in try Self.makeAll([10, 20, 30], estimate: 20) {
            let before = (0...3).map { structure.offset(of: $0) }
            func expectError(_ expected: String, _ body: (inout any RowOffsets) throws(RowOffsetsError) -> Void) {
                do {
                    try body(&structure)
                    Issue.record("\(mode): expected an error containing \(expected)")
                } catch {
                    #expect(error.description.contains(expected), "\(mode): \(error.description)")
                }
                #expect((0...3).map { structure.offset(of: $0) } == before, "\(mode) changed after an error")
                #expect(structure.count == 3)
            }
            expectError("NaN") { s throws(RowOffsetsError) in _ = try s.row(at: .nan) }
            expectError("insert at row 5") { s throws(RowOffsetsError) in try s.insert(heights: [1], at: 5) }
            expectError("-1") { s throws(RowOffsetsError) in try s.insert(heights: [4, -1], at: 1) }
            expectError("-2.5") { s throws(RowOffsetsError) in try s.setHeight(-2.5, of: 0) }
            expectError("nan") { s throws(RowOffsetsError) in try s.setHeight(.nan, of: 0) }
            expectError("row 3") { s throws(RowOffsetsError) in try s.setHeight(1, of: 3) }
            expectError("remove 2 rows at row 2") { s throws(RowOffsetsError) in try s.remove(at: 2, count: 2) }
            expectError("NaN") { s throws(RowOffsetsError) in _ = try s.apply(.setHeight(row: 0, height: 1), anchoredAt: .nan) }
        }
        for mode in RowOffsetsMode.allCases {
            #expect(throws: RowOffsetsError.invalidHeight(-44)) { try mode.make(heights: [1, 2], estimate: -44) }
        }
        #expect(throws: RowOffsetsError.invalidHeight(-44)) { try FenwickRowOffsets(count: 10, estimate: -44) }
        #expect(RowOffsetsError.invalidHeight(-44).description.contains("-44"))
    }
}
