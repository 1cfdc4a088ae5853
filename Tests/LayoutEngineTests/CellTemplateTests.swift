import Testing
import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// Constraint templates (docs/scenario-format.md, constraint templates): the two passes on hand-computed cells, every solving
/// strategy against the LP reference on seeded random templates, and the built-in rows' closed
/// form against their constraint form.
@Suite struct CellTemplateTests {
    static let content = TemplateAnchor.contentView
    static func a(_ v: Int, _ attribute: LayoutAttribute) -> TemplateAnchor { TemplateAnchor(view: v, attribute: attribute) }

    /// One label between paddings of 10 (x) and 5 (y), its trailing pinned (`==`) or bounded (`<=`).
    static func labelCell(trailing: TemplateConstraint.Relation) -> CellTemplate {
        CellTemplate(name: "label", views: [TemplateView(name: "l", content: .label(TemplateLabel(source: .text)))], constraints: [
            TemplateConstraint(a(0, .leading), .equal, a(content, .leading), constant: 10),
            TemplateConstraint(a(0, .trailing), trailing, a(content, .trailing), constant: -10),
            TemplateConstraint(a(0, .top), .equal, a(content, .top), constant: 5),
            TemplateConstraint(a(content, .bottom), .equal, a(0, .bottom), constant: 5),
        ])
    }

    static func fitting(_ template: CellTemplate, _ text: String, detail: String = "", width: Double, _ strategy: TemplateSolveStrategy) throws -> Double {
        var measurer = try TemplateMeasurer(template: template, strategy: strategy)
        return try measurer.fittingHeight(text: Array(text.utf8)[...], detail: Array(detail.utf8)[...], width: width)
    }

    /// "aaaa aaaa" is 36 + 4.5 + 36 = 76.5 pt on one line. At cell width 70 the label is 50 wide:
    /// two lines, 5 + 2 × 20.5 + 5 = 51. At 200 it is one line: 30.5. Empty text: no lines, 10.
    @Test(arguments: TemplateSolveStrategy.allCases)
    func handComputedLabel(strategy: TemplateSolveStrategy) throws {
        for relation in [TemplateConstraint.Relation.equal, .lessThanOrEqual] {
            let cell = Self.labelCell(trailing: relation)
            #expect(try Self.fitting(cell, "aaaa aaaa", width: 70, strategy) == 51)
            #expect(try Self.fitting(cell, "aaaa aaaa", width: 200, strategy) == 30.5)
            #expect(try Self.fitting(cell, "", width: 200, strategy) == 10)
        }
    }

    /// Pass 2 uses the width pass 1 gave: a label beside a 40 pt avatar (8 pt apart), its
    /// trailing at most the content's - 16, in a cell 200 wide: 200 - 16 - 40 - 8 - 16 = 120 pt
    /// available. "mmmm mmmm mmmm" is 54 + 4.5 + 54 + 4.5 + 54 = 171 pt: 2 lines at 120 (the
    /// first two words take 112.5), 41 pt below an avatar top of 12: bottom 53, plus 12 = 65; the
    /// avatar (12 + 40 + 12 = 64) is shorter. A short text ("mm", 27 pt) is one line: the avatar's 64 wins through `>=`.
    @Test(arguments: TemplateSolveStrategy.allCases)
    func handComputedAvatarRow(strategy: TemplateSolveStrategy) throws {
        let cell = CellTemplate(name: "row", views: [
            TemplateView(name: "avatar", content: .intrinsic(width: 40, height: 40)),
            TemplateView(name: "name", content: .label(TemplateLabel(source: .text))),
        ], constraints: [
            TemplateConstraint(Self.a(0, .leading), .equal, Self.a(Self.content, .leading), constant: 16),
            TemplateConstraint(Self.a(0, .top), .equal, Self.a(Self.content, .top), constant: 12),
            TemplateConstraint(Self.a(0, .width), .equal, nil, constant: 40),
            TemplateConstraint(Self.a(1, .leading), .equal, Self.a(0, .trailing), constant: 8),
            TemplateConstraint(Self.a(1, .trailing), .lessThanOrEqual, Self.a(Self.content, .trailing), constant: -16),
            TemplateConstraint(Self.a(1, .top), .equal, Self.a(0, .top)),
            TemplateConstraint(Self.a(Self.content, .bottom), .greaterThanOrEqual, Self.a(0, .bottom), constant: 12),
            TemplateConstraint(Self.a(Self.content, .bottom), .equal, Self.a(1, .bottom), constant: 12, priority: 999),
        ])
        #expect(try Self.fitting(cell, "mmmm mmmm mmmm", width: 200, strategy) == 65)
        #expect(try Self.fitting(cell, "mm", width: 200, strategy) == 64)
    }

