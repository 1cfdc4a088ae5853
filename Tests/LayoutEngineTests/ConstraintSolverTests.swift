import Foundation
import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

/// Hand-computed cases, the errors of the API, the pivot bound and allocation-free edits.
@Suite struct ConstraintSolverTests {
    @Test func requiredAndPreferredConstraints() throws {
        var solver = ConstraintSolver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        // x == 10, y >= x + 5 (required), y == 0 @250: y = 15.
        _ = try solver.addConstraint([LinearTerm(x, 1)], constant: -10, relation: .equal, priority: 1000)
        _ = try solver.addConstraint([LinearTerm(y, 1), LinearTerm(x, -1)], constant: -5, relation: .greaterThanOrEqual, priority: 1000)
        let weak = try solver.addConstraint([LinearTerm(y, 1)], constant: 0, relation: .equal, priority: 250)
        #expect(solver.value(of: x) == 10)
        #expect(solver.value(of: y) == 15)
        // y <= 40 @999 and y >= 50 @750: the higher priority wins.
        _ = try solver.addConstraint([LinearTerm(y, 1)], constant: -40, relation: .lessThanOrEqual, priority: 999)
        _ = try solver.addConstraint([LinearTerm(y, 1)], constant: -50, relation: .greaterThanOrEqual, priority: 750)
        #expect(abs(solver.value(of: y) - 40) < 1e-9)
        try solver.removeConstraint(weak)
        #expect(abs(solver.value(of: y) - 40) < 1e-9)
        #expect(solver.constraintCount == 4)
    }

    /// Lexicographic, not weighted: one error at 251 outweighs any number of errors at 250
    /// (kiwi's collapsed weights would trade three 250s for one 251).
    @Test func priorityLevelsAreLexicographic() throws {
        var solver = ConstraintSolver()
        let x = solver.makeVariable()
        _ = try solver.addConstraint([LinearTerm(x, 1)], constant: 0, relation: .equal, priority: 251)
        for _ in 0..<3 {
            _ = try solver.addConstraint([LinearTerm(x, 1)], constant: -10, relation: .equal, priority: 250)
        }
        #expect(abs(solver.value(of: x)) < 1e-9)
    }

