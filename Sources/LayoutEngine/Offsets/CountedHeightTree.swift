/// A counted B+-tree of heights: a sequence of `Double`s in which an element can be read, replaced,
/// inserted or removed at any position, and prefix sums and "which position holds offset y" are
/// answered, all in O(log n) (the offsets strategies of docs/modes.md).
///
/// Leaves hold up to `leafCapacity` heights; branches hold up to `branchCapacity` children with
/// the count and the sum of the heights under each. Nodes live in flat buffers
/// (`CountedHeightTreeNodes`: no object per node, huge pages for large trees); a branch slot keeps
/// a child's count, index and sum side by side in 16 bytes, so that a descent or a query reads one
/// run per branch and picks the child from the line it scanned. A full node splits in two; a node
/// that falls below a quarter of its capacity merges with a neighbour when both fit in one. The
/// tree is a value: a copy shares the buffers until one of them changes. The hot loops run on
/// plain pointers; `invariantViolation()` checks the whole structure (CountedHeightTree+Invariants.swift).
///
/// A change descends once: the counts on the way down are adjusted by one (integers, exact), and
/// on the way back up every sum on the path is recomputed from its node's children (`sum(_:count:)`,
/// always in the same order), never adjusted by a difference, so the sums do not drift however many
/// changes they see. `prefixSum(upTo:)` and `lastIndex(withPrefixSumAtMost:)` add the same sums in
/// the same order, so they agree exactly on every boundary.
public struct CountedHeightTree: Sendable {
    /// Heights per leaf: 32 (256 bytes, four cache lines), so that the shift and the sum after an
    /// insert touch few lines.
    public static let leafCapacity = 32
    /// Children per branch: 32, so that a million rows take four levels of branches.
    public static let branchCapacity = 32
    /// Slots per node: one more than the capacity, so a node can overflow by one and then split.
    @usableFromInline static let leafStride = leafCapacity + 1
    @usableFromInline static let branchStride = branchCapacity + 1
    /// The most levels a tree can have (non-root branches keep at least a quarter of their capacity).
    static let maximumDepth = 40

