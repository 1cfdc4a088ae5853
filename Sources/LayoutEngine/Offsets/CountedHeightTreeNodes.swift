/// The node arrays of a `CountedHeightTree`: flat, fixed-capacity buffers that the tree allocates
/// itself (`NodeMemory`: huge pages for the large ones), so that its hot loops run on plain
/// pointers without bounds, uniqueness or exclusivity checks.
///
/// - A leaf `l` holds `leafSizes[l]` heights at `leafValues[l * leafStride ...]`.
/// - A branch `b` holds `branchSizes[b]` children; slot `s` (at `b * branchStride + s`) keeps how
///   many heights lie under the child, the child's node index and the heights' sum side by side
///   (`BranchSlot`, 16 bytes, read through `branchCounts`, `branchChildren` and `branchSums`), so
///   that a descent reads the count, the sum and the child it picks from the lines it scans.
///   (Counts are `Int32`: at most 2^31 − 1 heights.)
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
    @usableFromInline let branchSlots: UnsafeMutablePointer<BranchSlot>
    @usableFromInline let branchSizes: UnsafeMutablePointer<Int>

    /// Room for `leafCapacity` leaves and `branchCapacity` branches, contents undefined.
    init(leafStride: Int, branchStride: Int, leafCapacity: Int, branchCapacity: Int) {
        self.leafStride = leafStride
        self.branchStride = branchStride
        self.leafCapacity = Swift.max(1, leafCapacity)
        self.branchCapacity = Swift.max(1, branchCapacity)
        leafValues = NodeMemory.allocate(Double.self, count: self.leafCapacity * leafStride)
        leafSizes = NodeMemory.allocate(Int.self, count: self.leafCapacity)
        branchSlots = NodeMemory.allocate(BranchSlot.self, count: self.branchCapacity * branchStride)
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
        copy.branchSlots.update(from: branchSlots, count: branches * branchStride)
        copy.branchSizes.update(from: branchSizes, count: branches)
        return copy
    }

    /// Bytes of the buffers (capacities).
    var bytes: Int {
        leafCapacity * (leafStride * MemoryLayout<Double>.stride + MemoryLayout<Int>.stride)
            + branchCapacity * (branchStride * MemoryLayout<BranchSlot>.stride + MemoryLayout<Int>.stride)
    }

    /// One child of a branch: how many heights lie under it, its node index, their sum.
    @usableFromInline
    struct BranchSlot {
        @usableFromInline var count: Int32
        @usableFromInline var child: Int32
        @usableFromInline var sum: Double
    }

    /// The slots' counts, by slot index.
    @usableFromInline var branchCounts: SlotIntegers { SlotIntegers(slots: branchSlots, isChild: false) }
    /// The slots' children, by slot index.
    @usableFromInline var branchChildren: SlotIntegers { SlotIntegers(slots: branchSlots, isChild: true) }
    /// The slots' sums, by slot index.
    @usableFromInline var branchSums: Sums { Sums(slots: branchSlots) }

    /// The counts or the children of the slots, read and written as `Int`.
    @usableFromInline
    struct SlotIntegers {
        let slots: UnsafeMutablePointer<BranchSlot>
        let isChild: Bool

        @inline(__always) @usableFromInline
        subscript(slot: Int) -> Int {
            get { Int(isChild ? slots[slot].child : slots[slot].count) }
            nonmutating set {
                if isChild { slots[slot].child = Int32(newValue) } else { slots[slot].count = Int32(newValue) }
            }
        }
    }

    /// The sums of the slots.
    @usableFromInline
    struct Sums {
        let slots: UnsafeMutablePointer<BranchSlot>

        @inline(__always) @usableFromInline
        subscript(slot: Int) -> Double {
            get { slots[slot].sum }
            nonmutating set { slots[slot].sum = newValue }
        }
    }

    /// Releases the buffers.
    func deallocate() {
        NodeMemory.deallocate(leafValues, count: leafCapacity * leafStride)
        NodeMemory.deallocate(leafSizes, count: leafCapacity)
        NodeMemory.deallocate(branchSlots, count: branchCapacity * branchStride)
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
