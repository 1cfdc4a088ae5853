/// A counted B+-tree of heights: a sequence of `Double`s in which an element can be read, replaced,
/// inserted or removed at any position, and prefix sums and "which position holds offset y" are
/// answered, all in O(log n) (layout-engines.md (ii) 3).
///
/// Leaves hold up to `leafCapacity` heights; branches hold up to `branchCapacity` children with
/// the count and the sum of the heights under each. Nodes live in flat arrays (no object per node,
/// no pointer chasing through the allocator): a leaf is a slice of `leafValues`, a branch a slice of
/// `branchSlots`, whose slots keep a child's count, sum and index side by side, so that a scan
/// through a branch reads one run of memory (one page, a few cache lines) rather than three. A full
/// node splits in two; a node that falls below a quarter of its capacity merges with a neighbour
/// when both fit in one. The hot loops run on unsafe buffers (no bounds or uniqueness check per
/// element); debug builds still check every index.
///
/// Every sum stored in a branch is recomputed from its children (in order) whenever they change,
/// never adjusted by a difference, so the sums do not drift however many updates they see.
/// `prefixSum(upTo:)` and `lastIndex(withPrefixSumAtMost:)` add the same sums in the same order, so
/// they agree exactly on every boundary.
public struct CountedHeightTree: Sendable {
    /// Heights per leaf: 32 (256 bytes, four cache lines), so that the shift and the sum after an
    /// insert touch few lines; at 1,000,000 rows the tree is as deep as with 64.
    public static let leafCapacity = 32
    public static let branchCapacity = 32
    /// Slots per node: one more than the capacity, so a node can overflow by one and then split.
    @usableFromInline static let leafStride = leafCapacity + 1
    @usableFromInline static let branchStride = branchCapacity + 1

    /// One child of a branch: how many heights lie under it, their sum, and the child's node index.
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var count: Int
        @usableFromInline var sum: Double
        @usableFromInline var child: Int

        @usableFromInline static let empty = Slot(count: 0, sum: 0, child: 0)

