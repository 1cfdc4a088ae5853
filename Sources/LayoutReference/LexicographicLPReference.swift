/// The exact answer the constraint solver (`LayoutEngine.ConstraintSolver`) is checked against:
/// the constraint priorities of docs/scenario-format.md (constraint templates) solved literally,
/// one linear program per level, each by a dense two-phase simplex with Bland's rule
/// (`DenseSimplex`). Shares no code with the engine's solver.
///
/// A constraint is `sum(terms) + constant REL 0` at a priority in 1...1000 (1000 = required).
/// Every variable is free (split as `p - n`, both >= 0). A non-required constraint gets error
/// columns: `expr = plus - minus` for an equality (error `plus + minus`), `expr = slack - error`
/// for `>=`, `expr = error - slack` for `<=`. Then for each non-required priority, highest first:
/// minimise the sum of that level's errors subject to every constraint and to each higher level's
/// error sum being at most its optimum (plus a round-off allowance of 1e-12 relative). The
/// required constraints alone are infeasible iff the first program's phase one is.
public struct LexicographicLPReference: Sendable {
    public enum Relation: Sendable { case equal, lessThanOrEqual, greaterThanOrEqual }

    public struct Constraint: Sendable {
        public var terms: [(variable: Int, coefficient: Double)]
        public var constant: Double
        public var relation: Relation
        public var priority: Double

        public init(terms: [(variable: Int, coefficient: Double)], constant: Double, relation: Relation, priority: Double) {
            self.terms = terms
            self.constant = constant
            self.relation = relation
            self.priority = priority
        }

        public var isRequired: Bool { priority >= 1000 }

        /// `sum(terms) + constant` at `values`.
        public func expression(at values: [Double]) -> Double {
            var sum = constant
            for term in terms { sum += term.coefficient * values[term.variable] }
            return sum
        }

        /// How far `values` are from satisfying it: `|expr|` for `==`, the violation otherwise.
        public func error(at values: [Double]) -> Double {
            let e = expression(at: values)
            switch relation {
            case .equal: return abs(e)
            case .greaterThanOrEqual: return max(0, -e)
            case .lessThanOrEqual: return max(0, e)
            }
        }
    }

    public struct Solution: Sendable {
        /// The non-required priorities present, highest first, with each level's optimal error sum.
        public var levels: [(priority: Double, optimum: Double)]
        /// One optimal solution (any, when several are optimal).
        public var values: [Double]
    }

    public enum Outcome: Sendable {
        case optimal(Solution)
        /// The required constraints cannot all hold.
        case requiredInfeasible
        /// A later level's program failed, which only round-off can cause; a reference failure.
        case numericalFailure(String)
    }

    public let variableCount: Int
    public let constraints: [Constraint]

    public init(variableCount: Int, constraints: [Constraint]) {
        self.variableCount = variableCount
        self.constraints = constraints
    }

    /// The priorities of the non-required constraints, highest first.
    public var levelPriorities: [Double] {
        Array(Set(constraints.filter { !$0.isRequired }.map(\.priority))).sorted(by: >)
    }

    /// Each level's error sum at `values` (for comparing another solver's solution).
    public func levelErrors(at values: [Double]) -> [Double] {
        levelPriorities.map { p in
            constraints.filter { $0.priority == p }.reduce(0) { $0 + $1.error(at: values) }
        }
    }

    /// The largest violation of a required constraint at `values`.
    public func requiredViolation(at values: [Double]) -> Double {
        constraints.filter(\.isRequired).reduce(0) { max($0, $1.error(at: values)) }
    }

    public func solve() -> Outcome {
        var fixed: [Double] = []
        var last: [Double] = []
        let priorities = levelPriorities
        if priorities.isEmpty {
            switch solveProgram(objective: .none, fixedLevels: []) {
            case .infeasible: return .requiredInfeasible
            case .unbounded: return .numericalFailure("feasibility program unbounded")
            case .optimal(_, let values): return .optimal(Solution(levels: [], values: values))
            }
        }
        for (index, priority) in priorities.enumerated() {
            switch solveProgram(objective: .level(priority), fixedLevels: fixed) {
            case .infeasible:
                if index == 0 { return .requiredInfeasible }
                return .numericalFailure("level \(priority) infeasible after fixing the levels above")
            case .unbounded:
                return .numericalFailure("level \(priority) unbounded")
            case .optimal(let value, let values):
                fixed.append(max(0, value))
                last = values
            }
        }
        return .optimal(Solution(levels: Array(zip(priorities, fixed)).map { ($0.0, $0.1) }, values: last))
    }

