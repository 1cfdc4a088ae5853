/// A counted B+-tree of heights: a sequence of `Double`s in which an element can be read, replaced,
/// inserted or removed at any position, and prefix sums and "which position holds offset y" are
/// answered, all in O(log n) (layout-engines.md (ii) 3).
///
/// Leaves hold up to `leafCapacity` heights; branches hold up to `branchCapacity` children with
/// the count and the sum of the heights under each. Nodes live in flat arrays (no object per node,
/// no pointer chasing through the allocator): a leaf is a slice of `leafValues`, a branch a slice of
/// `branchChildren`/`branchCounts`/`branchSums`. A full node splits in two; a node that falls below
/// a quarter of its capacity merges with a neighbour when both fit in one.
///
/// Every sum stored in a branch is recomputed from its children (in order) whenever they change,
/// never adjusted by a difference, so the sums do not drift however many updates they see.
/// `prefixSum(upTo:)` and `index(containing:)` add the same sums in the same order, so they agree
/// exactly on every boundary.
public struct CountedHeightTree: Sendable {
    public static let leafCapacity = 64
    public static let branchCapacity = 32
    /// Slots per node: one more than the capacity, so a node can overflow by one and then split.
    @usableFromInline static let leafStride = leafCapacity + 1
    @usableFromInline static let branchStride = branchCapacity + 1

    @usableFromInline var leafValues: [Double] = []
    @usableFromInline var leafSizes: [Int] = []
    @usableFromInline var branchChildren: [Int] = []
    @usableFromInline var branchCounts: [Int] = []
    @usableFromInline var branchSums: [Double] = []
    @usableFromInline var branchSizes: [Int] = []
    private var freeLeaves: [Int] = []
    private var freeBranches: [Int] = []
    /// The root node: a leaf when `depth` is 0, else a branch with `depth` levels of branches
    /// above the leaves.
    @usableFromInline var root = 0
    @usableFromInline var depth = 0
    /// The number of heights.
    public private(set) var count = 0

    /// An empty tree.
    public init() {
        root = allocateLeaf()
    }

    /// The heights in order, loaded bottom-up with nodes three quarters full (so that the first
    /// inserts do not split every node), O(n).
    public init(_ values: [Double]) {
        let leafFill = Self.leafCapacity * 3 / 4, branchFill = Self.branchCapacity * 3 / 4
        let leafCount = Swift.max(1, (values.count + leafFill - 1) / leafFill)
        leafValues.reserveCapacity(leafCount * Self.leafStride * 5 / 4)
        leafSizes.reserveCapacity(leafCount * 5 / 4)
        var level: [Int] = []
        level.reserveCapacity(leafCount)
        var start = 0
        repeat {
            let end = Swift.min(values.count, start + leafFill)
            let leaf = allocateLeaf()
            let base = leaf * Self.leafStride
            for i in start..<end { leafValues[base + i - start] = values[i] }
            leafSizes[leaf] = end - start
            level.append(leaf)
            start = end
        } while start < values.count
        var levelIsLeaves = true
        while level.count > 1 {
            var parents: [Int] = []
            parents.reserveCapacity((level.count + branchFill - 1) / branchFill)
            var first = 0
            while first < level.count {
                let end = Swift.min(level.count, first + branchFill)
                let branch = allocateBranch()
                let base = branch * Self.branchStride
                for i in first..<end {
                    let (childCount, childSum) = levelIsLeaves ? leafSummary(level[i]) : branchSummary(level[i])
                    branchChildren[base + i - first] = level[i]
                    branchCounts[base + i - first] = childCount
                    branchSums[base + i - first] = childSum
                }
                branchSizes[branch] = end - first
                parents.append(branch)
                first = end
            }
            level = parents
            levelIsLeaves = false
            depth += 1
        }
        root = level[0]
        count = values.count
    }

    // MARK: Nodes

    private mutating func allocateLeaf() -> Int {
        if let leaf = freeLeaves.popLast() {
            leafSizes[leaf] = 0
            return leaf
        }
        leafValues.append(contentsOf: repeatElement(0, count: Self.leafStride))
        leafSizes.append(0)
        return leafSizes.count - 1
    }

