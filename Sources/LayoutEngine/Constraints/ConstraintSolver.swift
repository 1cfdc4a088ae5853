/// A linear constraint solver with priorities: an incremental simplex of the Cassowary family
/// (Badros, Borning and Stuckey 2001), as Auto Layout solves a cell's constraints.
///
/// Semantics (docs/scenario-format.md, constraint templates). Each constraint is `sum(terms) + constant REL 0` at a priority in
/// 1...1000. Required constraints (1000) hold exactly; if they cannot all hold the call that
/// made them conflict throws `unsatisfiableRequired`. The solution then minimises, level by level
/// from the highest non-required priority down, the sum of that level's errors (`|lhs|` for an
/// equality, the violation of an inequality), each level given the optimum of every level above
/// it: the paper's symbolic weights, kept exact as one objective row per priority level rather
/// than collapsed into one number with large weights (as kiwi does). An edit variable at priority
/// p is the constraint `v == suggested` at p; `addEditVariable` starts it at `v`'s current value.
///
/// Algorithm. A dense tableau in the paper's form: every row is `basic = constant + sum(a * x)`
/// over non-basic columns; user variables are unrestricted and enter the basis when their
/// constraint is added (so restricted rows never mention them); slack and error columns are
/// `>= 0`; a required equality carries a dummy column that stays 0 and only marks the
/// constraint for removal. The objective is one row per priority level present (levels appear and
/// disappear with their constraints); a reduced cost is the vector of a column's entries in those
/// rows, compared lexicographically from the highest priority.
/// - `addConstraint`: the row is expressed in the non-basic columns and solved for a user
///   variable, or for its own slack or error column when that keeps it feasible; otherwise a
///   required constraint goes through an artificial variable (phase one), whose optimum tells
///   whether it can hold. Then the primal simplex re-optimises.
/// - `removeConstraint`: its errors leave the objective, its marker is pivoted into the basis
///   (keeping every restricted row feasible and every dummy row at 0) and that row is dropped;
///   then re-optimisation. Should round-off have erased a marker's column, the solver rebuilds
///   its tableau from the other constraints (each record keeps its constraint) in the same slots.
/// - `suggestValue` and `updateConstant`: the constraint's constant changes, which shifts the
///   constants of the rows that hold its marker (no pivot); then the dual simplex restores
///   feasibility, which keeps optimality.
/// - `stageValue`, `stageConstant` and `reoptimize`: the same shifts for any number of edit
///   values and constants, then one dual simplex for all of them (the reduced costs do not
///   depend on the constants, so the tableau stays optimal and only feasibility is lost).
/// - Pivoting follows Bland's rule (lowest column index enters; ties in the ratio test go to the
///   lowest basic column), so no cycling; and every call stops after `pivotLimit` pivots
///   (`pivotLimitReached`), so no input makes it loop.
/// - Once the solver's arrays have grown to the problem's size (after the first add and remove of
///   a constraint of each shape), `suggestValue`, `updateConstant`, `value(of:)` and add/remove
///   (and the staged updates, once a batch as large has been staged) allocate nothing: columns, rows and constraint slots are reused from free lists.
///
/// A value type: copies are independent (copy-on-write arrays). Not thread-safe to mutate
/// concurrently, like any struct.
public struct ConstraintSolver: UnsharedCopying {
    /// Entries smaller than this are treated as 0 (coefficients are rounded to 0 when pivoting).
    static let epsilon = 1e-9

    /// Simplex pivots since `init`, over all calls.
    public internal(set) var pivotCount: Int = 0
    /// Pivots one call may make before it throws `pivotLimitReached`.
    public var pivotLimit: Int = 10_000

    // Columns.
    var columnCapacity = 0
    /// Columns in use are below this (free ones too, listed in `freeColumns`).
    var columnCount = 0
    var columnKind: [ColumnKind] = []
    /// The row of which a column is the basic variable, or -1.
    var columnRow: [Int] = []
    var freeColumns: [Int] = []

    // Rows: `rowBasic[r] = constants[r] + sum(coefficients[r * columnCapacity + j] * x_j)`.
    var rowCapacity = 0
    var rowCount = 0
    var coefficients: [Double] = []
    var constants: [Double] = []
    var rowBasic: [Int] = []

