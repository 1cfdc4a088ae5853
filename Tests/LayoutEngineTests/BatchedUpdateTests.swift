import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// The batched constant update (`stageConstant`, `stageValue`, `reoptimize`; issue 32 item 5)
/// and the batched template strategies: against a from-scratch reference solve after every
/// batch, against the per-constant strategies and the LP reference on seeded random templates,
/// a refused batch undone, and no allocation once warm.
@Suite struct BatchedUpdateTests {
    /// Long-lived random cell systems with the width an edit variable; each step stages several
    /// constant changes (and often a width), then one `reoptimize`; the engine must then match
    /// the reference solved from scratch, or, when it refuses the batch, the reference must find
    /// the batch infeasible and the engine must still hold the solution from before it.
    @Test func batchesMatchTheReference() throws {
        var tally = DifferentialTally()
        var refused = 0, staged = 0, batches = 0
        for seed in 0..<(300 * differentialScale) {
            var rng = SeededRandom(seed: UInt64(900_000 + seed))
            let system = RandomCellSystem(&rng, maxViews: 5)
            var mirror = MirroredSolver(variableCount: system.variableCount)
            for constraint in system.constraints { _ = try mirror.add(constraint) }
            guard !mirror.live.isEmpty else { continue }
            try mirror.addEdit(RandomCellSystem.contentWidth, priority: rng.pick([1000, 1000, 999, 750]))
            tally.systems += 1
            for step in 0..<10 {
                let context = "seed \(seed) step \(step)"
                var changed = mirror
                for _ in 0..<rng.int(1...8) {
                    let index = rng.int(0...(mirror.live.count - 1))
                    // Twice the same constraint in one batch now and then: the last value holds.
                    let constant = changed.live[index].constraint.constant + Double(rng.int(-40...40))
                    try mirror.solver.stageConstant(mirror.live[index].handle, constant)
                    changed.live[index].constraint.constant = constant
                    staged += 1
                }
                if rng.chance(0.7) {
                    let width = Double(rng.int(0...800))
                    try mirror.solver.stageValue(mirror.variables[RandomCellSystem.contentWidth], width)
                    changed.edits[0].value = width
                    staged += 1
                }
                batches += 1
                do {
                    try mirror.solver.reoptimize()
                    changed.solver = mirror.solver
                    mirror = changed
                } catch .unsatisfiableRequired {
                    refused += 1
                    expectInfeasible(system.variableCount, changed.referenceConstraints(), context)
                }
                #expect(!mirror.solver.hasStagedChanges)
                expectMatchesReference(mirror, context, tally: &tally)
            }
        }
        print("batched differential: \(tally), \(batches) batches of \(staged) staged changes, \(refused) refused")
        #expect(tally.checks > 2000)
        #expect(refused > 20)
        #expect(tally.determinedHeights > 500)
    }

    /// The batched strategies against the per-constant ones, measurement by measurement on one
    /// long-lived solver each (state carried from row to row, widths changing), and against the
    /// LP reference's two passes on every fourth measurement: 2,000 seeded random templates × 4
    /// rows.
    @Test func batchedStrategiesMatchPerConstantAndTheLPReference() throws {
        let templates = 2000
        let pairs: [(TemplateSolveStrategy, TemplateSolveStrategy)] = [(.editWidth, .editWidthBatched), (.addRemove, .addRemoveBatched)]
        var compared = 0, referenced = 0, pivotsPerConstant = 0, pivotsBatched = 0
        for t in 0..<templates {
            let seed = UInt64(2_000_000 + t)
            let first = RandomCellTemplate.make(seed: seed)
            var rows = [first]
            for k in 1...3 {
                var other = RandomCellTemplate.make(seed: seed &+ 300_000 &* UInt64(k))
                other.template = first.template
                rows.append(other)
            }
            var measurers = try pairs.map { pair in
                (try TemplateMeasurer(template: first.template, strategy: pair.0), try TemplateMeasurer(template: first.template, strategy: pair.1))
            }
            for (r, row) in rows.enumerated() {
                var expected: Double?
                if (t * rows.count + r) % 4 == 0 {
                    guard case .fitting(let h) = TemplateReference.fittingHeight(row.template, text: row.text, detail: row.detail, width: row.width) else {
                        Issue.record("the reference failed on \(row)")
                        continue
                    }
                    expected = h
                    referenced += 1
                }
                for i in measurers.indices {
                    let a = try measurers[i].0.fittingHeight(text: row.text[...], detail: row.detail[...], width: row.width)
                    let b = try measurers[i].1.fittingHeight(text: row.text[...], detail: row.detail[...], width: row.width)
                    #expect(abs(a - b) <= 1e-6, "\(pairs[i].1.rawValue): \(b), \(pairs[i].0.rawValue) \(a); \(row)")
                    if let expected {
                        #expect(abs(b - expected) <= 1e-6, "\(pairs[i].1.rawValue): \(b), reference \(expected); \(row)")
                    }
                    pivotsPerConstant += measurers[i].0.lastPivots
                    pivotsBatched += measurers[i].1.lastPivots
                    compared += 1
                }
            }
        }
        print("batched strategies: \(compared) measurements compared with the per-constant ones, \(referenced) rows with the LP reference; "
              + "pivots \(pivotsBatched) batched, \(pivotsPerConstant) per constant")
        #expect(compared == templates * 4 * pairs.count)
        #expect(referenced == templates)
    }

