/// A variable of a `ConstraintSolver`, made by `makeVariable()`; `index` counts from 0 in the order
/// the solver made them. A variable belongs to the solver that made it.
public struct SolverVariable: Hashable, Sendable {
    public let index: Int

    public init(index: Int) { self.index = index }
}
