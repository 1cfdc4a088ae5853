/// The node arrays of a `CountedHeightTree`: flat, fixed-capacity buffers that the tree allocates
/// itself (`NodeMemory`: huge pages for the large ones), so that its hot loops run on plain
/// pointers without bounds, uniqueness or exclusivity checks.
///
/// - A leaf `l` holds `leafSizes[l]` heights at `leafValues[l * leafStride ...]`.
/// - A branch `b` holds `branchSizes[b]` children; slot `s` (at `b * branchStride + s`) keeps how
///   many heights lie under the child and the child's node index side by side (`branchSlots`: two
///   `Int32`s, read through `branchCounts` and `branchChildren`), and their sum in `branchSums`. A
///   descent reads the count and the child it picks from the same cache line; a sum is
///   recomputed from one contiguous run of `Double`s. (Counts are `Int32`: at most 2^31 − 1 heights.)
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
    /// Per slot two `Int32`s: the count, then the child.
    @usableFromInline let branchSlots: UnsafeMutablePointer<Int32>
    @usableFromInline let branchSums: UnsafeMutablePointer<Double>
    @usableFromInline let branchSizes: UnsafeMutablePointer<Int>

    /// Room for `leafCapacity` leaves and `branchCapacity` branches, contents undefined.
    init(leafStride: Int, branchStride: Int, leafCapacity: Int, branchCapacity: Int) {
        self.leafStride = leafStride
        self.branchStride = branchStride
        self.leafCapacity = Swift.max(1, leafCapacity)
        self.branchCapacity = Swift.max(1, branchCapacity)
        leafValues = NodeMemory.allocate(Double.self, count: self.leafCapacity * leafStride)
        leafSizes = NodeMemory.allocate(Int.self, count: self.leafCapacity)
        branchSlots = NodeMemory.allocate(Int32.self, count: 2 * self.branchCapacity * branchStride)
        branchSums = NodeMemory.allocate(Double.self, count: self.branchCapacity * branchStride)
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
        copy.branchSlots.update(from: branchSlots, count: 2 * branches * branchStride)
        copy.branchSums.update(from: branchSums, count: branches * branchStride)
        copy.branchSizes.update(from: branchSizes, count: branches)
        return copy
    }

    /// Bytes of the buffers (capacities).
    var bytes: Int {
        leafCapacity * (leafStride * MemoryLayout<Double>.stride + MemoryLayout<Int>.stride)
            + branchCapacity * (branchStride * (MemoryLayout<Int32>.stride * 2 + MemoryLayout<Double>.stride) + MemoryLayout<Int>.stride)
    }

    /// The slots' counts, by slot index.
    @usableFromInline var branchCounts: SlotColumn { SlotColumn(first: branchSlots) }
    /// The slots' children, by slot index.
    @usableFromInline var branchChildren: SlotColumn { SlotColumn(first: branchSlots + 1) }

    /// One of the two `Int32`s of every slot, read and written as `Int`.
    @usableFromInline
    struct SlotColumn {
        let first: UnsafeMutablePointer<Int32>

        @inline(__always) @usableFromInline
        subscript(slot: Int) -> Int {
            get { Int(first[2 &* slot]) }
            nonmutating set { first[2 &* slot] = Int32(newValue) }
        }
    }

    /// Releases the buffers.
    func deallocate() {
        NodeMemory.deallocate(leafValues, count: leafCapacity * leafStride)
        NodeMemory.deallocate(leafSizes, count: leafCapacity)
        NodeMemory.deallocate(branchSlots, count: 2 * branchCapacity * branchStride)
        NodeMemory.deallocate(branchSums, count: branchCapacity * branchStride)
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