    /// A batch the required constraints refuse is undone as a whole: a required edit width that
    /// a required minimum label width cannot fit, staged with label constants. The solver keeps
    /// the solution before the batch and measures on afterwards.
    @Test func refusedBatchIsUndone() throws {
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 }
        var solver = ConstraintSolver()
        let width = solver.makeVariable(), label = solver.makeVariable(), height = solver.makeVariable()
        // label <= width - 20 (required); label >= 100 (required); label == intrinsic @750; height == label / 2 + 10.
        _ = try solver.addConstraint([LinearTerm(label, 1), LinearTerm(width, -1)], constant: 20, relation: .lessThanOrEqual, priority: 1000)
        _ = try solver.addConstraint([LinearTerm(label, 1)], constant: -100, relation: .greaterThanOrEqual, priority: 1000)
        let intrinsic = try solver.addConstraint([LinearTerm(label, 1)], constant: -150, relation: .equal, priority: 750)
        _ = try solver.addConstraint([LinearTerm(height, 1), LinearTerm(label, -0.5)], constant: -10, relation: .equal, priority: 1000)
        try solver.addEditVariable(width, priority: 1000)
        try solver.stageValue(width, 300)
        try solver.reoptimize()
        #expect(near(solver.value(of: label), 150) && near(solver.value(of: height), 85))
        // 100 + 20 > 90: refused, and the intrinsic 120 with it.
        try solver.stageConstant(intrinsic, -120)
        try solver.stageValue(width, 90)
        #expect(throws: ConstraintSolverError.unsatisfiableRequired(nil)) { try solver.reoptimize() }
        #expect(!solver.hasStagedChanges)
        #expect(near(solver.value(of: width), 300) && near(solver.value(of: label), 150) && near(solver.value(of: height), 85))
        // The old values stand: the same batch at a width that fits.
        try solver.stageConstant(intrinsic, -120)
        try solver.stageValue(width, 200)
        try solver.reoptimize()
        #expect(near(solver.value(of: width), 200) && near(solver.value(of: label), 120) && near(solver.value(of: height), 70))
        // Staging the value a constraint already has stages nothing.
        try solver.stageConstant(intrinsic, -120)
        #expect(!solver.hasStagedChanges)
        #expect(throws: ConstraintSolverError.nonFiniteValue) { try solver.stageValue(width, .nan) }
        #expect(throws: ConstraintSolverError.unknownEditVariable) { try solver.stageValue(label, 1) }
    }

    /// Once warm, batches allocate nothing (jemalloc's per-thread byte counter): each built-in
    /// row kind's constraint system with the width a required edit variable, its label constants
    /// and the width staged, `reoptimize`, the label widths read, the heights staged,
    /// `reoptimize`, the height read, as `edit-width-batched` measures. (The measurer itself is
    /// generic over its texts, unspecialised in a debug build, which allocates iterators there;
    /// the release harness's `alloc_bytes` shows its batched modes at 0, as the per-constant ones.)
    @Test func warmBatchesAllocateNothing() throws {
        guard let allocated = ThreadAllocatedBytes() else {
            Issue.record("jemalloc's mallctl is not linked into the test binary")
            return
        }
        var rng = SeededRandom(seed: 32)
        for kind in BuiltInRowKind.allCases {
            let system = TemplateSystem(kind.template)
            var solver = ConstraintSolver()
            var handles: [ConstraintHandle] = []
            for _ in 0..<system.variableCount { _ = solver.makeVariable() }
            for row in system.rows {
                handles.append(try solver.addConstraint(row.terms, constant: row.constant, relation: row.relation, priority: row.priority))
            }
            let width = SolverVariable(index: TemplateSystem.widthVariable), height = SolverVariable(index: TemplateSystem.heightVariable)
            try solver.addEditVariable(width, priority: 1000)
            // Label values of 16 rows: an intrinsic width, one line, then 1 to 4 lines.
            var values: [Double] = []
            for _ in 0..<16 { values.append(rng.double(0...900).rounded()) }
            let widths: [Double] = [320, 375, 414, 768, 1024, 200]
            var sum = 0.0
            func pass() throws {
                for i in 0..<values.count {
                    for l in 0..<system.labels.count {
                        let rows = system.labels[l]
                        try solver.stageConstant(handles[rows.widthMin], -values[i])
                        try solver.stageConstant(handles[rows.widthMax], -values[i])
                        try solver.stageConstant(handles[rows.heightMin], -20.5)
                        try solver.stageConstant(handles[rows.heightMax], -20.5)
                    }
                    try solver.stageValue(width, widths[i % widths.count])
                    try solver.reoptimize()
                    for l in 0..<system.labels.count {
                        let lines = Double(1 + i % 4)
                        sum += solver.value(of: SolverVariable(index: system.labels[l].widthVariable))
                        try solver.stageConstant(handles[system.labels[l].heightMin], -20.5 * lines)
                        try solver.stageConstant(handles[system.labels[l].heightMax], -20.5 * lines)
                    }
                    try solver.reoptimize()
                    sum += solver.value(of: height)
                }
            }
            for _ in 0..<2 { try pass() }
            let before = allocated.read()
            for _ in 0..<20 { try pass() }
            let after = allocated.read()
            #expect(after == before, "\(kind): \(after - before) bytes allocated by warm batches")
            #expect(sum.isFinite)
        }
    }
}
