import PropertyBased
import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

/// `CountedHeightTree` against a plain array of heights whose prefix sums are added up from row 0
/// on every question: random sequences of inserts, removals, replacements and queries (with
/// shrinking), growth from empty to four levels and back (splits, merges, new roots and collapsed
/// roots at every level), and every boundary of lists with zero-height rows. Heights are multiples
/// of 1/4 and small, so every sum is exact and the answers must be equal, not close.
@Suite struct CountedHeightTreeTests {
    /// The oracle: heights in an array, every answer computed from row 0.
    struct PlainHeights {
        var heights: [Double]

        func prefixSum(upTo index: Int) -> Double {
            var sum = 0.0
            for row in 0..<index { sum += heights[row] }
            return sum
        }

        /// The largest `k` with `prefixSum(upTo: k) <= y`, by walking from row 0.
        func lastIndex(withPrefixSumAtMost y: Double) -> Int {
            guard y >= 0 else { return 0 }
            var sum = 0.0, k = 0
            while k < heights.count && sum + heights[k] <= y {
                sum += heights[k]
                k += 1
            }
            return k
        }
    }

    /// One step of a random sequence: `kind` picks insert, remove, replace or query; `position`
    /// and `quarters` (the height in quarter points) are reduced to the list at that moment.
    typealias Step = (kind: Int, position: Int, quarters: Int)

    /// Applies `step` to both and, if `probing`, checks the invariants and compares what the step
    /// touched; returns the first difference.
    static func apply(_ step: Step, to tree: inout CountedHeightTree, _ plain: inout PlainHeights, probing: Bool = true) -> String? {
        let count = plain.heights.count, height = Double(step.quarters) / 4
        switch step.kind {
        case 0...3:
            let at = step.position % (count + 1)
            tree.insert(height, at: at)
            plain.heights.insert(height, at: at)
        case 4...6 where count > 0:
            let at = step.position % count
            tree.remove(at: at)
            plain.heights.remove(at: at)
        case 7...8 where count > 0:
            let at = step.position % count
            tree.setValue(height, at: at)
            plain.heights[at] = height
        default:
            break
        }
        if tree.count != plain.heights.count { return "count \(tree.count), expected \(plain.heights.count)" }
        guard probing else { return nil }
        if let problem = tree.invariantViolation() { return problem }
        // Probes around the step's position: a prefix sum, the value, and row-at-offset on the
        // boundary, just below it and in the middle of the row.
        let index = step.position % (plain.heights.count + 1)
        let offset = plain.prefixSum(upTo: index)
        if tree.prefixSum(upTo: index) != offset { return "prefixSum(upTo: \(index)) \(tree.prefixSum(upTo: index)), expected \(offset)" }
        if index < plain.heights.count, tree.value(at: index) != plain.heights[index] { return "value(at: \(index))" }
        for y in [offset, offset.nextDown, offset + Double(step.quarters) / 8, -1] {
            let found = tree.lastIndex(withPrefixSumAtMost: y), expected = plain.lastIndex(withPrefixSumAtMost: y)
            if found != expected { return "lastIndex(withPrefixSumAtMost: \(y)) \(found), expected \(expected)" }
        }
        return nil
    }

    /// Every value, every prefix sum (a running sum from row 0) and row-at-offset on every
    /// boundary, just below it, and past both ends. The expected rows come from walking the
    /// heights from row 0 once per sequence of offsets (each sequence is non-decreasing).
    static func compareEverything(_ tree: CountedHeightTree, _ plain: PlainHeights) -> String? {
        let heights = plain.heights
        if tree.count != heights.count { return "count \(tree.count), expected \(heights.count)" }
        var offsets = [0.0]
        for height in heights { offsets.append(offsets.last! + height) }
        for row in heights.indices where tree.value(at: row) != heights[row] { return "value(at: \(row))" }
        for row in offsets.indices where tree.prefixSum(upTo: row) != offsets[row] {
            return "prefixSum(upTo: \(row)) \(tree.prefixSum(upTo: row)), expected \(offsets[row])"
        }
        for probes in [offsets, offsets.map(\.nextDown)] {
            var k = 0, sum = 0.0
            for y in probes {
                while y >= 0 && k < heights.count && sum + heights[k] <= y {
                    sum += heights[k]
                    k += 1
                }
                let found = tree.lastIndex(withPrefixSumAtMost: y)
                if found != k { return "lastIndex(withPrefixSumAtMost: \(y)) \(found), expected \(k)" }
            }
        }
        if tree.total != offsets.last! { return "total \(tree.total), expected \(offsets.last!)" }
        for y in [-.infinity, -0.25, offsets.last! + 0.25, .infinity] where tree.lastIndex(withPrefixSumAtMost: y) != plain.lastIndex(withPrefixSumAtMost: y) {
            return "lastIndex(withPrefixSumAtMost: \(y))"
        }
        return nil
    }

