/// Adding and removing one constraint (the Cassowary procedures), and the objective's levels.
extension ConstraintSolver {
    /// Adds a constraint and re-optimises; returns its record slot.
    mutating func insertConstraint(
        _ terms: [LinearTerm], constant: Double, relation: ConstraintRelation, priority: Double, slot given: Int? = nil
    ) throws(ConstraintSolverError) -> Int {
        guard priority >= 1 && priority <= 1000 else { throw .priorityOutOfRange(priority) }
        guard constant.isFinite else { throw .nonFiniteValue }
        for t in 0..<terms.count {
            let term = terms[t]
            guard term.coefficient.isFinite else { throw .nonFiniteValue }
            precondition(term.variable.index >= 0 && term.variable.index < variableColumn.count,
                         "not a variable of this solver")
        }
        let required = priority >= 1000
        reserve(columns: 3, rows: 1)
        let stride = columnCapacity
        let r = rowCount
        rowCount += 1
        rowBasic[r] = -1
        let base = r * stride

        // The row `0 = constant + sum(terms)` over the non-basic columns.
        var k = constant
        for t in 0..<terms.count {
            let term = terms[t]
            let column = variableColumn[term.variable.index]
            let basicRow = columnRow[column]
            if basicRow >= 0 {
                let from = basicRow * stride
                for j in 0..<columnCount where coefficients[from + j] != 0 {
                    coefficients[base + j] += term.coefficient * coefficients[from + j]
                }
                k += term.coefficient * constants[basicRow]
            } else {
                coefficients[base + column] += term.coefficient
            }
        }
        for j in 0..<columnCount where abs(coefficients[base + j]) < Self.epsilon {
            coefficients[base + j] = 0
        }

        // The constraint's own columns.
        var record = ConstraintRecord()
        record.isLive = true
        if !required { record.level = acquireLevel(priority) }
        switch relation {
        case .equal where required:
            record.marker = allocateColumn(.dummy)
            coefficients[base + record.marker] = 1
            record.markerShift = 1
        case .equal:
            // expr = plus - minus; both errors count.
            record.marker = allocateColumn(.error)
            record.other = allocateColumn(.error)
            coefficients[base + record.marker] = -1
            coefficients[base + record.other] = 1
            objective[record.level * stride + record.marker] += 1
            objective[record.level * stride + record.other] += 1
            record.markerShift = -1
        case .greaterThanOrEqual:
            // expr = slack - error.
            record.marker = allocateColumn(.slack)
            coefficients[base + record.marker] = -1
            record.markerShift = -1
            if !required {
                record.other = allocateColumn(.error)
                coefficients[base + record.other] = 1
                objective[record.level * stride + record.other] += 1
            }
        case .lessThanOrEqual:
            // expr = error - slack.
            record.marker = allocateColumn(.slack)
            coefficients[base + record.marker] = 1
            record.markerShift = 1
            if !required {
                record.other = allocateColumn(.error)
                coefficients[base + record.other] = -1
                objective[record.level * stride + record.other] += 1
            }
        }
        // A constant >= 0, so that a restricted subject starts feasible.
        if k < 0 {
            k = -k
            for j in 0..<columnCount where coefficients[base + j] != 0 { coefficients[base + j] = -coefficients[base + j] }
        }
        constants[r] = k

        let slot = given ?? takeRecordSlot()
        record.generation = records[slot].generation
        record.terms = terms
        record.constant = constant
        record.relation = relation
        record.priority = priority
        records[slot] = record

        let subject = chooseSubject(row: r, record: record)
        if subject >= 0 {
            solve(row: r, for: subject)
        } else if rowHoldsOnlyDummies(r) {
            // Implied by the required constraints already there, or contradicting them.
            if abs(k) > Self.epsilon {
                abandonNewRow(r, slot: slot)
                throw .unsatisfiableRequired(nil)
            }
            solve(row: r, for: record.marker)
        } else {
            try addThroughArtificial(row: r, slot: slot)
        }
        try optimize(artificial: false)
        return slot
    }