    @Test func conflictingRequiredConstraintsThrowAndLeaveTheSolverUsable() throws {
        var solver = ConstraintSolver()
        let x = solver.makeVariable(), y = solver.makeVariable()
        _ = try solver.addConstraint([LinearTerm(x, 1), LinearTerm(y, 1)], constant: -100, relation: .equal, priority: 1000)
        _ = try solver.addConstraint([LinearTerm(x, 1)], constant: -30, relation: .greaterThanOrEqual, priority: 1000)
        #expect(throws: ConstraintSolverError.unsatisfiableRequired(nil)) {
            try solver.addConstraint([LinearTerm(y, 1)], constant: -80, relation: .greaterThanOrEqual, priority: 1000)
        }
        #expect(throws: ConstraintSolverError.unsatisfiableRequired(nil)) {
            try solver.addConstraint([LinearTerm(x, 1), LinearTerm(y, 1)], constant: -99, relation: .equal, priority: 1000)
        }
        #expect(solver.constraintCount == 2)
        _ = try solver.addConstraint([LinearTerm(y, 1)], constant: -60, relation: .equal, priority: 1000)
        #expect(abs(solver.value(of: x) - 40) < 1e-9)
        // A redundant but consistent required equality is accepted.
        _ = try solver.addConstraint([LinearTerm(x, 1)], constant: -40, relation: .equal, priority: 1000)
    }

    /// Two identical required equalities, one removed: the other still holds. (kiwi 1.5.1 gets
    /// this wrong: y >= 0 @medium, y == 0 @weak, y == 10 required twice, one removed: y = 0.)
    @Test func duplicateRequiredEqualitySurvivesRemovalOfItsTwin() throws {
        var solver = ConstraintSolver()
        let y = solver.makeVariable()
        _ = try solver.addConstraint([LinearTerm(y, 1)], constant: 0, relation: .greaterThanOrEqual, priority: 750)
        _ = try solver.addConstraint([LinearTerm(y, 1)], constant: 0, relation: .equal, priority: 250)
        let first = try solver.addConstraint([LinearTerm(y, 1)], constant: -10, relation: .equal, priority: 1000)
        _ = try solver.addConstraint([LinearTerm(y, 1)], constant: -10, relation: .equal, priority: 1000)
        try solver.removeConstraint(first)
        #expect(abs(solver.value(of: y) - 10) < 1e-9)
    }

    @Test func requiredEditVariableRefusesAConflictingValue() throws {
        var solver = ConstraintSolver()
        let w = solver.makeVariable(), h = solver.makeVariable()
        _ = try solver.addConstraint([LinearTerm(w, 1)], constant: -320, relation: .lessThanOrEqual, priority: 1000)
        _ = try solver.addConstraint([LinearTerm(h, 1), LinearTerm(w, -0.5)], constant: 0, relation: .equal, priority: 1000)
        try solver.addEditVariable(w, priority: 1000)
        try solver.suggestValue(w, 200)
        #expect(abs(solver.value(of: h) - 100) < 1e-9)
        #expect(throws: ConstraintSolverError.unsatisfiableRequired(nil)) { try solver.suggestValue(w, 400) }
        #expect(abs(solver.value(of: w) - 200) < 1e-9)
        try solver.suggestValue(w, 300)
        #expect(abs(solver.value(of: h) - 150) < 1e-9)
    }

    @Test func badCallsThrow() throws {
        var solver = ConstraintSolver()
        let x = solver.makeVariable()
        for priority in [0, 0.5, 1000.5, .nan, -1, .infinity] {
            #expect(throws: ConstraintSolverError.self) {
                try solver.addConstraint([LinearTerm(x, 1)], constant: 0, relation: .equal, priority: priority)
            }
        }
        #expect(throws: ConstraintSolverError.priorityOutOfRange(0)) {
            try solver.addConstraint([LinearTerm(x, 1)], constant: 0, relation: .equal, priority: 0)
        }
        #expect(throws: ConstraintSolverError.nonFiniteValue) {
            try solver.addConstraint([LinearTerm(x, .nan)], constant: 0, relation: .equal, priority: 10)
        }
        #expect(throws: ConstraintSolverError.nonFiniteValue) {
            try solver.addConstraint([LinearTerm(x, 1)], constant: .infinity, relation: .equal, priority: 10)
        }
        let handle = try solver.addConstraint([LinearTerm(x, 1)], constant: -5, relation: .equal, priority: 10)
        try solver.removeConstraint(handle)
        #expect(throws: ConstraintSolverError.unknownConstraint) { try solver.removeConstraint(handle) }
        // The slot is reused; the stale handle still refers to nothing.
        let next = try solver.addConstraint([LinearTerm(x, 1)], constant: -7, relation: .equal, priority: 10)
        #expect(throws: ConstraintSolverError.unknownConstraint) { try solver.removeConstraint(handle) }
        #expect(throws: ConstraintSolverError.unknownConstraint) { try solver.removeConstraint(ConstraintHandle(index: -3)) }
        #expect(abs(solver.value(of: x) - 7) < 1e-9)
        try solver.removeConstraint(next)
        #expect(throws: ConstraintSolverError.unknownEditVariable) { try solver.suggestValue(x, 1) }
        try solver.addEditVariable(x, priority: 999)
        #expect(throws: ConstraintSolverError.editVariableExists) { try solver.addEditVariable(x, priority: 999) }
        #expect(throws: ConstraintSolverError.nonFiniteValue) { try solver.suggestValue(x, .nan) }
        try solver.suggestValue(x, 12)
        #expect(abs(solver.value(of: x) - 12) < 1e-9)
        try solver.removeEditVariable(x)
        #expect(throws: ConstraintSolverError.unknownEditVariable) { try solver.removeEditVariable(x) }
    }

    /// With a pivot bound of 0 every call that needs a pivot throws instead of looping.
    @Test func pivotBoundStopsTheSimplex() throws {
        var reached = 0
        for seed in 0..<40 {
            var rng = SeededRandom(seed: UInt64(seed))
            let system = RandomCellSystem(&rng, fixedWidth: 320)
            var solver = ConstraintSolver()
            solver.pivotLimit = 0
            let variables = (0..<system.variableCount).map { _ in solver.makeVariable() }
            for constraint in system.constraints {
                do {
                    _ = try solver.addConstraint(constraint.engineTerms(variables), constant: constraint.constant,
                                                 relation: constraint.relation, priority: constraint.priority)
                } catch .pivotLimitReached {
                    reached += 1
                    break
                } catch {}
            }
        }
        #expect(reached > 20)
    }

    /// Hostile input: coefficients and constants from 1e-7 to 1e7, random relations and
    /// priorities, adds, removes and suggestions in any order. Nothing may trap or loop; every
    /// call returns or throws, and the values stay finite.
    @Test func hostileInputNeverTraps() throws {
        var thrown = 0
        for seed in 0..<400 {
            var rng = SeededRandom(seed: UInt64(70_000 + seed))
            var solver = ConstraintSolver()
            solver.pivotLimit = 500
            let variables = (0..<rng.int(1...8)).map { _ in solver.makeVariable() }
            func magnitude() -> Double {
                let m = Double(rng.pick([1e-7, 1e-3, 0.5, 1, 3, 1e3, 1e7]))
                return rng.chance(0.5) ? -m : m
            }
            var handles: [ConstraintHandle] = []
            var edits: [SolverVariable] = []
            for _ in 0..<30 {
                do {
                    switch rng.int(0...9) {
                    case 0...5:
                        let terms = (0..<rng.int(1...4)).map { _ in LinearTerm(rng.pick(variables), magnitude()) }
                        handles.append(try solver.addConstraint(terms, constant: rng.chance(0.3) ? 0 : magnitude(),
                                                                relation: RandomCellSystem.relation(&rng),
                                                                priority: RandomCellSystem.priority(&rng)))
                    case 6 where !handles.isEmpty:
                        try solver.removeConstraint(handles.remove(at: rng.int(0...(handles.count - 1))))
                    case 7:
                        let v = rng.pick(variables)
                        if !solver.isEditVariable(v) {
                            try solver.addEditVariable(v, priority: RandomCellSystem.priority(&rng))
                            edits.append(v)
                        }
                    default:
                        if !edits.isEmpty { try solver.suggestValue(rng.pick(edits), magnitude()) }
                    }
                } catch .pivotLimitReached {
                    thrown += 1
                    break
                } catch {
                    thrown += 1
                }
                for v in variables { #expect(solver.value(of: v).isFinite, "seed \(seed)") }
            }
        }
        #expect(thrown > 0)
    }

    /// Once warm, an edit-width measurement (suggest, read), an add-measure-remove of a
    /// required width constraint and a constant updated in place allocate nothing (jemalloc's per-thread byte counter).
    @Test func warmMeasurementsAllocateNothing() throws {
        guard let allocated = ThreadAllocatedBytes() else {
            Issue.record("jemalloc's mallctl is not linked into the test binary")
            return
        }
        var rng = SeededRandom(seed: 77)
        var system: RandomCellSystem
        var mirror: MirroredSolver
        repeat {
            system = RandomCellSystem(&rng, maxViews: 5, extraConstraints: 0...2)
            mirror = MirroredSolver(variableCount: system.variableCount)
            var accepted = true
            for constraint in system.constraints where try !mirror.add(constraint) { accepted = false }
            if accepted { break }
        } while true
        let width = mirror.variables[RandomCellSystem.contentWidth]
        let height = mirror.variables[RandomCellSystem.contentHeight]
        var fd = mirror.solver
        var edit = mirror.solver
        try edit.addEditVariable(width, priority: 1000)
        let widths: [Double] = [320, 375, 414, 768, 1024, 200]
        let widthTerms = [LinearTerm(width, 1)]
        var sum = 0.0
        // Index loops: `for w in widths` would allocate an iterator in a debug build.
        func measureEdit() throws {
            for i in 0..<widths.count {
                let w = widths[i]
                try edit.suggestValue(width, w)
                sum += edit.value(of: height)
            }
        }
        func measureFD() throws {
            for i in 0..<widths.count {
                let w = widths[i]
                let handle = try fd.addConstraint(widthTerms, constant: -w, relation: .equal, priority: 1000)
                sum += fd.value(of: height)
                try fd.removeConstraint(handle)
            }
        }
        // A row's label sizes change between measurements: constants updated in place.
        let label = mirror.live[0]
        func updateConstants() throws {
            for i in 0..<widths.count {
                try edit.updateConstant(label.handle, label.constraint.constant + Double(i % 2))
                sum += edit.value(of: height)
            }
        }
        for _ in 0..<2 {
            try measureEdit()
            try measureFD()
            try updateConstants()
        }
        var before = allocated.read()
        for _ in 0..<50 { try measureEdit() }
        var after = allocated.read()
        #expect(after == before, "\(after - before) bytes allocated by warm edit-width measurements")
        before = allocated.read()
        for _ in 0..<50 { try measureFD() }
        after = allocated.read()
        #expect(after == before, "\(after - before) bytes allocated by warm add-measure-remove measurements")
        before = allocated.read()
        for _ in 0..<50 { try updateConstants() }
        after = allocated.read()
        #expect(after == before, "\(after - before) bytes allocated by warm constant updates")
        #expect(sum.isFinite)
    }
}

/// jemalloc's `thread.allocatedp`, found at run time (nil without jemalloc).
struct ThreadAllocatedBytes {
    let pointer: UnsafeMutablePointer<UInt64>

    init?() {
        typealias Mallctl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                            UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32
        guard let symbol = dlsym(nil, "mallctl") else { return nil }
        let mallctl = unsafeBitCast(symbol, to: Mallctl.self)
        var result: UnsafeMutablePointer<UInt64>? = nil
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        guard mallctl("thread.allocatedp", &result, &size, nil, 0) == 0, let result else { return nil }
        pointer = result
    }

    func read() -> UInt64 { pointer.pointee }
}