    private mutating func allocateBranch() -> Int {
        if let branch = freeBranches.popLast() {
            branchSizes[branch] = 0
            return branch
        }
        branchChildren.append(contentsOf: repeatElement(0, count: Self.branchStride))
        branchCounts.append(contentsOf: repeatElement(0, count: Self.branchStride))
        branchSums.append(contentsOf: repeatElement(0, count: Self.branchStride))
        branchSizes.append(0)
        return branchSizes.count - 1
    }

    /// The count and the in-order sum of a leaf's heights.
    @usableFromInline
    func leafSummary(_ leaf: Int) -> (count: Int, sum: Double) {
        let base = leaf * Self.leafStride, size = leafSizes[leaf]
        var sum = 0.0
        for i in base..<(base + size) { sum += leafValues[i] }
        return (size, sum)
    }

    /// The count and the in-order sum of a branch's children.
    @usableFromInline
    func branchSummary(_ branch: Int) -> (count: Int, sum: Double) {
        let base = branch * Self.branchStride, size = branchSizes[branch]
        var total = 0, sum = 0.0
        for i in base..<(base + size) {
            total += branchCounts[i]
            sum += branchSums[i]
        }
        return (total, sum)
    }

    private func size(of node: Int, level: Int) -> Int { level == 0 ? leafSizes[node] : branchSizes[node] }

    private func summary(of node: Int, level: Int) -> (count: Int, sum: Double) {
        level == 0 ? leafSummary(node) : branchSummary(node)
    }

    /// Child slot `slot` of `branch` takes the summary of its child.
    private mutating func refresh(branch: Int, slot: Int, level: Int) {
        let i = branch * Self.branchStride + slot
        (branchCounts[i], branchSums[i]) = summary(of: branchChildren[i], level: level - 1)
    }

    // MARK: Queries

    /// The height at `index` (`0 ..< count`).
    public func value(at index: Int) -> Double {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        var node = root, remaining = index
        for _ in 0..<depth {
            let base = node * Self.branchStride
            var slot = base
            while remaining >= branchCounts[slot] {
                remaining -= branchCounts[slot]
                slot += 1
            }
            node = branchChildren[slot]
        }
        return leafValues[node * Self.leafStride + remaining]
    }

    /// The sum of the heights at positions `0 ..< index` (`index` in `0 ... count`).
    public func prefixSum(upTo index: Int) -> Double {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        var node = root, remaining = index, sum = 0.0
        for _ in 0..<depth {
            let base = node * Self.branchStride, last = base + branchSizes[node] - 1
            var slot = base
            while slot < last && remaining >= branchCounts[slot] {
                remaining -= branchCounts[slot]
                sum += branchSums[slot]
                slot += 1
            }
            node = branchChildren[slot]
        }
        let base = node * Self.leafStride
        for i in base..<(base + remaining) { sum += leafValues[i] }
        return sum
    }

    /// The sum of all heights.
    public var total: Double { prefixSum(upTo: count) }

    /// The largest `k` in `0 ... count` with `prefixSum(upTo: k) <= y` (0 when y is below 0).
    public func lastIndex(withPrefixSumAtMost y: Double) -> Int {
        var node = root, position = 0, sum = 0.0
        for _ in 0..<depth {
            let base = node * Self.branchStride, last = base + branchSizes[node] - 1
            var slot = base
            while slot < last {
                let candidate = sum + branchSums[slot]
                guard candidate <= y else { break }
                sum = candidate
                position += branchCounts[slot]
                slot += 1
            }
            node = branchChildren[slot]
        }
        let base = node * Self.leafStride
        for i in base..<(base + leafSizes[node]) {
            let candidate = sum + leafValues[i]
            guard candidate <= y else { break }
            sum = candidate
            position += 1
        }
        return position
    }

    // MARK: Changes

    /// Replaces the height at `index`.
    public mutating func setValue(_ value: Double, at index: Int) {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        setValue(value, at: index, node: root, level: depth)
    }

