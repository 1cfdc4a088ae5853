import LayoutEngine

/// The exact fitting height of a constraint template (docs/scenario-format.md, constraint templates), the answer every `cell-measure`
/// mode is checked against: each pass is a lexicographic linear program solved level by level
/// by `LexicographicLPReference` (a dense simplex that shares no code with the engine's solver).
///
/// Written out plainly, independently of `TemplateSystem`: every view and the content view have
/// the four variables x, y, width, height; the measurement's `contentView.leading == 0`,
/// `contentView.top == 0` and `contentView.width == W` are required rows and
/// `contentView.height == 0` a row at priority 50. Pass 1 gives every label with text one line
/// of height; each label's lines are then counted at its pass-1 width (`TemplateCell`'s wrap,
/// capped at `lines`), and pass 2 solves with those heights.
public enum TemplateReference {
    public enum Outcome: Equatable, Sendable {
        case fitting(Double)
        /// The required constraints cannot all hold at this width.
        case unsatisfiable
        /// The reference's own round-off failure.
        case numericalFailure(String)
    }

    /// The fitting height of `template` showing `text` and `detail` at cell width `width`.
    /// `textMeasurer` measures the labels that name a font (the engine's text measurer, which
    /// scripts/text_oracle.py checks on its own; give one without a cache).
    public static func fittingHeight(_ template: CellTemplate, text: [UInt8], detail: [UInt8], width: Double,
                                     textMeasurer: (any LabelTextMeasuring)? = nil) -> Outcome {
        // Font labels: their font handles.
        var fonts: [Int] = []
        for view in template.views {
            guard case .label(let label) = view.content, let font = label.font else { fonts.append(-1); continue }
            guard let textMeasurer, let handle = try? textMeasurer.resolve(font) else {
                return .numericalFailure("view \(view.name) names a font and there is no text measurer for it")
            }
            fonts.append(handle)
        }
        // Variables: item k (0 = content view, k = view k - 1) has x 4k, y 4k+1, w 4k+2, h 4k+3.
        func item(_ view: Int) -> Int { view == TemplateAnchor.contentView ? 0 : view + 1 }
        func expression(_ anchor: TemplateAnchor, _ scale: Double) -> [(variable: Int, coefficient: Double)] {
            let base = 4 * item(anchor.view)
            switch anchor.attribute {
            case .leading: return [(base, scale)]
            case .top: return [(base + 1, scale)]
            case .width: return [(base + 2, scale)]
            case .height: return [(base + 3, scale)]
            case .trailing: return [(base, scale), (base + 2, scale)]
            case .bottom: return [(base + 1, scale), (base + 3, scale)]
            case .centerX: return [(base, scale), (base + 2, scale / 2)]
            case .centerY: return [(base + 1, scale), (base + 3, scale / 2)]
            }
        }
        typealias C = LexicographicLPReference.Constraint
        func relation(_ r: TemplateConstraint.Relation) -> LexicographicLPReference.Relation {
            switch r {
            case .equal: return .equal
            case .lessThanOrEqual: return .lessThanOrEqual
            case .greaterThanOrEqual: return .greaterThanOrEqual
            }
        }
        let variableCount = 4 * (template.views.count + 1)
        var base: [C] = [
            C(terms: [(0, 1)], constant: 0, relation: .equal, priority: 1000),
            C(terms: [(1, 1)], constant: 0, relation: .equal, priority: 1000),
            C(terms: [(2, 1)], constant: -width, relation: .equal, priority: 1000),
            C(terms: [(3, 1)], constant: 0, relation: .equal, priority: 50),
        ]
        for c in template.constraints {
            var terms = expression(c.first, 1)
            if let second = c.second { terms += expression(second, -c.multiplier) }
            base.append(C(terms: terms, constant: -c.constant, relation: relation(c.relation), priority: c.priority))
        }
        func intrinsic(_ variable: Int, _ value: Double, resistance: Double, hugging: Double) -> [C] {
            [C(terms: [(variable, 1)], constant: -value, relation: .greaterThanOrEqual, priority: resistance),
             C(terms: [(variable, 1)], constant: -value, relation: .lessThanOrEqual, priority: hugging)]
        }
        // Labels: (view, label, bytes).
        var labels: [(view: Int, label: TemplateLabel, bytes: [UInt8])] = []
        for (v, view) in template.views.enumerated() {
            let k = 4 * item(v)
            switch view.content {
            case .plain: break
            case .intrinsic(let w, let h):
                if let w { base += intrinsic(k + 2, w, resistance: view.compressionResistance.horizontal, hugging: view.hugging.horizontal) }
                if let h { base += intrinsic(k + 3, h, resistance: view.compressionResistance.vertical, hugging: view.hugging.vertical) }
            case .label(let label):
                labels.append((v, label, label.source == .text ? text : detail))
            }
        }
        func solve(heights: [Double]) -> LexicographicLPReference.Outcome {
            var all = base
            for (i, l) in labels.enumerated() {
                let view = template.views[l.view]
                let k = 4 * item(l.view)
                // The text on one line: every byte's advance, a space 4.5, a tab four spaces.
                var oneLine = 0.0
                if fonts[l.view] >= 0 {
                    oneLine = l.bytes.withUnsafeBufferPointer { textMeasurer!.intrinsicWidth(of: $0, font: fonts[l.view]) }
                } else {
                    for b in l.bytes { oneLine += b == 0x20 ? 4.5 : b == 0x09 ? 18 : TemplateCell.advance(b) }
                    oneLine *= l.label.fontScale
                }
                all += intrinsic(k + 2, oneLine, resistance: view.compressionResistance.horizontal, hugging: view.hugging.horizontal)
                all += intrinsic(k + 3, heights[i], resistance: view.compressionResistance.vertical, hugging: view.hugging.vertical)
            }
            return LexicographicLPReference(variableCount: variableCount, constraints: all).solve()
        }
        let passOne = labels.map { $0.bytes.isEmpty ? 0 : $0.label.lineHeight }
        let first: LexicographicLPReference.Solution
        switch solve(heights: passOne) {
        case .requiredInfeasible: return .unsatisfiable
        case .numericalFailure(let why): return .numericalFailure(why)
        case .optimal(let solution): first = solution
        }
        let passTwo = labels.map { l -> Double in
            let labelWidth = first.values[4 * item(l.view) + 2]
            if fonts[l.view] >= 0 {
                let layout = l.bytes.withUnsafeBufferPointer {
                    textMeasurer!.layout(of: $0, font: fonts[l.view], width: labelWidth, maxLines: l.label.maxLines)
                }
                return Double(layout.lines) * l.label.lineHeight
            }
            // The line width in table units; advances are multiples of 0.5, so a limit within
            // 1e-7 of such a multiple is on it (docs/scenario-format.md, constraint templates).
            let scale = l.label.fontScale > 0 ? l.label.fontScale : 1
            let exact = max(labelWidth, 1) / scale
            let halves = (exact * 2).rounded()
            let limit = abs(exact - halves / 2) <= 1e-7 ? halves / 2 : exact
            var lines = TemplateCell.lineCount(of: l.bytes, limit: limit)
            if l.label.maxLines > 0 { lines = min(lines, l.label.maxLines) }
            return Double(lines) * l.label.lineHeight
        }
        switch solve(heights: passTwo) {
        case .requiredInfeasible: return .unsatisfiable
        case .numericalFailure(let why): return .numericalFailure(why)
        case .optimal(let solution): return .fitting(solution.values[3])
        }
    }
}
