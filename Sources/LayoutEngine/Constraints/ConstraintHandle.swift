/// A constraint added to a `ConstraintSolver`, for `removeConstraint(_:)`. The index packs a slot
/// (low 32 bits) and the slot's generation (high bits), so a handle of a removed constraint is
/// refused (`unknownConstraint`) even after its slot has been reused.
public struct ConstraintHandle: Hashable, Sendable {
    public let index: Int

    public init(index: Int) { self.index = index }

    var slot: Int { index & 0xFFFF_FFFF }
    var generation: Int { index >> 32 }

    init(slot: Int, generation: Int) { index = generation << 32 | slot }
}