        @usableFromInline
        init(count: Int, sum: Double, child: Int) {
            self.count = count
            self.sum = sum
            self.child = child
        }
    }

    @usableFromInline var leafValues: [Double] = []
    @usableFromInline var leafSizes: [Int] = []
    @usableFromInline var branchSlots: [Slot] = []
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
                    branchSlots[base + i - first] = Slot(count: childCount, sum: childSum, child: level[i])
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
        branchSlots.append(contentsOf: repeatElement(Slot.empty, count: Self.branchStride))
        branchSizes.append(0)
        return branchSizes.count - 1
    }

    /// The count and the in-order sum of a leaf's heights.
    @usableFromInline
    func leafSummary(_ leaf: Int) -> (count: Int, sum: Double) {
        let base = leaf * Self.leafStride, size = leafSizes[leaf]
        return leafValues.withUnsafeBufferPointer { values in
            var sum = 0.0
            for i in base..<(base + size) { sum += values[i] }
            return (size, sum)
        }
    }

    /// The count and the in-order sum of a branch's children.
    @usableFromInline
    func branchSummary(_ branch: Int) -> (count: Int, sum: Double) {
        let base = branch * Self.branchStride, size = branchSizes[branch]
        return branchSlots.withUnsafeBufferPointer { slots in
            var total = 0, sum = 0.0
            for i in base..<(base + size) {
                total += slots[i].count
                sum += slots[i].sum
            }
            return (total, sum)
        }
    }

    private func size(of node: Int, level: Int) -> Int { level == 0 ? leafSizes[node] : branchSizes[node] }

    private func summary(of node: Int, level: Int) -> (count: Int, sum: Double) {
        level == 0 ? leafSummary(node) : branchSummary(node)
    }

    /// Child slot `slot` of `branch` takes the summary of its child.
    private mutating func refresh(branch: Int, slot: Int, level: Int) {
        let i = branch * Self.branchStride + slot
        let (childCount, childSum) = summary(of: branchSlots[i].child, level: level - 1)
        branchSlots.withUnsafeMutableBufferPointer { slots in
            slots[i].count = childCount
            slots[i].sum = childSum
        }
    }

    /// Moves `count` slots of `branchSlots` from `source` to `target` (the ranges may overlap).
    private mutating func moveSlots(from source: Int, to target: Int, count: Int) {
        Self.move(&branchSlots, from: source, to: target, count: count)
    }

    /// Moves `count` heights of `leafValues` from `source` to `target` (the ranges may overlap).
    private mutating func moveValues(from source: Int, to target: Int, count: Int) {
        Self.move(&leafValues, from: source, to: target, count: count)
    }

    /// Moves `count` elements of `array` from `source` to `target`, in the order that lets the
    /// ranges overlap.
    private static func move<Element>(_ array: inout [Element], from source: Int, to target: Int, count: Int) {
        guard count > 0 else { return }
        array.withUnsafeMutableBufferPointer { elements in
            if target < source {
                for i in 0..<count { elements[target + i] = elements[source + i] }
            } else {
                for i in (0..<count).reversed() { elements[target + i] = elements[source + i] }
            }
        }
    }

    /// The slot of `branch` whose subtree holds position `index` (the first slot whose count
    /// exceeds what is left), and the position within that child.
    @inline(__always)
    private func childSlot(holding index: Int, in branch: Int) -> (slot: Int, remaining: Int) {
        let base = branch * Self.branchStride
        return branchSlots.withUnsafeBufferPointer { slots in
            var slot = 0, remaining = index
            while remaining >= slots[base + slot].count {
                remaining -= slots[base + slot].count
                slot += 1
            }
            return (slot, remaining)
        }
    }

    // MARK: Queries

    /// The height at `index` (`0 ..< count`).
    public func value(at index: Int) -> Double {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        var node = root, remaining = index
        branchSlots.withUnsafeBufferPointer { slots in
            for _ in 0..<depth {
                var slot = node * Self.branchStride
                while remaining >= slots[slot].count {
                    remaining -= slots[slot].count
                    slot += 1
                }
                node = slots[slot].child
            }
        }
        return leafValues[node * Self.leafStride + remaining]
    }

    /// The sum of the heights at positions `0 ..< index` (`index` in `0 ... count`).
    public func prefixSum(upTo index: Int) -> Double {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        var node = root, remaining = index, sum = 0.0
        branchSlots.withUnsafeBufferPointer { slots in
            for _ in 0..<depth {
                var slot = node * Self.branchStride
                let last = slot + branchSizes[node] - 1
                while slot < last && remaining >= slots[slot].count {
                    remaining -= slots[slot].count
                    sum += slots[slot].sum
                    slot += 1
                }
                node = slots[slot].child
            }
        }
        let base = node * Self.leafStride
        leafValues.withUnsafeBufferPointer { values in
            for i in base..<(base + remaining) { sum += values[i] }
        }
        return sum
    }

    /// The sum of all heights.
    public var total: Double { prefixSum(upTo: count) }

    /// The largest `k` in `0 ... count` with `prefixSum(upTo: k) <= y` (0 when y is below 0).
    public func lastIndex(withPrefixSumAtMost y: Double) -> Int {
        var node = root, position = 0, sum = 0.0
        branchSlots.withUnsafeBufferPointer { slots in
            for _ in 0..<depth {
                var slot = node * Self.branchStride
                let last = slot + branchSizes[node] - 1
                while slot < last {
                    let candidate = sum + slots[slot].sum
                    guard candidate <= y else { break }
                    sum = candidate
                    position += slots[slot].count
                    slot += 1
                }
                node = slots[slot].child
            }
        }
        let base = node * Self.leafStride
        leafValues.withUnsafeBufferPointer { values in
            for i in base..<(base + leafSizes[node]) {
                let candidate = sum + values[i]
                guard candidate <= y else { break }
                sum = candidate
                position += 1
            }
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
        let (slot, remaining) = childSlot(holding: index, in: node)
        let i = node * Self.branchStride + slot, child = branchSlots[i].child
        setValue(value, at: remaining, node: child, level: level - 1)
        let childSum = summary(of: child, level: level - 1).sum
        branchSlots.withUnsafeMutableBufferPointer { slots in slots[i].sum = childSum }
    }

    /// Inserts `value` so that it becomes position `index` (`0 ... count`).
    public mutating func insert(_ value: Double, at index: Int) {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        if let sibling = insert(value, at: index, node: root, level: depth) {
            let newRoot = allocateBranch()
            let base = newRoot * Self.branchStride
            branchSlots[base].child = root
            branchSlots[base + 1].child = sibling
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
            moveValues(from: base + index, to: base + index + 1, count: size - index)
            leafValues.withUnsafeMutableBufferPointer { values in values[base + index] = value }
            leafSizes[node] = size + 1
            return size + 1 > Self.leafCapacity ? splitLeaf(node) : nil
        }
        let base = node * Self.branchStride, size = branchSizes[node]
        var slot = 0, remaining = index
        branchSlots.withUnsafeBufferPointer { slots in
            while slot < size - 1 && remaining > slots[base + slot].count {
                remaining -= slots[base + slot].count
                slot += 1
            }
        }
        let split = insert(value, at: remaining, node: branchSlots[base + slot].child, level: level - 1)
        refresh(branch: node, slot: slot, level: level)
        guard let sibling = split else { return nil }
        moveSlots(from: base + slot + 1, to: base + slot + 2, count: size - slot - 1)
        branchSlots[base + slot + 1].child = sibling
        branchSizes[node] = size + 1
        refresh(branch: node, slot: slot + 1, level: level)
        return size + 1 > Self.branchCapacity ? splitBranch(node) : nil
    }

    /// Moves the upper half of an overfull leaf into a new leaf and returns it.
    private mutating func splitLeaf(_ leaf: Int) -> Int {
        let right = allocateLeaf()
        let size = leafSizes[leaf], keep = size / 2
        moveValues(from: leaf * Self.leafStride + keep, to: right * Self.leafStride, count: size - keep)
        leafSizes[leaf] = keep
        leafSizes[right] = size - keep
        return right
    }

    /// Moves the upper half of an overfull branch into a new branch and returns it.
    private mutating func splitBranch(_ branch: Int) -> Int {
        let right = allocateBranch()
        let size = branchSizes[branch], keep = size / 2
        moveSlots(from: branch * Self.branchStride + keep, to: right * Self.branchStride, count: size - keep)
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
            let child = branchSlots[root * Self.branchStride].child
            freeBranches.append(root)
            root = child
            depth -= 1
        }
    }

    private mutating func remove(at index: Int, node: Int, level: Int) {
        if level == 0 {
            let base = node * Self.leafStride, size = leafSizes[node]
            moveValues(from: base + index + 1, to: base + index, count: size - index - 1)
            leafSizes[node] = size - 1
            return
        }
        let base = node * Self.branchStride
        let (slot, remaining) = childSlot(holding: index, in: node)
        let child = branchSlots[base + slot].child
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
        let leftChild = branchSlots[base + left].child, rightChild = branchSlots[base + left + 1].child
        guard size(of: leftChild, level: level - 1) + size(of: rightChild, level: level - 1) <= capacity else { return }
        if level == 1 { mergeLeaf(rightChild, into: leftChild) } else { mergeBranch(rightChild, into: leftChild) }
        removeSlot(left + 1, of: node)
        free(rightChild, level: level - 1)
        refresh(branch: node, slot: left, level: level)
    }

    private mutating func removeSlot(_ slot: Int, of branch: Int) {
        let base = branch * Self.branchStride, size = branchSizes[branch]
        moveSlots(from: base + slot + 1, to: base + slot, count: size - slot - 1)
        branchSizes[branch] = size - 1
    }

    private mutating func free(_ node: Int, level: Int) {
        if level == 0 { freeLeaves.append(node) } else { freeBranches.append(node) }
    }

    private mutating func mergeLeaf(_ right: Int, into left: Int) {
        moveValues(from: right * Self.leafStride, to: left * Self.leafStride + leafSizes[left], count: leafSizes[right])
        leafSizes[left] += leafSizes[right]
    }

    private mutating func mergeBranch(_ right: Int, into left: Int) {
        moveSlots(from: right * Self.branchStride, to: left * Self.branchStride + branchSizes[left], count: branchSizes[right])
        branchSizes[left] += branchSizes[right]
    }

    /// Bytes held by the node arrays (capacities).
    public var storageBytes: Int {
        8 * (leafValues.capacity + leafSizes.capacity + branchSizes.capacity + freeLeaves.capacity + freeBranches.capacity)
            + MemoryLayout<Slot>.stride * branchSlots.capacity
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
                let stored = branchSlots[base + slot]
                guard let child = check(stored.child, level: level - 1, isRoot: false),
                      child.count == stored.count, child.sum == stored.sum else { return nil }
            }
            return branchSummary(node)
        }
        guard let summary = check(root, level: depth, isRoot: true) else { return "a node's size, count or sum is wrong" }
        return summary.count == count ? nil : "the tree holds \(summary.count) values, count says \(count)"
    }
}
