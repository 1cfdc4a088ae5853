import Foundation
import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// The engine's solver with the constraints it holds, mirrored for the reference.
struct MirroredSolver {
    var solver = ConstraintSolver()
    var variables: [SolverVariable] = []
    var live: [(handle: ConstraintHandle, constraint: GeneratedConstraint)] = []
    /// Edit variables: variable index, priority, the value the engine was last given.
    var edits: [(variable: Int, priority: Double, value: Double)] = []

    init(variableCount: Int) {
        for _ in 0..<variableCount { variables.append(solver.makeVariable()) }
    }

    /// Adds to the engine; true if accepted, false if it threw `unsatisfiableRequired`.
    mutating func add(_ constraint: GeneratedConstraint) throws -> Bool {
        do {
            let handle = try solver.addConstraint(constraint.engineTerms(variables), constant: constraint.constant,
                                                  relation: constraint.relation, priority: constraint.priority)
            live.append((handle, constraint))
            return true
        } catch .unsatisfiableRequired {
            return false
        }
    }

    mutating func remove(at index: Int) throws {
        try solver.removeConstraint(live[index].handle)
        live.remove(at: index)
    }

    /// Removes through the round-off fallback: a fresh tableau of the other constraints, in the
    /// same slots (the handles and edit variables must survive it).
    mutating func removeByRebuilding(at index: Int) throws {
        try solver.rebuild(excluding: live[index].handle.slot)
        solver.liveConstraints -= 1
        let handle = live.remove(at: index).handle
        #expect(throws: ConstraintSolverError.unknownConstraint) { try solver.removeConstraint(handle) }
    }

    /// Changes a live constraint's constant; true if accepted, false if it threw
    /// `unsatisfiableRequired` (constant unchanged).
    mutating func updateConstant(at index: Int, _ constant: Double) throws -> Bool {
        do {
            try solver.updateConstant(live[index].handle, constant)
        } catch .unsatisfiableRequired(let handle) {
            #expect(handle == live[index].handle)
            return false
        }
        live[index].constraint.constant = constant
        return true
    }

    mutating func addEdit(_ variable: Int, priority: Double) throws {
        let start = solver.value(of: variables[variable])
        try solver.addEditVariable(variables[variable], priority: priority)
        edits.append((variable, priority, start))
    }

    /// Suggests; true if accepted, false if it threw `unsatisfiableRequired` (value unchanged).
    mutating func suggest(_ variable: Int, _ value: Double) throws -> Bool {
        do {
            try solver.suggestValue(variables[variable], value)
        } catch .unsatisfiableRequired {
            return false
        }
        let i = edits.firstIndex { $0.variable == variable }!
        edits[i].value = value
        return true
    }

    /// The reference's constraints: the live ones, and each edit as `v == value` at its priority.
    func referenceConstraints(extra: [GeneratedConstraint] = [], editOverride: (Int, Double)? = nil)
        -> [LexicographicLPReference.Constraint]
    {
        var list = live.map(\.constraint.referenceConstraint) + extra.map(\.referenceConstraint)
        for edit in edits {
            let value = editOverride?.0 == edit.variable ? editOverride!.1 : edit.value
            list.append(.init(terms: [(edit.variable, 1)], constant: -value, relation: .equal, priority: edit.priority))
        }
        return list
    }

    var values: [Double] { variables.map { solver.value(of: $0) } }
}

/// Counts of what the differential checks compared, for the report.
struct DifferentialTally {
    var systems = 0
    var checks = 0
    var rejectedRequired = 0
    var determinedHeights = 0
    var levelsCompared = 0
}