    // Objective: one row of `columnCapacity` entries per level slot.
    var levelCapacity = 0
    var levelPriority: [Double] = []
    /// Constraints of each slot; a slot with none is free.
    var levelUsers: [Int] = []
    /// The slots in use, highest priority first: the lexicographic order.
    var levelOrder: [Int] = []
    var objective: [Double] = []

    // Phase one of adding a required constraint.
    var artificialRow: [Double] = []
    var artificialConstant = 0.0
    var artificialActive = false

    // Variables and constraints.
    var variableColumn: [Int] = []
    /// Per variable, its edit constraint's slot in `records`, or -1.
    var editRecord: [Int] = []
    var records: [ConstraintRecord] = []
    var freeRecords: [Int] = []
    var liveConstraints = 0
    var liveEdits = 0

    /// The non-zero columns of the row being pivoted on.
    var scratchColumns: [Int] = []

    /// Constants changed by `stageConstant`/`stageValue` since the last re-optimisation, with
    /// the values they had before (for `reoptimize` to restore on a conflict).
    var staged: [StagedChange] = []

    public init() {}

    /// A copy whose arrays are its own, of the same capacities (`UnsharedCopying`); its records'
    /// term lists, which the solver only ever replaces, stay shared.
    @usableFromInline package func unsharedCopy() -> ConstraintSolver {
        var copy = self
        copy.columnKind = columnKind.unsharedCopy()
        copy.columnRow = columnRow.unsharedCopy()
        copy.freeColumns = freeColumns.unsharedCopy()
        copy.coefficients = coefficients.unsharedCopy()
        copy.constants = constants.unsharedCopy()
        copy.rowBasic = rowBasic.unsharedCopy()
        copy.levelPriority = levelPriority.unsharedCopy()
        copy.levelUsers = levelUsers.unsharedCopy()
        copy.levelOrder = levelOrder.unsharedCopy()
        copy.objective = objective.unsharedCopy()
        copy.artificialRow = artificialRow.unsharedCopy()
        copy.variableColumn = variableColumn.unsharedCopy()
        copy.editRecord = editRecord.unsharedCopy()
        copy.records = records.unsharedCopy()
        copy.freeRecords = freeRecords.unsharedCopy()
        copy.scratchColumns = scratchColumns.unsharedCopy()
        copy.staged = staged.unsharedCopy()
        return copy
    }

    /// Live constraints added by `addConstraint` (edit variables not counted).
    public var constraintCount: Int { liveConstraints }
    /// Edit variables.
    public var editVariableCount: Int { liveEdits }
    /// Variables made so far.
    public var variableCount: Int { variableColumn.count }

    public mutating func makeVariable() -> SolverVariable {
        reserve(columns: 1, rows: 0)
        let column = allocateColumn(.external)
        variableColumn.append(column)
        editRecord.append(-1)
        return SolverVariable(index: variableColumn.count - 1)
    }

    /// Adds `sum(terms) + constant REL 0` at `priority` (1...1000; 1000 = required) and
    /// re-optimises.
    public mutating func addConstraint(
        _ terms: [LinearTerm], constant: Double, relation: ConstraintRelation, priority: Double
    ) throws(ConstraintSolverError) -> ConstraintHandle {
        precondition(staged.isEmpty, "staged changes: reoptimize() first")
        let slot = try insertConstraint(terms, constant: constant, relation: relation, priority: priority)
        liveConstraints += 1
        return ConstraintHandle(slot: slot, generation: records[slot].generation)
    }

    /// Removes a constraint added by `addConstraint` and re-optimises.
    public mutating func removeConstraint(_ handle: ConstraintHandle) throws(ConstraintSolverError) {
        precondition(staged.isEmpty, "staged changes: reoptimize() first")
        let slot = handle.slot
        guard handle.index >= 0, slot < records.count, records[slot].isLive,
              records[slot].generation == handle.generation, !isEditSlot(slot)
        else { throw .unknownConstraint }
        try deleteConstraint(slot)
        liveConstraints -= 1
    }