    /// A user variable of the row, else the constraint's own slack or error when its entry is
    /// negative (the constant is >= 0, so it starts >= 0); -1 if neither.
    private func chooseSubject(row r: Int, record: ConstraintRecord) -> Int {
        let base = r * columnCapacity
        for j in 0..<columnCount where coefficients[base + j] != 0 && columnKind[j] == .external {
            return j
        }
        if columnKind[record.marker].isPivotable && coefficients[base + record.marker] < 0 { return record.marker }
        if record.other >= 0 && columnKind[record.other].isPivotable && coefficients[base + record.other] < 0 {
            return record.other
        }
        return -1
    }

    private func rowHoldsOnlyDummies(_ r: Int) -> Bool {
        let base = r * columnCapacity
        for j in 0..<columnCount where coefficients[base + j] != 0 && columnKind[j] != .dummy { return false }
        return true
    }

    /// Phase one for a required constraint that has no feasible subject: an artificial variable
    /// equal to the row is minimised; the constraint can hold iff its minimum is 0.
    private mutating func addThroughArtificial(row r: Int, slot: Int) throws(ConstraintSolverError) {
        let stride = columnCapacity
        let artificial = allocateColumn(.artificial)
        rowBasic[r] = artificial
        columnRow[artificial] = r
        for j in 0..<columnCount { artificialRow[j] = coefficients[r * stride + j] }
        artificialConstant = constants[r]
        artificialActive = true
        do {
            try optimize(artificial: true)
        } catch {
            artificialActive = false
            throw error
        }
        artificialActive = false
        let feasible = abs(artificialConstant) < 1e-8
        for j in 0..<columnCount { artificialRow[j] = 0 }

        if feasible {
            // Take the artificial variable (now 0) out of the basis, then drop its column.
            let row = columnRow[artificial]
            if row >= 0 {
                let base = row * stride
                var entering = -1
                for j in 0..<columnCount where coefficients[base + j] != 0 && columnKind[j].isPivotable {
                    entering = j
                    break
                }
                if entering < 0 {
                    for j in 0..<columnCount where coefficients[base + j] != 0 && columnKind[j] == .dummy {
                        entering = j
                        break
                    }
                }
                if entering >= 0 {
                    pivot(row: row, entering: entering)
                } else {
                    deleteRow(row)
                }
            }
            releaseColumn(artificial)
            return
        }
        // Infeasible: remove the artificial definition as if it were a constraint, which leaves
        // the tableau of the constraints before this one.
        if columnRow[artificial] < 0 {
            let row = markerLeavingRow(artificial)
            if row < 0 {
                // Lost to round-off (not reachable in exact arithmetic): start again without it.
                try rebuild(excluding: slot)
                throw .unsatisfiableRequired(nil)
            }
            pivot(row: row, entering: artificial)
        }
        deleteRow(columnRow[artificial])
        releaseColumn(artificial)
        releaseConstraintColumns(slot)
        freeRecordSlot(slot)
        try optimize(artificial: false)
        throw .unsatisfiableRequired(nil)
    }

    /// Undoes a new row that was never made basic (the last row).
    private mutating func abandonNewRow(_ r: Int, slot: Int) {
        let base = r * columnCapacity
        for j in 0..<columnCount { coefficients[base + j] = 0 }
        constants[r] = 0
        rowBasic[r] = -1
        rowCount -= 1
        releaseConstraintColumns(slot)
        freeRecordSlot(slot)
    }

    /// Removes the constraint in record `slot` and re-optimises.
    mutating func deleteConstraint(_ slot: Int) throws(ConstraintSolverError) {
        let record = records[slot]
        if columnRow[record.marker] < 0 && markerLeavingRow(record.marker) < 0 {
            // Round-off has zeroed the marker's column (not reachable in exact arithmetic): the
            // tableau no longer knows the constraint; rebuild it from the others.
            try rebuild(excluding: slot)
            return
        }
        // Its errors leave the objective first (as the objective's rows see them).
        if record.level >= 0 {
            removeFromObjective(record.marker, level: record.level)
            if record.other >= 0 { removeFromObjective(record.other, level: record.level) }
        }
        // Its marker into the basis, then its row out.
        if columnRow[record.marker] < 0 {
            pivot(row: markerLeavingRow(record.marker), entering: record.marker)
        }
        deleteRow(columnRow[record.marker])
        if record.other >= 0 && columnRow[record.other] >= 0 {
            // Not reachable in exact arithmetic (the other column then shares the marker's row).
            deleteRow(columnRow[record.other])
        }
        releaseConstraintColumns(slot)
        freeRecordSlot(slot)
        try optimize(artificial: false)
    }

