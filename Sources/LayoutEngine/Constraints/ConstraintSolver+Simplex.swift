/// The simplex steps: the primal simplex after an add or remove, the dual simplex after an edit,
/// the lexicographic comparisons of reduced costs, and the choice of a marker's leaving row.
extension ConstraintSolver {
    /// Whether column `j`'s reduced cost vector is lexicographically negative: entering it
    /// lowers the highest-priority level it changes.
    @inline(__always)
    func improves(_ j: Int) -> Bool {
        let stride = columnCapacity
        for position in 0..<levelOrder.count {
            let slot = levelOrder[position]
            let v = objective[slot * stride + j]
            if v < -Self.epsilon { return true }
            if v > Self.epsilon { return false }
        }
        return false
    }

    /// The primal simplex on the objective (or on the artificial row in phase one): Bland's rule.
    mutating func optimize(artificial: Bool) throws(ConstraintSolverError) {
        var pivots = 0
        while true {
            var entering = -1
            for j in 0..<columnCount where columnRow[j] < 0 && columnKind[j].isPivotable {
                if artificial ? artificialRow[j] < -Self.epsilon : improves(j) {
                    entering = j
                    break
                }
            }
            if entering < 0 { return }
            let leaving = primalLeavingRow(entering)
            // No row limits it: impossible while every level is a sum of errors >= 0; stop.
            if leaving < 0 { return }
            if pivots >= pivotLimit { throw .pivotLimitReached }
            pivot(row: leaving, entering: entering)
            pivots += 1
            pivotCount += 1
        }
    }

    /// The ratio test: the restricted row that first reaches 0 as `entering` grows; ties go to
    /// the lowest basic column (Bland).
    func primalLeavingRow(_ entering: Int) -> Int {
        let stride = columnCapacity
        var best = -1
        var bestRatio = Double.infinity
        var bestBasic = Int.max
        for i in 0..<rowCount {
            let basic = rowBasic[i]
            let kind = columnKind[basic]
            guard kind.isRestricted || kind == .dummy else { continue }
            let a = coefficients[i * stride + entering]
            guard a < -Self.epsilon else { continue }
            let ratio = max(constants[i], 0) / -a
            if ratio < bestRatio - Self.epsilon || (ratio <= bestRatio + Self.epsilon && basic < bestBasic) {
                best = i
                bestRatio = min(ratio, bestRatio)
                bestBasic = basic
            }
        }
        return best
    }

    /// The dual simplex: while a restricted row is negative, pivot it out for the column whose
    /// reduced cost over its entry is lexicographically least (keeping the tableau optimal).
    /// Throws `unsatisfiableRequired` when a row cannot be mended (only a required edit can
    /// cause that).
    mutating func dualOptimize() throws(ConstraintSolverError) {
        let stride = columnCapacity
        // A dummy row off 0 is a broken required equality; pivots never touch it.
        for i in 0..<rowCount where columnKind[rowBasic[i]] == .dummy && abs(constants[i]) > Self.epsilon {
            throw .unsatisfiableRequired(nil)
        }
        var pivots = 0
        while true {
            var leaving = -1
            var leavingBasic = Int.max
            for i in 0..<rowCount {
                let basic = rowBasic[i]
                if constants[i] < -Self.epsilon && columnKind[basic].isRestricted && basic < leavingBasic {
                    leaving = i
                    leavingBasic = basic
                }
            }
            if leaving < 0 { return }
            let base = leaving * stride
            var entering = -1
            var enteringEntry = 0.0
            for j in 0..<columnCount where columnRow[j] < 0 && columnKind[j].isPivotable {
                let a = coefficients[base + j]
                guard a > Self.epsilon else { continue }
                if entering < 0 || dualRatioIsLess(j, a, entering, enteringEntry) {
                    entering = j
                    enteringEntry = a
                }
            }
            if entering < 0 { throw .unsatisfiableRequired(nil) }
            if pivots >= pivotLimit { throw .pivotLimitReached }
            pivot(row: leaving, entering: entering)
            pivots += 1
            pivotCount += 1
        }
    }

    /// Whether `cost(j) / a` is lexicographically below `cost(k) / b` (ties: not less, so the
    /// lower column, seen first, stays).
    @inline(__always)
    func dualRatioIsLess(_ j: Int, _ a: Double, _ k: Int, _ b: Double) -> Bool {
        let stride = columnCapacity
        for position in 0..<levelOrder.count {
            let slot = levelOrder[position]
            let x = objective[slot * stride + j] / a
            let y = objective[slot * stride + k] / b
            if x < y - Self.epsilon { return true }
            if x > y + Self.epsilon { return false }
        }
        return false
    }

    /// The row through which a non-basic marker enters the basis so that its constraint can be
    /// dropped with every restricted row still feasible and every dummy row still 0: a dummy
    /// row that holds it (its constant is 0, so no constant moves); else the least ratio among
    /// restricted rows where the marker's entry is negative, else among those where it is
    /// positive, else any unrestricted row that holds it (Cassowary's rule). -1 if no row holds
    /// it. (Cassowary's rule alone, as kiwi has it, would pivot through a slack's row and leave
    /// a duplicate required equality's dummy row off 0.)
    func markerLeavingRow(_ marker: Int) -> Int {
        let stride = columnCapacity
        var first = -1, second = -1, third = -1
        var firstRatio = Double.infinity, secondRatio = Double.infinity
        for i in 0..<rowCount {
            let c = coefficients[i * stride + marker]
            if c == 0 { continue }
            let kind = columnKind[rowBasic[i]]
            if kind == .dummy { return i }
            if kind == .external {
                third = i
            } else if c < 0 {
                let ratio = -constants[i] / c
                if ratio < firstRatio { firstRatio = ratio; first = i }
            } else {
                let ratio = constants[i] / c
                if ratio < secondRatio { secondRatio = ratio; second = i }
            }
        }
        return first >= 0 ? first : (second >= 0 ? second : third)
    }

    /// Changing a constraint's constant by `constantDelta` replaces its marker `m` by
    /// `m + constantDelta * markerShift`: the rows that hold `m` shift their constants (or `m`'s
    /// own row, when it is basic). No pivot; the caller runs the dual simplex.
    mutating func shiftMarker(of slot: Int, constantDelta: Double) {
        let marker = records[slot].marker
        let shift = constantDelta * records[slot].markerShift
        let row = columnRow[marker]
        if row >= 0 {
            constants[row] -= shift
            return
        }
        let stride = columnCapacity
        let rows = rowCount
        coefficients.withUnsafeBufferPointer { c in
            constants.withUnsafeMutableBufferPointer { k in
                for i in 0..<rows {
                    let a = c[i * stride + marker]
                    if a != 0 { k[i] += a * shift }
                }
            }
        }
    }
}