    /// Changes the constant of a constraint added by `addConstraint` (a label's intrinsic size
    /// between UIKit's two passes, the next row's text) without removing it: the rows that hold
    /// its marker shift their constants, then the dual simplex re-optimises, as for
    /// `suggestValue`. A required constraint that then conflicts throws
    /// `unsatisfiableRequired(handle)` and keeps its old constant.
    public mutating func updateConstant(_ handle: ConstraintHandle, _ constant: Double) throws(ConstraintSolverError) {
        precondition(staged.isEmpty, "staged changes: reoptimize() first")
        let slot = handle.slot
        guard handle.index >= 0, slot < records.count, records[slot].isLive,
              records[slot].generation == handle.generation, !isEditSlot(slot)
        else { throw .unknownConstraint }
        guard constant.isFinite else { throw .nonFiniteValue }
        let old = records[slot].constant
        shiftMarker(of: slot, constantDelta: constant - old)
        records[slot].constant = constant
        do {
            try dualOptimize()
        } catch .unsatisfiableRequired {
            shiftMarker(of: slot, constantDelta: old - constant)
            records[slot].constant = old
            try dualOptimize()
            throw .unsatisfiableRequired(handle)
        }
    }

    /// Makes `variable` an edit variable at `priority`: the constraint `variable == value` at that
    /// priority, starting at the variable's current value (so adding one never conflicts).
    public mutating func addEditVariable(_ variable: SolverVariable, priority: Double) throws(ConstraintSolverError) {
        precondition(staged.isEmpty, "staged changes: reoptimize() first")
        precondition(variable.index >= 0 && variable.index < variableColumn.count, "not a variable of this solver")
        guard editRecord[variable.index] < 0 else { throw .editVariableExists }
        let current = value(of: variable)
        let slot = try insertConstraint([LinearTerm(variable, 1)], constant: -current, relation: .equal, priority: priority)
        records[slot].editValue = current
        records[slot].isEdit = true
        editRecord[variable.index] = slot
        liveEdits += 1
    }

    /// Stops `variable` being an edit variable (its constraint is removed; re-optimises).
    public mutating func removeEditVariable(_ variable: SolverVariable) throws(ConstraintSolverError) {
        precondition(staged.isEmpty, "staged changes: reoptimize() first")
        precondition(variable.index >= 0 && variable.index < variableColumn.count, "not a variable of this solver")
        let slot = editRecord[variable.index]
        guard slot >= 0 else { throw .unknownEditVariable }
        editRecord[variable.index] = -1
        liveEdits -= 1
        try deleteConstraint(slot)
    }

    /// Whether `variable` is an edit variable.
    public func isEditVariable(_ variable: SolverVariable) -> Bool {
        variable.index >= 0 && variable.index < editRecord.count && editRecord[variable.index] >= 0
    }

    /// Sets an edit variable's wanted value and re-optimises by the dual simplex.
    public mutating func suggestValue(_ variable: SolverVariable, _ value: Double) throws(ConstraintSolverError) {
        precondition(staged.isEmpty, "staged changes: reoptimize() first")
        precondition(variable.index >= 0 && variable.index < variableColumn.count, "not a variable of this solver")
        let slot = editRecord[variable.index]
        guard slot >= 0 else { throw .unknownEditVariable }
        guard value.isFinite else { throw .nonFiniteValue }
        let old = records[slot].editValue
        // The constraint `v - value == 0`: its constant moves by -(value - old).
        shiftMarker(of: slot, constantDelta: old - value)
        records[slot].editValue = value
        do {
            try dualOptimize()
        } catch .unsatisfiableRequired {
            // Only a required edit can conflict: go back to the old value, which held.
            shiftMarker(of: slot, constantDelta: value - old)
            records[slot].editValue = old
            try dualOptimize()
            throw .unsatisfiableRequired(nil)
        }
    }

    /// The variable's value in the current solution.
    public func value(of variable: SolverVariable) -> Double {
        let column = variableColumn[variable.index]
        let row = columnRow[column]
        return row >= 0 ? constants[row] : 0
    }

    func isEditSlot(_ slot: Int) -> Bool { records[slot].isEdit }
}