    private mutating func setValue(_ value: Double, at index: Int, node: Int, level: Int) {
        if level == 0 {
            leafValues[node * Self.leafStride + index] = value
            return
        }
        var slot = 0, remaining = index, base = node * Self.branchStride
        while remaining >= branchCounts[base + slot] {
            remaining -= branchCounts[base + slot]
            slot += 1
        }
        setValue(value, at: remaining, node: branchChildren[base + slot], level: level - 1)
        base = node * Self.branchStride
        branchSums[base + slot] = summary(of: branchChildren[base + slot], level: level - 1).sum
    }

    /// Inserts `value` so that it becomes position `index` (`0 ... count`).
    public mutating func insert(_ value: Double, at index: Int) {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        if let sibling = insert(value, at: index, node: root, level: depth) {
            let newRoot = allocateBranch()
            let base = newRoot * Self.branchStride
            branchChildren[base] = root
            branchChildren[base + 1] = sibling
            branchSizes[newRoot] = 2
            depth += 1
            refresh(branch: newRoot, slot: 0, level: depth)
            refresh(branch: newRoot, slot: 1, level: depth)
            root = newRoot
        }
        count += 1
    }

    /// Inserts into the subtree at `node`; returns the new right sibling if `node` split.
    private mutating func insert(_ value: Double, at index: Int, node: Int, level: Int) -> Int? {
        if level == 0 {
            let base = node * Self.leafStride, size = leafSizes[node]
            var i = base + size
            while i > base + index {
                leafValues[i] = leafValues[i - 1]
                i -= 1
            }
            leafValues[base + index] = value
            leafSizes[node] = size + 1
            return size + 1 > Self.leafCapacity ? splitLeaf(node) : nil
        }
        let base = node * Self.branchStride, size = branchSizes[node]
        var slot = 0, remaining = index
        while slot < size - 1 && remaining > branchCounts[base + slot] {
            remaining -= branchCounts[base + slot]
            slot += 1
        }
        let split = insert(value, at: remaining, node: branchChildren[base + slot], level: level - 1)
        refresh(branch: node, slot: slot, level: level)
        guard let sibling = split else { return nil }
        var i = base + size
        while i > base + slot + 1 {
            branchChildren[i] = branchChildren[i - 1]
            branchCounts[i] = branchCounts[i - 1]
            branchSums[i] = branchSums[i - 1]
            i -= 1
        }
        branchChildren[base + slot + 1] = sibling
        branchSizes[node] = size + 1
        refresh(branch: node, slot: slot + 1, level: level)
        return size + 1 > Self.branchCapacity ? splitBranch(node) : nil
    }

    /// Moves the upper half of an overfull leaf into a new leaf and returns it.
    private mutating func splitLeaf(_ leaf: Int) -> Int {
        let right = allocateLeaf()
        let size = leafSizes[leaf], keep = size / 2
        let from = leaf * Self.leafStride, to = right * Self.leafStride
        for i in keep..<size { leafValues[to + i - keep] = leafValues[from + i] }
        leafSizes[leaf] = keep
        leafSizes[right] = size - keep
        return right
    }

    /// Moves the upper half of an overfull branch into a new branch and returns it.
    private mutating func splitBranch(_ branch: Int) -> Int {
        let right = allocateBranch()
        let size = branchSizes[branch], keep = size / 2
        let from = branch * Self.branchStride, to = right * Self.branchStride
        for i in keep..<size {
            branchChildren[to + i - keep] = branchChildren[from + i]
            branchCounts[to + i - keep] = branchCounts[from + i]
            branchSums[to + i - keep] = branchSums[from + i]
        }
        branchSizes[branch] = keep
        branchSizes[right] = size - keep
        return right
    }