    /// The least and greatest value `variable` takes over every optimal solution (infinite when
    /// unbounded); nil if the required constraints are infeasible.
    public func range(of variable: Int, levels: [(priority: Double, optimum: Double)]) -> (min: Double, max: Double)? {
        let fixed = levels.map(\.optimum)
        func extreme(_ sign: Double) -> Double? {
            switch solveProgram(objective: .variable(variable, sign), fixedLevels: fixed) {
            case .optimal(let value, _): return sign * value
            case .unbounded: return -sign * .infinity
            case .infeasible: return nil
            }
        }
        guard let low = extreme(1), let high = extreme(-1) else { return nil }
        return (low, high)
    }

    private enum Objective {
        case none
        case level(Double)
        case variable(Int, Double)
    }

    /// One program over the columns `p_i, n_i` (per variable), then per constraint its slack and
    /// error columns, then one slack per fixed level.
    private func solveProgram(objective: Objective, fixedLevels: [Double]) -> DenseSimplex.Result {
        let priorities = levelPriorities
        var rows: [[Double]] = []
        var rhs: [Double] = []
        var cost: [Double] = Array(repeating: 0, count: 2 * variableCount)
        var errorColumnsByLevel: [Double: [Int]] = [:]
        var columnCount = 2 * variableCount

        func newColumn() -> Int {
            columnCount += 1
            cost.append(0)
            for i in rows.indices { rows[i].append(0) }
            return columnCount - 1
        }

        for constraint in constraints {
            var row = Array(repeating: 0.0, count: columnCount)
            for term in constraint.terms {
                row[2 * term.variable] += term.coefficient
                row[2 * term.variable + 1] -= term.coefficient
            }
            rows.append(row)
            rhs.append(-constraint.constant)
            let i = rows.count - 1
            switch (constraint.relation, constraint.isRequired) {
            case (.equal, true):
                break
            case (.equal, false):
                let plus = newColumn(), minus = newColumn()
                rows[i][plus] = -1
                rows[i][minus] = 1
                errorColumnsByLevel[constraint.priority, default: []] += [plus, minus]
            case (.greaterThanOrEqual, let required):
                let slack = newColumn()
                rows[i][slack] = -1
                if !required {
                    let error = newColumn()
                    rows[i][error] = 1
                    errorColumnsByLevel[constraint.priority, default: []].append(error)
                }
            case (.lessThanOrEqual, let required):
                let slack = newColumn()
                rows[i][slack] = 1
                if !required {
                    let error = newColumn()
                    rows[i][error] = -1
                    errorColumnsByLevel[constraint.priority, default: []].append(error)
                }
            }
        }
        // Each higher level's error sum at most its optimum.
        for (index, optimum) in fixedLevels.enumerated() {
            let slack = newColumn()
            var row = Array(repeating: 0.0, count: columnCount)
            for column in errorColumnsByLevel[priorities[index], default: []] { row[column] = 1 }
            row[slack] = 1
            rows.append(row)
            rhs.append(optimum + 1e-12 * max(1, optimum))
        }
        switch objective {
        case .none: break
        case .level(let priority):
            for column in errorColumnsByLevel[priority, default: []] { cost[column] = 1 }
        case .variable(let variable, let sign):
            cost[2 * variable] = sign
            cost[2 * variable + 1] = -sign
        }
        let result = DenseSimplex.minimise(rows: rows, rhs: rhs, cost: cost)
        if case .optimal(let value, let y) = result {
            let values = (0..<variableCount).map { y[2 * $0] - y[2 * $0 + 1] }
            return .optimal(value, values)
        }
        return result
    }
}
