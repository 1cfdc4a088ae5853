extension CountedHeightTree: InvariantChecking {
    /// The first broken invariant: every stored count and sum equals its child's, no node but the
    /// root is empty or overfull, and the counts add up to `count`.
    public func invariantViolation() -> String? {
        func check(_ node: Int, level: Int, isRoot: Bool) -> (count: Int, sum: Double)? {
            let size = self.size(of: node, level: level)
            let capacity = level == 0 ? Self.leafCapacity : Self.branchCapacity
            if size > capacity || (!isRoot && size == 0) { return nil }
            if level == 0 { return (size, sum(of: node, level: 0)) }
            let base = node * Self.branchStride
            for slot in 0..<size {
                guard let child = check(nodes.branchChildren[base + slot], level: level - 1, isRoot: false),
                      child.count == nodes.branchCounts[base + slot], child.sum == nodes.branchSums[base + slot] else { return nil }
            }
            return (count(of: node, level: level), sum(of: node, level: level))
        }
        guard depth < Self.maximumDepth, let summary = check(root, level: depth, isRoot: true) else {
            return "a node's size, count or sum is wrong"
        }
        return summary.count == count ? nil : "the tree holds \(summary.count) values, count says \(count)"
    }
}
