/// Batched constant updates: many edit values and constraint constants changed, then one dual
/// simplex for all of them.
///
/// `suggestValue` and `updateConstant` re-optimise after each change (as Cassowary's and kiwi's
/// `suggestValue` do). A measurement that changes a label's four intrinsic-size constants for
/// every label, and the width, pays a dual simplex (at least a scan of every row) per change.
/// Here each change only shifts the constants of the rows that hold its marker (the same shift
/// as `updateConstant`'s), which leaves the reduced costs, hence optimality, untouched; the
/// tableau may turn primal infeasible, and `reoptimize` restores feasibility with one run of the
/// dual simplex. The result is the optimum of the new constants, whatever order they were staged
/// in: the lexicographic optimum's value is unique where the template's heights are read (the
/// tests compare it with the per-constant path and the LP reference).
///
/// Between a `stage…` call and `reoptimize` the tableau is not a solution: `value(of:)` reads
/// values that may violate constraints, and every other mutating call is refused (a
/// precondition), so a batch is always closed by `reoptimize` first.
extension ConstraintSolver {
    /// A staged change: the record slot and the value it had before (the edit value of an edit
    /// variable's constraint, else the constraint's constant).
    struct StagedChange {
        var slot: Int
        var old: Double
    }

    /// Whether changes are staged and `reoptimize` has not run since.
    public var hasStagedChanges: Bool { !staged.isEmpty }

    /// Changes the constant of a constraint added by `addConstraint`, as `updateConstant` does,
    /// without re-optimising: `reoptimize` does that once for the whole batch.
    public mutating func stageConstant(_ handle: ConstraintHandle, _ constant: Double) throws(ConstraintSolverError) {
        let slot = handle.slot
        guard handle.index >= 0, slot < records.count, records[slot].isLive,
              records[slot].generation == handle.generation, !isEditSlot(slot)
        else { throw .unknownConstraint }
        guard constant.isFinite else { throw .nonFiniteValue }
        let old = records[slot].constant
        if constant == old { return }
        staged.append(StagedChange(slot: slot, old: old))
        shiftMarker(of: slot, constantDelta: constant - old)
        records[slot].constant = constant
    }

    /// Sets an edit variable's wanted value, as `suggestValue` does, without re-optimising:
    /// `reoptimize` does that once for the whole batch.
    public mutating func stageValue(_ variable: SolverVariable, _ value: Double) throws(ConstraintSolverError) {
        precondition(variable.index >= 0 && variable.index < variableColumn.count, "not a variable of this solver")
        let slot = editRecord[variable.index]
        guard slot >= 0 else { throw .unknownEditVariable }
        guard value.isFinite else { throw .nonFiniteValue }
        let old = records[slot].editValue
        if value == old { return }
        staged.append(StagedChange(slot: slot, old: old))
        // The constraint `v - value == 0`: its constant moves by -(value - old).
        shiftMarker(of: slot, constantDelta: old - value)
        records[slot].editValue = value
    }

    /// Re-optimises after the staged changes: one dual simplex. When the required constraints
    /// cannot all hold with them, every staged change is undone (the solver is as before the
    /// batch, re-optimised) and it throws `unsatisfiableRequired(nil)`. On `pivotLimitReached`
    /// the solver is to be discarded, as after any call. Either way the batch is closed.
    public mutating func reoptimize() throws(ConstraintSolverError) {
        if staged.isEmpty { return }
        do {
            try dualOptimize()
            staged.removeAll(keepingCapacity: true)
        } catch .unsatisfiableRequired {
            try discardStaged()
            throw .unsatisfiableRequired(nil)
        } catch {
            staged.removeAll(keepingCapacity: true)
            throw error
        }
    }

    /// Undoes every staged change (in reverse order, so a slot staged twice returns to its
    /// first old value) and re-optimises: the solver is as before the batch.
    public mutating func discardStaged() throws(ConstraintSolverError) {
        if staged.isEmpty { return }
        var i = staged.count
        while i > 0 {
            i -= 1
            let change = staged[i]
            if records[change.slot].isEdit {
                let current = records[change.slot].editValue
                shiftMarker(of: change.slot, constantDelta: current - change.old)
                records[change.slot].editValue = change.old
            } else {
                let current = records[change.slot].constant
                shiftMarker(of: change.slot, constantDelta: change.old - current)
                records[change.slot].constant = change.old
            }
        }
        staged.removeAll(keepingCapacity: true)
        try dualOptimize()
    }
}
