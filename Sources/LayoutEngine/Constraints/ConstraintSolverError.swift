/// Why a `ConstraintSolver` call refused.
public enum ConstraintSolverError: Error, Equatable {
    /// The required constraints (priority 1000) cannot all hold. From `addConstraint` the new
    /// constraint was not added (the payload is nil: the caller knows which one it was); from
    /// `suggestValue` of a required edit variable (nil) the previous value is restored; from
    /// `updateConstant` (the handle) the previous constant is. The solver is unchanged
    /// otherwise and stays usable.
    case unsatisfiableRequired(ConstraintHandle?)
    /// An operation needed more than `pivotLimit` simplex pivots. The solver's values are then
    /// unspecified; discard it.
    case pivotLimitReached
    /// `addEditVariable` of a variable that already is one.
    case editVariableExists
    /// `suggestValue` (or `removeEditVariable`) of a variable that is not an edit variable.
    case unknownEditVariable
    /// `removeConstraint` or `updateConstant` of a handle that is not (or no longer) in the solver.
    case unknownConstraint
    /// A priority outside 1...1000 (or NaN).
    case priorityOutOfRange(Double)
    /// A coefficient, constant or suggested value that is infinite or NaN.
    case nonFiniteValue
}
