import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// One constraint of a generated system, by variable index: `sum(terms) + constant REL 0 @priority`.
struct GeneratedConstraint {
    var terms: [(variable: Int, coefficient: Double)]
    var constant: Double
    var relation: ConstraintRelation
    var priority: Double

    var referenceConstraint: LexicographicLPReference.Constraint {
        let relation: LexicographicLPReference.Relation
        switch self.relation {
        case .equal: relation = .equal
        case .lessThanOrEqual: relation = .lessThanOrEqual
        case .greaterThanOrEqual: relation = .greaterThanOrEqual
        }
        return .init(terms: terms, constant: constant, relation: relation, priority: priority)
    }

    func engineTerms(_ variables: [SolverVariable]) -> [LinearTerm] {
        terms.map { LinearTerm(variables[$0.variable], $0.coefficient) }
    }
}

/// Random constraint systems shaped like Auto Layout cells: a content view (its leading and top
/// at 0, its width and height variables) and 1 to 6 subviews (x, y, width, height each), laid in
/// horizontal and vertical chains with margins, fixed and intrinsic sizes (hugging at 250/251,
/// compression resistance at 750), aspect ratios, `contentView.bottom >= view.bottom + inset`,
/// the fitting-size `contentView.height == 0 @50`, and extra random constraints between
/// attributes of one axis with priorities from {1000, 999, 750, 251, 250, 50} or random ones.
struct RandomCellSystem {
    /// Variable 0 is contentView.width, 1 contentView.height; view v has 2 + 4v ... 2 + 4v + 3.
    var viewCount: Int
    var constraints: [GeneratedConstraint]
    var variableCount: Int { 2 + 4 * viewCount }
    static let contentWidth = 0
    static let contentHeight = 1

    enum Attribute: CaseIterable { case leading, trailing, centerX, width, top, bottom, centerY, height
        var isHorizontal: Bool { [.leading, .trailing, .centerX, .width].contains(self) }
    }

    /// `view.attribute` as terms (view -1 is the content view).
    static func expression(_ view: Int, _ attribute: Attribute) -> [(variable: Int, coefficient: Double)] {
        if view < 0 {
            switch attribute {
            case .leading, .top: return []
            case .trailing, .width: return [(contentWidth, 1)]
            case .bottom, .height: return [(contentHeight, 1)]
            case .centerX: return [(contentWidth, 0.5)]
            case .centerY: return [(contentHeight, 0.5)]
            }
        }
        let x = 2 + 4 * view, y = x + 1, w = x + 2, h = x + 3
        switch attribute {
        case .leading: return [(x, 1)]
        case .trailing: return [(x, 1), (w, 1)]
        case .centerX: return [(x, 1), (w, 0.5)]
        case .width: return [(w, 1)]
        case .top: return [(y, 1)]
        case .bottom: return [(y, 1), (h, 1)]
        case .centerY: return [(y, 1), (h, 0.5)]
        case .height: return [(h, 1)]
        }
    }

    /// `a.attr REL multiplier * b.attr + constant @priority`.
    static func relate(_ a: Int, _ attrA: Attribute, _ relation: ConstraintRelation, _ b: Int?, _ attrB: Attribute,
                       multiplier: Double = 1, constant: Double, priority: Double) -> GeneratedConstraint {
        var terms = expression(a, attrA)
        if let b { terms += expression(b, attrB).map { ($0.variable, -multiplier * $0.coefficient) } }
        return GeneratedConstraint(terms: terms, constant: -constant, relation: relation, priority: priority)
    }

    static let listedPriorities: [Double] = [1000, 999, 750, 251, 250, 50]

    static func priority(_ rng: inout SeededRandom, requiredShare: Double = 0.5) -> Double {
        if rng.chance(requiredShare) { return 1000 }
        if rng.chance(0.8) { return rng.pick(listedPriorities) }
        return Double(rng.int(1...999))
    }

    static func relation(_ rng: inout SeededRandom) -> ConstraintRelation {
        rng.pick([.equal, .equal, .lessThanOrEqual, .greaterThanOrEqual])
    }

    init(_ rng: inout SeededRandom, maxViews: Int = 6, extraConstraints: ClosedRange<Int> = 0...6,
         fixedWidth: Double? = nil) {
        viewCount = rng.int(1...maxViews)
        var list: [GeneratedConstraint] = []
        if let fixedWidth {
            list.append(Self.relate(-1, .width, .equal, nil, .width, constant: fixedWidth, priority: 1000))
        }
        list.append(Self.relate(-1, .height, .equal, nil, .height, constant: 0, priority: 50))
        for v in 0..<viewCount {
            list += Self.cellConstraints(view: v, rng: &rng)
        }
        for _ in 0..<rng.int(extraConstraints) {
            list.append(Self.randomConstraint(viewCount: viewCount, rng: &rng))
        }
        // The order of addition matters to the engine (not to the answer): shuffle it.
        for i in stride(from: list.count - 1, to: 0, by: -1) { list.swapAt(i, rng.int(0...i)) }
        constraints = list
    }

