/// The node arrays of a `CountedHeightTree`: flat, fixed-capacity buffers that the tree allocates
/// itself (`NodeMemory`: huge pages for the large ones), so that its hot loops run on plain
/// pointers without bounds, uniqueness or exclusivity checks.
///
/// - A leaf `l` holds `leafSizes[l]` heights at `leafValues[l * leafStride ...]`.
/// - A branch `b` holds `branchSizes[b]` children; slot `s` (at `b * branchStride + s`) keeps the
///   child's node index in `branchChildren`, how many heights lie under it in `branchCounts` and
///   their sum in `branchSums`. Counts and sums are separate runs, so a descent scans only counts
///   and a sum is recomputed from one contiguous run of `Double`s.
///
/// The pointers never change: a tree that needs more nodes copies its nodes into a larger
/// storage, and a tree that shares its storage (a copy of the tree) copies it before a change. The
/// tree keeps a copy of this struct beside its `CountedHeightTreeStorage`, so that reading a
/// pointer costs no reference counting.
@usableFromInline
struct CountedHeightTreeNodes: @unchecked Sendable {
    @usableFromInline let leafStride: Int
    @usableFromInline let branchStride: Int
    /// Leaves and branches there is room for.
    let leafCapacity: Int
    let branchCapacity: Int
    @usableFromInline let leafValues: UnsafeMutablePointer<Double>
    @usableFromInline let leafSizes: UnsafeMutablePointer<Int>
    @usableFromInline let branchCounts: UnsafeMutablePointer<Int>
    @usableFromInline let branchSums: UnsafeMutablePointer<Double>
    @usableFromInline let branchChildren: UnsafeMutablePointer<Int>
    @usableFromInline let branchSizes: UnsafeMutablePointer<Int>

    /// Room for `leafCapacity` leaves and `branchCapacity` branches, contents undefined.
    init(leafStride: Int, branchStride: Int, leafCapacity: Int, branchCapacity: Int) {
        self.leafStride = leafStride
        self.branchStride = branchStride
        self.leafCapacity = Swift.max(1, leafCapacity)
        self.branchCapacity = Swift.max(1, branchCapacity)
        leafValues = NodeMemory.allocate(Double.self, count: self.leafCapacity * leafStride)
        leafSizes = NodeMemory.allocate(Int.self, count: self.leafCapacity)
        branchCounts = NodeMemory.allocate(Int.self, count: self.branchCapacity * branchStride)
        branchSums = NodeMemory.allocate(Double.self, count: self.branchCapacity * branchStride)
        branchChildren = NodeMemory.allocate(Int.self, count: self.branchCapacity * branchStride)
        branchSizes = NodeMemory.allocate(Int.self, count: self.branchCapacity)
    }

    /// A new instance with room for at least as many nodes, holding a copy of the first
    /// `leaves` leaves and `branches` branches.
    func copy(leafCapacity: Int, branchCapacity: Int, leaves: Int, branches: Int) -> CountedHeightTreeNodes {
        precondition(leaves <= leafCapacity && branches <= branchCapacity, "a copy too small for the nodes in use")
        let copy = CountedHeightTreeNodes(
            leafStride: leafStride, branchStride: branchStride, leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        copy.leafValues.update(from: leafValues, count: leaves * leafStride)
        copy.leafSizes.update(from: leafSizes, count: leaves)
        copy.branchCounts.update(from: branchCounts, count: branches * branchStride)
        copy.branchSums.update(from: branchSums, count: branches * branchStride)
        copy.branchChildren.update(from: branchChildren, count: branches * branchStride)
        copy.branchSizes.update(from: branchSizes, count: branches)
        return copy
    }

    /// Bytes of the buffers (capacities).
    var bytes: Int {
        leafCapacity * (leafStride * MemoryLayout<Double>.stride + MemoryLayout<Int>.stride)
            + branchCapacity * (branchStride * (MemoryLayout<Int>.stride * 2 + MemoryLayout<Double>.stride) + MemoryLayout<Int>.stride)
    }

    /// Releases the buffers.
    func deallocate() {
        NodeMemory.deallocate(leafValues, count: leafCapacity * leafStride)
        NodeMemory.deallocate(leafSizes, count: leafCapacity)
        NodeMemory.deallocate(branchCounts, count: branchCapacity * branchStride)
        NodeMemory.deallocate(branchSums, count: branchCapacity * branchStride)
        NodeMemory.deallocate(branchChildren, count: branchCapacity * branchStride)
        NodeMemory.deallocate(branchSizes, count: branchCapacity)
    }
}

/// The owner of one `CountedHeightTreeNodes`: it frees the buffers when the last tree that holds
/// them goes away, and tells a tree whether it is the only holder (copy on write).
@usableFromInline
final class CountedHeightTreeStorage: @unchecked Sendable {
    let nodes: CountedHeightTreeNodes

    init(_ nodes: CountedHeightTreeNodes) {
        self.nodes = nodes
    }

    deinit { nodes.deallocate() }
}