    /// The node buffers, and their owner (shared by copies of the tree until one changes).
    @usableFromInline var nodes: CountedHeightTreeNodes
    private var storage: CountedHeightTreeStorage
    /// Leaves and branches allocated so far (free ones included).
    private var leafCount = 0
    private var branchCount = 0
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
        nodes = CountedHeightTreeNodes(leafStride: Self.leafStride, branchStride: Self.branchStride, leafCapacity: 4, branchCapacity: 4)
        storage = CountedHeightTreeStorage(nodes)
        root = allocateLeaf()
    }

    /// The heights in order, loaded bottom-up with nodes three quarters full (so that the first
    /// inserts do not split every node), O(n).
    public init(_ values: [Double]) {
        let leafFill = Self.leafCapacity * 3 / 4, branchFill = Self.branchCapacity * 3 / 4
        let leaves = Swift.max(1, (values.count + leafFill - 1) / leafFill)
        var branches = 0, width = leaves
        while width > 1 {
            width = (width + branchFill - 1) / branchFill
            branches += width
        }
        // A quarter more room, for the splits of the first inserts.
        nodes = CountedHeightTreeNodes(
            leafStride: Self.leafStride, branchStride: Self.branchStride,
            leafCapacity: leaves + leaves / 4 + 4, branchCapacity: branches + branches / 4 + 4)
        storage = CountedHeightTreeStorage(nodes)
        var level: [Int] = []
        level.reserveCapacity(leaves)
        var start = 0
        values.withUnsafeBufferPointer { values in
            repeat {
                let end = Swift.min(values.count, start + leafFill)
                let leaf = allocateLeaf()
                let base = nodes.leafValues + leaf * Self.leafStride
                for i in start..<end { base[i - start] = values[i] }
                nodes.leafSizes[leaf] = end - start
                level.append(leaf)
                start = end
            } while start < values.count
        }
        var levelIsLeaves = true
        while level.count > 1 {
            var parents: [Int] = []
            parents.reserveCapacity((level.count + branchFill - 1) / branchFill)
            var first = 0
            while first < level.count {
                let end = Swift.min(level.count, first + branchFill)
                let branch = allocateBranch()
                for i in first..<end {
                    nodes.branchChildren[branch * Self.branchStride + i - first] = level[i]
                }
                nodes.branchSizes[branch] = end - first
                for slot in 0..<(end - first) { refresh(branch: branch, slot: slot, childrenAreLeaves: levelIsLeaves) }
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
            nodes.leafSizes[leaf] = 0
            return leaf
        }
        if leafCount == nodes.leafCapacity {
            replaceNodes(leafCapacity: 2 * nodes.leafCapacity, branchCapacity: nodes.branchCapacity)
        }
        nodes.leafSizes[leafCount] = 0
        leafCount += 1
        return leafCount - 1
    }

    private mutating func allocateBranch() -> Int {
        if let branch = freeBranches.popLast() {
            nodes.branchSizes[branch] = 0
            return branch
        }
        if branchCount == nodes.branchCapacity {
            replaceNodes(leafCapacity: nodes.leafCapacity, branchCapacity: 2 * nodes.branchCapacity)
        }
        nodes.branchSizes[branchCount] = 0
        branchCount += 1
        return branchCount - 1
    }

    /// Gives this tree its own buffers before a change (a copy of the tree shares them).
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            replaceNodes(leafCapacity: nodes.leafCapacity, branchCapacity: nodes.branchCapacity)
        }
    }

    /// Moves the nodes into new buffers of the given capacities (the old ones stay with the other
    /// trees that share them, or are freed).
    private mutating func replaceNodes(leafCapacity: Int, branchCapacity: Int) {
        nodes = nodes.copy(leafCapacity: leafCapacity, branchCapacity: branchCapacity, leaves: leafCount, branches: branchCount)
        storage = CountedHeightTreeStorage(nodes)
    }

    /// The sum of `count` consecutive values in a fixed order — four running sums (value `i` goes
    /// to sum `i % 4`, the last `count % 4` values to the first), then `(s0 + s1) + (s2 + s3)` — so
    /// that the same values always give the same sum, with a quarter of the dependent adds.
    @inline(__always) @usableFromInline
    static func sum(_ values: UnsafeMutablePointer<Double>, count: Int) -> Double {
        var lanes = SIMD4<Double>(), i = 0
        let raw = UnsafeRawPointer(values)
        // Eight values per turn (the same order as four at a time: fewer loop branches).
        while i + 8 <= count {
            lanes += raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            lanes += raw.loadUnaligned(fromByteOffset: i * 8 + 32, as: SIMD4<Double>.self)
            i += 8
        }
        if i + 4 <= count {
            lanes += raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            i += 4
        }
        var first = lanes[0]
        while i < count {
            first += values[i]
            i += 1
        }
        return (first + lanes[1]) + (lanes[2] + lanes[3])
    }

    /// The sum of the slots' sums, in the same order as `sum(_:count:)` (sum `i % 4` takes slot `i`,
    /// the last `count % 4` slots go to the first; then `(s0 + s1) + (s2 + s3)`).
    @inline(__always) @usableFromInline
    static func sum(_ slots: UnsafeMutablePointer<CountedHeightTreeNodes.BranchSlot>, count: Int) -> Double {
        var a = 0.0, b = 0.0, c = 0.0, d = 0.0, i = 0
        while i + 4 <= count {
            a += slots[i].sum
            b += slots[i + 1].sum
            c += slots[i + 2].sum
            d += slots[i + 3].sum
            i += 4
        }
        while i < count {
            a += slots[i].sum
            i += 1
        }
        return (a + b) + (c + d)
    }

    /// The sum of the heights under `node` (a leaf when `level` is 0), from its own values or slots.
    @inline(__always)
    func sum(of node: Int, level: Int) -> Double {
        let nodes = self.nodes
        return level == 0
            ? Self.sum(nodes.leafValues + node * Self.leafStride, count: nodes.leafSizes[node])
            : Self.sum(nodes.branchSlots + node * Self.branchStride, count: nodes.branchSizes[node])
    }

    /// The number of heights under `node`, from its size or its slots' counts.
    func count(of node: Int, level: Int) -> Int {
        if level == 0 { return nodes.leafSizes[node] }
        let base = node * Self.branchStride
        var total = 0
        for slot in base..<(base + nodes.branchSizes[node]) { total += nodes.branchCounts[slot] }
        return total
    }

    func size(of node: Int, level: Int) -> Int { level == 0 ? nodes.leafSizes[node] : nodes.branchSizes[node] }

    /// Slot `slot` of `branch` takes the count and the sum of its child.
    private func refresh(branch: Int, slot: Int, childrenAreLeaves: Bool) {
        let i = branch * Self.branchStride + slot, child = nodes.branchChildren[i], level = childrenAreLeaves ? 0 : 1
        nodes.branchCounts[i] = count(of: child, level: level)
        nodes.branchSums[i] = sum(of: child, level: level)
    }

    /// Moves slots `slot ..< size` of `branch` by `shift` (+1 to open a slot, -1 to close one).
    private func shiftSlots(of branch: Int, from slot: Int, size: Int, by shift: Int) {
        let base = branch * Self.branchStride, moving = size - slot
        guard moving > 0 else { return }
        (nodes.branchSlots + base + slot + shift).update(from: nodes.branchSlots + base + slot, count: moving)
    }

    /// Copies `count` slots from one place to another (between branches; no overlap).
    private func copySlots(from source: Int, to target: Int, count: Int) {
        (nodes.branchSlots + target).update(from: nodes.branchSlots + source, count: count)
    }

    // MARK: Queries

    /// The height at `index` (`0 ..< count`).
    public func value(at index: Int) -> Double {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        let nodes = self.nodes
        var node = root, remaining = index
        for _ in 0..<depth {
            var slot = node * Self.branchStride
            while remaining >= nodes.branchCounts[slot] {
                remaining -= nodes.branchCounts[slot]
                slot += 1
            }
            node = nodes.branchChildren[slot]
        }
        return nodes.leafValues[node * Self.leafStride + remaining]
    }

    /// The sum of the heights at positions `0 ..< index` (`index` in `0 ... count`).
    public func prefixSum(upTo index: Int) -> Double {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        let nodes = self.nodes
        var node = root, remaining = index, sum = 0.0
        for _ in 0..<depth {
            var slot = node * Self.branchStride
            let last = slot + nodes.branchSizes[node] - 1
            while slot < last && remaining >= nodes.branchCounts[slot] {
                remaining -= nodes.branchCounts[slot]
                sum += nodes.branchSums[slot]
                slot += 1
            }
            node = nodes.branchChildren[slot]
        }
        let values = nodes.leafValues + node * Self.leafStride
        for i in 0..<remaining { sum += values[i] }
        return sum
    }

    /// The sum of all heights.
    public var total: Double { prefixSum(upTo: count) }

    /// The largest `k` in `0 ... count` with `prefixSum(upTo: k) <= y` (0 when y is below 0).
    public func lastIndex(withPrefixSumAtMost y: Double) -> Int {
        let nodes = self.nodes
        var node = root, position = 0, sum = 0.0
        for _ in 0..<depth {
            var slot = node * Self.branchStride
            let last = slot + nodes.branchSizes[node] - 1
            while slot < last {
                let candidate = sum + nodes.branchSums[slot]
                guard candidate <= y else { break }
                sum = candidate
                position += nodes.branchCounts[slot]
                slot += 1
            }
            node = nodes.branchChildren[slot]
        }
        let values = nodes.leafValues + node * Self.leafStride
        for i in 0..<nodes.leafSizes[node] {
            let candidate = sum + values[i]
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
        defer { _checkInvariants() }
        makeUnique()
        setValue(value, at: index, node: root, level: depth)
    }

    private func setValue(_ value: Double, at index: Int, node: Int, level: Int) {
        let nodes = self.nodes
        if level == 0 {
            nodes.leafValues[node * Self.leafStride + index] = value
            return
        }
        var slot = node * Self.branchStride, remaining = index
        while remaining >= nodes.branchCounts[slot] {
            remaining -= nodes.branchCounts[slot]
            slot += 1
        }
        let child = nodes.branchChildren[slot]
        setValue(value, at: remaining, node: child, level: level - 1)
        nodes.branchSums[slot] = sum(of: child, level: level - 1)
    }

    /// Inserts `value` so that it becomes position `index` (`0 ... count`).
    public mutating func insert(_ value: Double, at index: Int) {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        precondition(count < Int(Int32.max), "a CountedHeightTree holds at most \(Int32.max) heights")
        defer { _checkInvariants() }
        makeUnique()
        if let sibling = insert(value, at: index, node: root, level: depth) {
            let newRoot = allocateBranch()
            let base = newRoot * Self.branchStride
            nodes.branchChildren[base] = root
            nodes.branchChildren[base + 1] = sibling
            nodes.branchSizes[newRoot] = 2
            refresh(branch: newRoot, slot: 0, childrenAreLeaves: depth == 0)
            refresh(branch: newRoot, slot: 1, childrenAreLeaves: depth == 0)
            depth += 1
            root = newRoot
        }
        count += 1
    }

    /// Inserts into the subtree at `node`; returns the new right sibling if `node` split. On the way
    /// down each slot's count grows by one; on the way up its sum is recomputed.
    private mutating func insert(_ value: Double, at index: Int, node: Int, level: Int) -> Int? {
        let nodes = self.nodes
        if level == 0 {
            let values = nodes.leafValues + node * Self.leafStride, size = nodes.leafSizes[node]
            assert(index <= size && size <= Self.leafCapacity)
            if index < size { (values + index + 1).update(from: values + index, count: size - index) }
            values[index] = value
            nodes.leafSizes[node] = size + 1
            return size + 1 > Self.leafCapacity ? splitLeaf(node) : nil
        }
        let base = node * Self.branchStride, size = nodes.branchSizes[node]
        var slot = base, remaining = index
        assert(size > 0)
        // Position `index` at a boundary goes to the end of the left child; the last child's
        // count is at least what remains, so the scan stops there at the latest.
        while remaining > nodes.branchCounts[slot] {
            remaining -= nodes.branchCounts[slot]
            slot += 1
        }
        assert(slot < base + size)
        nodes.branchCounts[slot] += 1
        let child = nodes.branchChildren[slot]
        guard let sibling = insert(value, at: remaining, node: child, level: level - 1) else {
            self.nodes.branchSums[slot] = sum(of: child, level: level - 1)
            return nil
        }
        // The child split (allocating may have moved the buffers: `self.nodes` from here on).
        let childSlot = slot - base
        shiftSlots(of: node, from: childSlot + 1, size: size, by: 1)
        self.nodes.branchChildren[slot + 1] = sibling
        self.nodes.branchSizes[node] = size + 1
        refresh(branch: node, slot: childSlot, childrenAreLeaves: level == 1)
        refresh(branch: node, slot: childSlot + 1, childrenAreLeaves: level == 1)
        return size + 1 > Self.branchCapacity ? splitBranch(node) : nil
    }

    /// Moves the upper half of an overfull leaf into a new leaf and returns it.
    private mutating func splitLeaf(_ leaf: Int) -> Int {
        let right = allocateLeaf()
        let size = nodes.leafSizes[leaf], keep = size / 2
        (nodes.leafValues + right * Self.leafStride).update(from: nodes.leafValues + leaf * Self.leafStride + keep, count: size - keep)
        nodes.leafSizes[leaf] = keep
        nodes.leafSizes[right] = size - keep
        return right
    }

    /// Moves the upper half of an overfull branch into a new branch and returns it.
    private mutating func splitBranch(_ branch: Int) -> Int {
        let right = allocateBranch()
        let size = nodes.branchSizes[branch], keep = size / 2
        copySlots(from: branch * Self.branchStride + keep, to: right * Self.branchStride, count: size - keep)
        nodes.branchSizes[branch] = keep
        nodes.branchSizes[right] = size - keep
        return right
    }

    /// Removes the height at `index` (`0 ..< count`).
    public mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
        defer { _checkInvariants() }
        makeUnique()
        remove(at: index, node: root, level: depth)
        count -= 1
        if count == 0 {
            self = CountedHeightTree()
            return
        }
        while depth > 0 && nodes.branchSizes[root] == 1 {
            let child = nodes.branchChildren[root * Self.branchStride]
            freeBranches.append(root)
            root = child
            depth -= 1
        }
    }

    /// Removes from the subtree at `node` (removing allocates no node, so the buffers stay put).
    private mutating func remove(at index: Int, node: Int, level: Int) {
        let nodes = self.nodes
        if level == 0 {
            let values = nodes.leafValues + node * Self.leafStride, size = nodes.leafSizes[node]
            assert(index < size)
            if index + 1 < size { (values + index).update(from: values + index + 1, count: size - index - 1) }
            nodes.leafSizes[node] = size - 1
            return
        }
        let base = node * Self.branchStride
        var slot = 0, remaining = index
        while remaining >= nodes.branchCounts[base + slot] {
            remaining -= nodes.branchCounts[base + slot]
            slot += 1
        }
        let child = nodes.branchChildren[base + slot]
        remove(at: remaining, node: child, level: level - 1)
        let childSize = size(of: child, level: level - 1)
        if childSize == 0 {
            // A branch left without children is removed by its own parent in turn.
            shiftSlots(of: node, from: slot + 1, size: nodes.branchSizes[node], by: -1)
            nodes.branchSizes[node] -= 1
            free(child, level: level - 1)
            return
        }
        nodes.branchCounts[base + slot] -= 1
        nodes.branchSums[base + slot] = sum(of: child, level: level - 1)
        let capacity = level == 1 ? Self.leafCapacity : Self.branchCapacity
        guard childSize < capacity / 4, nodes.branchSizes[node] > 1 else { return }
        let left = slot > 0 ? slot - 1 : slot
        let leftChild = nodes.branchChildren[base + left], rightChild = nodes.branchChildren[base + left + 1]
        let leftSize = size(of: leftChild, level: level - 1), rightSize = size(of: rightChild, level: level - 1)
        guard leftSize + rightSize <= capacity else { return }
        if level == 1 {
            (nodes.leafValues + leftChild * Self.leafStride + leftSize).update(from: nodes.leafValues + rightChild * Self.leafStride, count: rightSize)
            nodes.leafSizes[leftChild] = leftSize + rightSize
        } else {
            copySlots(from: rightChild * Self.branchStride, to: leftChild * Self.branchStride + leftSize, count: rightSize)
            nodes.branchSizes[leftChild] = leftSize + rightSize
        }
        shiftSlots(of: node, from: left + 2, size: nodes.branchSizes[node], by: -1)
        nodes.branchSizes[node] -= 1
        free(rightChild, level: level - 1)
        refresh(branch: node, slot: left, childrenAreLeaves: level == 1)
    }

    private mutating func free(_ node: Int, level: Int) {
        if level == 0 { freeLeaves.append(node) } else { freeBranches.append(node) }
    }

    /// Bytes held by the node buffers and free lists (capacities).
    public var storageBytes: Int {
        nodes.bytes + MemoryLayout<Int>.stride * (freeLeaves.capacity + freeBranches.capacity)
    }
}