    /// Takes an error column out of its level's objective row (as that row sees it: through the
    /// column's row when it is basic).
    private mutating func removeFromObjective(_ column: Int, level: Int) {
        guard columnKind[column] == .error else { return }
        let stride = columnCapacity
        let objectiveBase = level * stride
        let row = columnRow[column]
        if row >= 0 {
            let base = row * stride
            for j in 0..<columnCount where coefficients[base + j] != 0 {
                objective[objectiveBase + j] -= coefficients[base + j]
            }
        } else {
            objective[objectiveBase + column] -= 1
        }
    }

    private mutating func releaseConstraintColumns(_ slot: Int) {
        let record = records[slot]
        releaseColumn(record.marker)
        if record.other >= 0 { releaseColumn(record.other) }
        if record.level >= 0 { releaseLevel(record.level) }
    }

    private mutating func takeRecordSlot() -> Int {
        if let slot = freeRecords.popLast() { return slot }
        records.append(ConstraintRecord())
        return records.count - 1
    }

    private mutating func freeRecordSlot(_ slot: Int) {
        let generation = records[slot].generation + 1
        records[slot] = ConstraintRecord()
        records[slot].generation = generation & 0x7FFF_FFFF
        freeRecords.append(slot)
    }

    /// The objective slot of `priority`, one more user.
    private mutating func acquireLevel(_ priority: Double) -> Int {
        // Index loops: `for x in array` allocates an iterator in debug builds, and the tests
        // count allocations.
        for position in 0..<levelOrder.count where levelPriority[levelOrder[position]] == priority {
            let slot = levelOrder[position]
            levelUsers[slot] += 1
            return slot
        }
        var slot = -1
        for s in 0..<levelCapacity where levelUsers[s] == 0 {
            slot = s
            break
        }
        if slot < 0 {
            slot = levelCapacity
            levelCapacity += 1
            objective.appendRepeating(0, count: columnCapacity)
            levelPriority.append(priority)
            levelUsers.append(0)
            levelOrder.reserveCapacity(levelCapacity)
        }
        levelPriority[slot] = priority
        levelUsers[slot] = 1
        var position = levelOrder.count
        for i in 0..<levelOrder.count where levelPriority[levelOrder[i]] < priority {
            position = i
            break
        }
        levelOrder.insert(slot, at: position)
        return slot
    }

    private mutating func releaseLevel(_ slot: Int) {
        levelUsers[slot] -= 1
        guard levelUsers[slot] == 0 else { return }
        let base = slot * columnCapacity
        for j in 0..<columnCapacity { objective[base + j] = 0 }
        if let position = levelOrder.firstIndex(of: slot) { levelOrder.remove(at: position) }
    }

    /// A fresh tableau with every live constraint but `excluded` (a record slot), re-added in
    /// slot order into the same slots, so handles and edit variables stay valid. The fallback
    /// when round-off has lost a constraint's marker; `self` is unchanged if it throws.
    mutating func rebuild(excluding excluded: Int) throws(ConstraintSolverError) {
        var fresh = ConstraintSolver()
        fresh.pivotLimit = pivotLimit
        for _ in 0..<variableColumn.count { _ = fresh.makeVariable() }
        fresh.records = Array(repeating: ConstraintRecord(), count: records.count)
        for slot in 0..<records.count {
            fresh.records[slot].generation = records[slot].generation
        }
        for slot in 0..<records.count where records[slot].isLive && slot != excluded {
            let old = records[slot]
            let constant = old.isEdit ? -old.editValue : old.constant
            _ = try fresh.insertConstraint(old.terms, constant: constant, relation: old.relation,
                                           priority: old.priority, slot: slot)
            fresh.records[slot].isEdit = old.isEdit
            fresh.records[slot].editValue = old.editValue
        }
        for slot in 0..<records.count where !fresh.records[slot].isLive {
            if slot == excluded { fresh.records[slot].generation = (records[slot].generation + 1) & 0x7FFF_FFFF }
            fresh.freeRecords.append(slot)
        }
        // The callers keep the counts and the edit map as for any removal.
        fresh.editRecord = editRecord
        fresh.liveConstraints = liveConstraints
        fresh.liveEdits = liveEdits
        fresh.pivotCount = pivotCount + fresh.pivotCount
        self = fresh
    }
}