/// The engine's current solution against the reference solved from scratch: the required
/// constraints hold (within 1e-6) and every level's error sum equals the reference's optimum
/// (within 1e-6). Those two make the engine's solution lexicographically optimal, whichever
/// optimum it is, so every variable the optimum determines has its value. The content view's
/// height, what a cell measurement reads, is checked directly as well: equal to the reference's
/// when the optimal set fixes it, inside the reference's range otherwise.
func expectMatchesReference(_ mirror: MirroredSolver, _ context: @autoclosure () -> String,
                            heightVariable: Int? = RandomCellSystem.contentHeight,
                            tally: inout DifferentialTally) {
    let reference = LexicographicLPReference(variableCount: mirror.variables.count,
                                             constraints: mirror.referenceConstraints())
    tally.checks += 1
    switch reference.solve() {
    case .requiredInfeasible:
        Issue.record("the engine holds required constraints the reference finds infeasible: \(context())")
    case .numericalFailure(let why):
        Issue.record("reference failure \(why): \(context())")
    case .optimal(let solution):
        let values = mirror.values
        let violation = reference.requiredViolation(at: values)
        #expect(violation <= 1e-6, "required constraint violated by \(violation): \(context())")
        let errors = reference.levelErrors(at: values)
        for (level, error) in zip(solution.levels, errors) {
            tally.levelsCompared += 1
            #expect(abs(error - level.optimum) <= 1e-6,
                    "level \(level.priority): engine error \(error), optimum \(level.optimum): \(context())")
        }
        if let heightVariable, let range = reference.range(of: heightVariable, levels: solution.levels) {
            let height = values[heightVariable]
            if range.max - range.min <= 1e-7 {
                tally.determinedHeights += 1
                #expect(abs(height - range.min) <= 1e-6, "height \(height), reference \(range.min): \(context())")
            } else {
                #expect(height >= range.min - 1e-6 && height <= range.max + 1e-6,
                        "height \(height) outside \(range): \(context())")
            }
        }
    }
}

/// The reference must find `constraints` infeasible (the engine refused the last one).
func expectInfeasible(_ variableCount: Int, _ constraints: [LexicographicLPReference.Constraint],
                      _ context: @autoclosure () -> String) {
    let reference = LexicographicLPReference(variableCount: variableCount, constraints: constraints)
    if case .requiredInfeasible = reference.solve() { return }
    Issue.record("the engine refused a satisfiable required set: \(context())")
}

let differentialScale = Int(ProcessInfo.processInfo.environment["LAYOUT_SOLVER_CASES"] ?? "") ?? 1

@Suite struct ConstraintSolverDifferentialTests {
    /// Whole cells at a fixed width, constraints added one at a time in random order; refused
    /// required constraints must make the reference infeasible.
    @Test func randomCellsMatchTheReference() throws {
        var tally = DifferentialTally()
        for seed in 0..<(1500 * differentialScale) {
            var rng = SeededRandom(seed: UInt64(100_000 + seed))
            let system = RandomCellSystem(&rng, fixedWidth: Double(rng.int(120...600)))
            var mirror = MirroredSolver(variableCount: system.variableCount)
            for constraint in system.constraints where try !mirror.add(constraint) {
                tally.rejectedRequired += 1
                expectInfeasible(system.variableCount, mirror.referenceConstraints(extra: [constraint]),
                                 "seed \(seed)")
            }
            tally.systems += 1
            expectMatchesReference(mirror, "seed \(seed)", tally: &tally)
        }
        print("constraint differential (whole cells): \(tally)")
        #expect(tally.rejectedRequired > 50)
        #expect(tally.determinedHeights > 500)
    }