    /// Removes the height at `index` (`0 ..< count`).
    public mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        remove(at: index, node: root, level: depth)
        count -= 1
        if count == 0 {
            self = CountedHeightTree()
            return
        }
        while depth > 0 && branchSizes[root] == 1 {
            let child = branchChildren[root * Self.branchStride]
            freeBranches.append(root)
            root = child
            depth -= 1
        }
    }

    private mutating func remove(at index: Int, node: Int, level: Int) {
        if level == 0 {
            let base = node * Self.leafStride, size = leafSizes[node]
            for i in (base + index)..<(base + size - 1) { leafValues[i] = leafValues[i + 1] }
            leafSizes[node] = size - 1
            return
        }
        let base = node * Self.branchStride
        var slot = 0, remaining = index
        while remaining >= branchCounts[base + slot] {
            remaining -= branchCounts[base + slot]
            slot += 1
        }
        let child = branchChildren[base + slot]
        remove(at: remaining, node: child, level: level - 1)
        let childSize = size(of: child, level: level - 1)
        if childSize == 0 {
            // A branch left without children is removed by its own parent in turn.
            removeSlot(slot, of: node)
            free(child, level: level - 1)
            return
        }
        refresh(branch: node, slot: slot, level: level)
        let capacity = level == 1 ? Self.leafCapacity : Self.branchCapacity
        guard childSize < capacity / 4, branchSizes[node] > 1 else { return }
        let left = slot > 0 ? slot - 1 : slot
        let leftChild = branchChildren[base + left], rightChild = branchChildren[base + left + 1]
        guard size(of: leftChild, level: level - 1) + size(of: rightChild, level: level - 1) <= capacity else { return }
        if level == 1 { mergeLeaf(rightChild, into: leftChild) } else { mergeBranch(rightChild, into: leftChild) }
        removeSlot(left + 1, of: node)
        free(rightChild, level: level - 1)
        refresh(branch: node, slot: left, level: level)
    }

    private mutating func removeSlot(_ slot: Int, of branch: Int) {
        let base = branch * Self.branchStride, size = branchSizes[branch]
        for i in (base + slot)..<(base + size - 1) {
            branchChildren[i] = branchChildren[i + 1]
            branchCounts[i] = branchCounts[i + 1]
            branchSums[i] = branchSums[i + 1]
        }
        branchSizes[branch] = size - 1
    }

    private mutating func free(_ node: Int, level: Int) {
        if level == 0 { freeLeaves.append(node) } else { freeBranches.append(node) }
    }

    private mutating func mergeLeaf(_ right: Int, into left: Int) {
        let to = left * Self.leafStride + leafSizes[left], from = right * Self.leafStride
        for i in 0..<leafSizes[right] { leafValues[to + i] = leafValues[from + i] }
        leafSizes[left] += leafSizes[right]
    }

    private mutating func mergeBranch(_ right: Int, into left: Int) {
        let to = left * Self.branchStride + branchSizes[left], from = right * Self.branchStride
        for i in 0..<branchSizes[right] {
            branchChildren[to + i] = branchChildren[from + i]
            branchCounts[to + i] = branchCounts[from + i]
            branchSums[to + i] = branchSums[from + i]
        }
        branchSizes[left] += branchSizes[right]
    }

    /// Bytes held by the node arrays (capacities).
    public var storageBytes: Int {
        8 * (leafValues.capacity + leafSizes.capacity + branchChildren.capacity + branchCounts.capacity
            + branchSums.capacity + branchSizes.capacity + freeLeaves.capacity + freeBranches.capacity)
    }

    /// Checks the tree's invariants (tests and debug builds): every stored count and sum equals its
    /// child's, no node but the root is empty or overfull, and the counts add up to `count`.
    public func checkInvariants() -> String? {
        func check(_ node: Int, level: Int, isRoot: Bool) -> (count: Int, sum: Double)? {
            let size = self.size(of: node, level: level)
            let capacity = level == 0 ? Self.leafCapacity : Self.branchCapacity
            if size > capacity || (!isRoot && size == 0) { return nil }
            if level == 0 { return leafSummary(node) }
            let base = node * Self.branchStride
            for slot in 0..<size {
                guard let child = check(branchChildren[base + slot], level: level - 1, isRoot: false),
                      child.count == branchCounts[base + slot], child.sum == branchSums[base + slot] else { return nil }
            }
            return branchSummary(node)
        }
        guard let summary = check(root, level: depth, isRoot: true) else { return "a node's size, count or sum is wrong" }
        return summary.count == count ? nil : "the tree holds \(summary.count) values, count says \(count)"
    }
}