    /// Random sequences from random starting lists (empty, one row, up to two levels of branches),
    /// checked after every step; the failing sequence is shrunk to a short one.
    @Test func randomSequencesMatchThePlainHeights() async {
        let steps = zip(Gen.int(in: 0...9), Gen.int(in: 0...100_000), Gen.int(in: 0...400)).array(of: 1...150)
        await propertyCheck(count: 60, input: Gen.int(in: 0...1_500), Gen.int(in: 0...3), steps) { size, pattern, steps in
            // Zero heights often, so that boundaries coincide.
            let initial = (0..<size).map { row in pattern == 0 ? 44 : Double((row * 37 + pattern) % 5 == 0 ? 0 : (row * 13) % 90) / 4 }
            var tree = CountedHeightTree(initial)
            var plain = PlainHeights(heights: initial)
            for (index, step) in steps.enumerated() {
                if let problem = Self.apply(step, to: &tree, &plain) {
                    Issue.record("size \(size), step \(index) \(step): \(problem)")
                    return
                }
            }
            if let problem = Self.compareEverything(tree, plain) { Issue.record("size \(size), at the end: \(problem)") }
        }
    }

    /// From empty to more than 20,000 rows by inserts at random places (new roots at every level,
    /// the node buffers growing), then back to empty by removals (merges and collapsed roots at
    /// every level), with everything compared whenever the depth changes and a probe every 97 steps.
    @Test func growsToFourLevelsAndShrinksToEmpty() {
        var rng = SeededRandom(seed: 2024)
        var tree = CountedHeightTree(), plain = PlainHeights(heights: [])
        var depths: Set<Int> = [tree.depth], deepest = 0, steps = 0
        func step(_ kind: Int) -> Bool {
            let depth = tree.depth
            steps += 1
            let step = (kind, rng.int(0...1_000_000), rng.int(0...400))
            if let problem = Self.apply(step, to: &tree, &plain, probing: steps % 97 == 0 || plain.heights.count < 100) {
                Issue.record("\(plain.heights.count) rows: \(problem)")
                return false
            }
            if tree.depth != depth {
                depths.insert(tree.depth)
                deepest = Swift.max(deepest, tree.depth)
                if let problem = Self.compareEverything(tree, plain) { Issue.record("depth \(depth) → \(tree.depth): \(problem)"); return false }
            }
            return true
        }
        // Inserts, with a few removals and replacements mixed in; then mostly removals.
        while plain.heights.count < 22_000 { guard step(rng.chance(0.9) ? 0 : rng.int(4...8)) else { return } }
        #expect(deepest >= 3, "the tree reached only depth \(deepest)")
        if let problem = Self.compareEverything(tree, plain) { Issue.record("at the largest: \(problem)") }
        while !plain.heights.isEmpty { guard step(rng.chance(0.9) ? 4 : rng.int(0...8)) else { return } }
        #expect(tree.depth == 0 && tree.count == 0)
        #expect(depths == Set(0...deepest), "depths seen: \(depths.sorted())")
        #expect(Self.compareEverything(tree, plain) == nil)
    }

    /// Lists built in one go at every size around a leaf's and a branch's capacity, with runs of
    /// zero heights: every boundary answers exactly.
    @Test func everyBoundaryOfBulkLoadedLists() {
        let leaf = CountedHeightTree.leafCapacity, branch = CountedHeightTree.branchCapacity
        let sizes = [0, 1, 2, leaf - 1, leaf, leaf + 1, leaf * 3 / 4 * branch * 3 / 4, leaf * 3 / 4 * branch * 3 / 4 + 1, 3_000]
        for size in sizes {
            let heights = (0..<size).map { row in row % 7 < 2 ? 0 : Double(row % 11) / 4 }
            let tree = CountedHeightTree(heights)
            #expect(tree.invariantViolation() == nil, "size \(size)")
            if let problem = Self.compareEverything(tree, PlainHeights(heights: heights)) { Issue.record("size \(size): \(problem)") }
        }
        let empty = CountedHeightTree()
        #expect(empty.count == 0 && empty.total == 0 && empty.prefixSum(upTo: 0) == 0)
        #expect(empty.lastIndex(withPrefixSumAtMost: 100) == 0 && empty.lastIndex(withPrefixSumAtMost: -1) == 0)
    }

    /// A copy keeps its heights while the original changes (the buffers are copied on write), and
    /// the other way round.
    @Test func copiesAreIndependent() {
        var original = CountedHeightTree((0..<5_000).map { Double($0 % 9) })
        let before = original
        for row in stride(from: 0, to: 5_000, by: 50) { original.insert(1000, at: row) }
        original.setValue(7, at: 0)
        original.remove(at: 10)
        #expect(before.count == 5_000 && before.value(at: 0) == 0)
        #expect(Self.compareEverything(before, PlainHeights(heights: (0..<5_000).map { Double($0 % 9) })) == nil)
        var copy = original
        copy.remove(at: 0)
        #expect(original.value(at: 0) == 7 && copy.count == original.count - 1)
        #expect(original.invariantViolation() == nil && copy.invariantViolation() == nil)
    }
}