    /// Long-lived solvers: constraints added and removed one at a time, constants changed in
    /// place, the width as an edit variable at a random priority and suggested again and again;
    /// after every step the engine matches a from-scratch reference solve.
    @Test func incrementalSequencesMatchTheReference() throws {
        var tally = DifferentialTally()
        var refusedSuggestions = 0
        var constantUpdates = 0
        for seed in 0..<(250 * differentialScale) {
            var rng = SeededRandom(seed: UInt64(500_000 + seed))
            let system = RandomCellSystem(&rng, maxViews: 4)
            var pending = system.constraints
            var mirror = MirroredSolver(variableCount: system.variableCount)
            let half = pending.count / 2
            for _ in 0..<half {
                let constraint = pending.removeFirst()
                if try !mirror.add(constraint) {
                    expectInfeasible(system.variableCount, mirror.referenceConstraints(extra: [constraint]), "seed \(seed)")
                }
            }
            try mirror.addEdit(RandomCellSystem.contentWidth, priority: rng.pick([1000, 1000, 999, 750, 500]))
            expectMatchesReference(mirror, "seed \(seed) after the edit variable", tally: &tally)
            for step in 0..<14 {
                let context = "seed \(seed) step \(step)"
                switch rng.int(0...9) {
                case 0...3:
                    let width = Double(rng.int(0...800))
                    if try !mirror.suggest(RandomCellSystem.contentWidth, width) {
                        refusedSuggestions += 1
                        expectInfeasible(system.variableCount,
                                         mirror.referenceConstraints(editOverride: (RandomCellSystem.contentWidth, width)),
                                         context)
                    }
                case 6...7 where !mirror.live.isEmpty && rng.chance(0.5):
                    let index = rng.int(0...(mirror.live.count - 1))
                    let constant = mirror.live[index].constraint.constant + Double(rng.int(-30...30))
                    constantUpdates += 1
                    if try !mirror.updateConstant(at: index, constant) {
                        refusedSuggestions += 1
                        var changed = mirror
                        changed.live[index].constraint.constant = constant
                        expectInfeasible(system.variableCount, changed.referenceConstraints(), context)
                    }
                case 4...5 where !mirror.live.isEmpty:
                    let index = rng.int(0...(mirror.live.count - 1))
                    if rng.chance(0.2) {
                        try mirror.removeByRebuilding(at: index)
                    } else {
                        try mirror.remove(at: index)
                    }
                default:
                    let constraint = pending.isEmpty
                        ? RandomCellSystem.randomConstraint(viewCount: system.viewCount, rng: &rng)
                        : pending.removeFirst()
                    if try !mirror.add(constraint) {
                        tally.rejectedRequired += 1
                        expectInfeasible(system.variableCount, mirror.referenceConstraints(extra: [constraint]), context)
                    }
                }
                expectMatchesReference(mirror, context, tally: &tally)
            }
            tally.systems += 1
        }
        print("constraint differential (incremental): \(tally), \(constantUpdates) constant updates, \(refusedSuggestions) suggestions or updates refused")
        #expect(constantUpdates > 300)
        #expect(tally.checks > 3000)
        #expect(tally.rejectedRequired > 20)
    }

    /// Degenerate systems, where the ratio tests tie and a careless pivot rule cycles: few
    /// variables, coefficients in {-1, 0, 1}, constants in {0, 10}, many parallel and repeated
    /// constraints over three priority levels, added, removed and edited.
    @Test func degenerateSystemsMatchTheReference() throws {
        var tally = DifferentialTally()
        for seed in 0..<(300 * differentialScale) {
            var rng = SeededRandom(seed: UInt64(900_000 + seed))
            let variableCount = rng.int(2...5)
            func randomConstraint() -> GeneratedConstraint {
                var terms: [(variable: Int, coefficient: Double)] = []
                for v in 0..<variableCount where rng.chance(0.5) { terms.append((v, rng.pick([-1.0, 1.0]))) }
                if terms.isEmpty { terms.append((rng.int(0...(variableCount - 1)), 1)) }
                return GeneratedConstraint(terms: terms, constant: rng.pick([0.0, 0, -10, 10]),
                                           relation: RandomCellSystem.relation(&rng),
                                           priority: rng.pick([1000.0, 750, 750, 250, 250, 250]))
            }
            var mirror = MirroredSolver(variableCount: variableCount)
            try mirror.addEdit(0, priority: rng.pick([999.0, 250]))
            for step in 0..<16 {
                let context = "degenerate seed \(seed) step \(step)"
                switch rng.int(0...9) {
                case 0...1:
                    _ = try mirror.suggest(0, rng.pick([0.0, 10, -10, 20]))
                case 2 where !mirror.live.isEmpty:
                    try mirror.remove(at: rng.int(0...(mirror.live.count - 1)))
                default:
                    let constraint = rng.chance(0.3) && !mirror.live.isEmpty
                        ? mirror.live[rng.int(0...(mirror.live.count - 1))].constraint
                        : randomConstraint()
                    if try !mirror.add(constraint) {
                        tally.rejectedRequired += 1
                        expectInfeasible(variableCount, mirror.referenceConstraints(extra: [constraint]), context)
                    }
                }
                expectMatchesReference(mirror, context, heightVariable: variableCount - 1, tally: &tally)
            }
            tally.systems += 1
        }
        print("constraint differential (degenerate): \(tally)")
        #expect(tally.checks >= 4800)
    }
}