    @Test(arguments: TemplateSolveStrategy.allCases)
    func unsatisfiableRequiredIsAnError(strategy: TemplateSolveStrategy) throws {
        // A label at least 500 wide (required) in a cell 300 wide.
        var cell = Self.labelCell(trailing: .equal)
        cell.constraints.append(TemplateConstraint(Self.a(0, .width), .greaterThanOrEqual, nil, constant: 500))
        #expect(throws: TemplateMeasurementError.self) { try Self.fitting(cell, "x", width: 300, strategy) }
        #expect(try Self.fitting(cell, "x", width: 600, strategy) == 30.5)
    }

    /// Every strategy, each measuring several rows in turn on one solver (its state carried from
    /// row to row as in the workload), against the LP reference's two passes, on 600 seeded
    /// random cell-shaped templates (5,400 measurements; Tests/Oracle checks 1,500 more against
    /// the Python references). Texts that fit a label exactly are
    /// common here (half-unit advances, whole-point widths): the wrap limit taken onto a half unit
    /// within 1e-7 (`TemplateLabel.wrapLimit`) is what makes the solvers' round-off irrelevant there.
    @Test func everyStrategyMatchesTheLPReference() throws {
        let templates = 600
        var measured = 0
        for seed in 0..<UInt64(templates) {
            let first = RandomCellTemplate.make(seed: seed)
            // Three rows per template: its own texts and width, then two more drawn from seeds after it.
            var rows = [first]
            for k in 1...2 {
                var other = RandomCellTemplate.make(seed: seed &+ 100_000 &* UInt64(k))
                other.template = first.template
                rows.append(other)
            }
            var measurers = try TemplateSolveStrategy.allCases.map { try TemplateMeasurer(template: first.template, strategy: $0) }
            for row in rows {
                guard case .fitting(let expected) = TemplateReference.fittingHeight(row.template, text: row.text, detail: row.detail, width: row.width) else {
                    Issue.record("the reference failed on \(row)")
                    continue
                }
                for i in measurers.indices {
                    let h = try measurers[i].fittingHeight(text: row.text[...], detail: row.detail[...], width: row.width)
                    #expect(abs(h - expected) <= 1e-6, "\(measurers[i].strategy.rawValue): \(h), reference \(expected); \(row)")
                    measured += 1
                }
            }
        }
        #expect(measured == templates * 3 * TemplateSolveStrategy.allCases.count)
    }

    /// `frame` (the built-in rows' closed form) against their constraint form on random texts
    /// (empty ones included) and widths.
    @Test(arguments: BuiltInRowKind.allCases)
    func closedFormMatchesConstraintForm(kind: BuiltInRowKind) throws {
        var rng = SeededRandom(seed: 42)
        let template = kind.template
        var measurers = try TemplateSolveStrategy.allCases.map { try TemplateMeasurer(template: template, strategy: $0) }
        for _ in 0..<1000 {
            let text = RandomCellTemplate.text(&rng), detail = RandomCellTemplate.text(&rng)
            let width = rng.double(120...1200).rounded()
            let closed = kind.rowTemplate.fittingHeight(text: text, detail: detail, width: width)
            for i in measurers.indices {
                let h = try measurers[i].fittingHeight(text: text[...], detail: detail[...], width: width - template.accessoryWidth)
                #expect(abs(h - closed) <= 1e-6, "\(kind.rawValue) \(measurers[i].strategy.rawValue) at \(width): \(h), closed form \(closed)")
            }
        }
    }

    /// The built-in rows' constraint form against the LP reference too.
    @Test(arguments: BuiltInRowKind.allCases)
    func builtInTemplatesMatchTheLPReference(kind: BuiltInRowKind) throws {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<40 {
            let text = RandomCellTemplate.text(&rng), detail = RandomCellTemplate.text(&rng)
            let width = rng.double(120...1200).rounded()
            let closed = kind.rowTemplate.fittingHeight(text: text, detail: detail, width: width)
            guard case .fitting(let h) = TemplateReference.fittingHeight(kind.template, text: text, detail: detail, width: width - kind.template.accessoryWidth) else {
                Issue.record("reference failed")
                continue
            }
            #expect(abs(h - closed) <= 1e-6)
        }
    }

    /// Warm `edit-width` and `fd-add-remove` measurements report the solver's work: the
    /// constraint count includes the width; a fresh engine counts its construction's pivots.
    @Test func countsConstraintsAndPivots() throws {
        let template = BuiltInRowKind.titleBody.template
        let rows = TemplateSystem(template).rows.count
        for strategy in TemplateSolveStrategy.allCases {
            var m = try TemplateMeasurer(template: template, strategy: strategy)
            _ = try m.fittingHeight(text: Array("Title".utf8)[...], detail: Array("a body".utf8)[...], width: 300)
            #expect(m.lastConstraintCount == rows + 1, "\(strategy)")
            #expect(m.lastPivots > 0, "\(strategy)")
        }
    }
}