    static func cellConstraints(view v: Int, rng: inout SeededRandom) -> [GeneratedConstraint] {
        var list: [GeneratedConstraint] = []
        let previous = v == 0 || rng.chance(0.3) ? -1 : rng.int(0...(v - 1))
        let gap = Double(rng.int(0...4) * 4)
        // Horizontal.
        if previous < 0 || rng.chance(0.4) {
            list.append(relate(v, .leading, .equal, -1, .leading, constant: gap + 8, priority: priority(&rng, requiredShare: 0.85)))
        } else {
            list.append(relate(v, .leading, .equal, previous, .trailing, constant: gap, priority: priority(&rng, requiredShare: 0.8)))
        }
        switch rng.int(0...3) {
        case 0:
            list.append(relate(v, .trailing, .equal, -1, .trailing, constant: -gap - 8, priority: priority(&rng, requiredShare: 0.7)))
        case 1:
            list.append(relate(v, .trailing, .lessThanOrEqual, -1, .trailing, constant: -16, priority: priority(&rng, requiredShare: 0.7)))
            fallthrough
        case 2:
            let intrinsic = Double(rng.int(10...300))
            list.append(relate(v, .width, .greaterThanOrEqual, nil, .width, constant: intrinsic, priority: rng.pick([750, 750, 1000, 999])))
            list.append(relate(v, .width, .lessThanOrEqual, nil, .width, constant: intrinsic, priority: rng.pick([250, 251, 250, 50])))
        default:
            list.append(relate(v, .width, .equal, nil, .width, constant: Double(rng.int(8...120)), priority: priority(&rng, requiredShare: 0.8)))
        }
        // Vertical.
        let above = v == 0 || rng.chance(0.4) ? -1 : rng.int(0...(v - 1))
        if above < 0 {
            list.append(relate(v, .top, .equal, -1, .top, constant: Double(rng.int(0...16)), priority: priority(&rng, requiredShare: 0.85)))
        } else {
            list.append(relate(v, .top, .equal, above, .bottom, constant: Double(rng.int(0...12)), priority: priority(&rng, requiredShare: 0.8)))
        }
        switch rng.int(0...3) {
        case 0:
            list.append(relate(v, .height, .equal, v, .width, multiplier: rng.pick([1, 0.75, 0.5625, 1.5]), constant: 0,
                               priority: priority(&rng, requiredShare: 0.8)))
        case 1:
            list.append(relate(v, .height, .equal, nil, .height, constant: Double(rng.int(10...80)), priority: priority(&rng, requiredShare: 0.8)))
        default:
            let intrinsic = Double(rng.int(1...6)) * 18
            list.append(relate(v, .height, .greaterThanOrEqual, nil, .height, constant: intrinsic, priority: rng.pick([750, 1000, 999])))
            list.append(relate(v, .height, .lessThanOrEqual, nil, .height, constant: intrinsic, priority: rng.pick([250, 251])))
        }
        if rng.chance(0.7) {
            list.append(relate(-1, .bottom, .greaterThanOrEqual, v, .bottom, constant: Double(rng.int(0...16)), priority: priority(&rng, requiredShare: 0.8)))
        } else {
            list.append(relate(-1, .bottom, .equal, v, .bottom, constant: Double(rng.int(0...16)), priority: rng.pick([999, 750, 1000])))
        }
        return list
    }

    static func randomConstraint(viewCount: Int, rng: inout SeededRandom) -> GeneratedConstraint {
        let a = rng.int(0...(viewCount - 1))
        let b = rng.int(-1...(viewCount - 1))
        let attrA = rng.pick(Attribute.allCases)
        let sameAxis = Attribute.allCases.filter { $0.isHorizontal == attrA.isHorizontal }
        if rng.chance(0.15) && (attrA == .width || attrA == .height) {
            // A size alone.
            return relate(a, attrA, relation(&rng), nil, .width, constant: Double(rng.int(0...200)), priority: priority(&rng))
        }
        let multiplier = rng.chance(0.8) ? 1 : rng.pick([0.5, 2, 0.75, 1.25])
        return relate(a, attrA, relation(&rng), b, rng.pick(sameAxis), multiplier: multiplier,
                      constant: Double(rng.int(-40...40)), priority: priority(&rng))
    }
}

@Suite struct ConstraintRandomSystemTests {
    /// The generator makes what the differential tests need: satisfiable and unsatisfiable
    /// required sets, several priority levels, and systems of cell size.
    @Test func generatorCoversFeasibleAndInfeasibleCells() {
        var rng = SeededRandom(seed: 2026)
        var infeasible = 0, feasible = 0, manyLevels = 0, sizes = 0
        for _ in 0..<150 {
            let system = RandomCellSystem(&rng)
            sizes += system.constraints.count
            let reference = LexicographicLPReference(variableCount: system.variableCount,
                                                     constraints: system.constraints.map(\.referenceConstraint))
            switch reference.solve() {
            case .optimal(let solution):
                feasible += 1
                if solution.levels.count >= 3 { manyLevels += 1 }
            case .requiredInfeasible: infeasible += 1
            case .numericalFailure(let why): Issue.record("reference failed: \(why)")
            }
        }
        #expect(feasible > 60)
        #expect(infeasible > 10)
        #expect(manyLevels > 30)
        #expect(sizes / 150 >= 10)
    }
}
