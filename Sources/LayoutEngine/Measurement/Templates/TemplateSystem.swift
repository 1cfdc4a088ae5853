/// A template as solver rows: every constraint written as `sum(terms) + constant REL 0` over
/// the variables `0` = content width, `1` = content height and, per view `i`, `2 + 4i` … `5 + 4i`
/// = its x, y, width and height. The content view's leading and top are the constant 0 (the
/// measurement's `contentView.leading == 0`, `contentView.top == 0`), so they are no variables.
///
/// Rows, in order: the template's constraints; the fixed intrinsic sizes (width then height,
/// each `>=` at compression resistance then `<=` at hugging); per label the same four rows,
/// whose constants change with the row's text and between the two passes; last the fitting
/// size's `contentView.height == 0 @50`. The measurement's `contentView.width == W` is added by
/// the measurer.
public struct TemplateSystem: Sendable {
    /// What a row stands for, for error messages.
    public enum Source: Hashable, Sendable {
        /// `constraints[index]` of the template.
        case constraint(Int)
        /// The intrinsic size of `views[view]` (a fixed size or a label's text).
        case intrinsic(view: Int)
        /// `contentView.height == 0 @50`.
        case fittingSize
        /// `contentView.width == W`.
        case width
    }

    public struct Row: Sendable {
        public var terms: [LinearTerm]
        public var constant: Double
        public var relation: ConstraintRelation
        public var priority: Double
        public var source: Source
    }

    /// A label's four intrinsic-size rows.
    public struct LabelRows: Sendable {
        public var view: Int
        public var label: TemplateLabel
        /// Rows of `width >= w0`, `width <= w0`, `height >= h`, `height <= h`.
        public var widthMin: Int, widthMax: Int, heightMin: Int, heightMax: Int
        /// The variable of the label's width.
        public var widthVariable: Int
    }

    public let variableCount: Int
    public private(set) var rows: [Row] = []
    public private(set) var labels: [LabelRows] = []
    public static let widthVariable = 0
    public static let heightVariable = 1
    /// UIKit's `UILayoutPriorityFittingSizeLevel`.
    public static let fittingPriority = 50.0

    public init(_ template: CellTemplate) {
        variableCount = 2 + 4 * template.views.count
        for (index, constraint) in template.constraints.enumerated() {
            var terms: [(Int, Double)] = []
            Self.append(constraint.first, 1, to: &terms)
            if let second = constraint.second { Self.append(second, -constraint.multiplier, to: &terms) }
            rows.append(Row(terms: Self.merged(terms), constant: -constant(constraint), relation: Self.relation(constraint.relation),
                            priority: constraint.priority, source: .constraint(index)))
        }
        for (v, view) in template.views.enumerated() {
            if case .intrinsic(let width, let height) = view.content {
                if let width { addIntrinsic(view: v, variable: 4 + 4 * v, value: width, resistance: view.compressionResistance.horizontal, hugging: view.hugging.horizontal) }
                if let height { addIntrinsic(view: v, variable: 5 + 4 * v, value: height, resistance: view.compressionResistance.vertical, hugging: view.hugging.vertical) }
            }
        }
        for (v, view) in template.views.enumerated() {
            guard case .label(let label) = view.content else { continue }
            let first = rows.count
            addIntrinsic(view: v, variable: 4 + 4 * v, value: 0, resistance: view.compressionResistance.horizontal, hugging: view.hugging.horizontal)
            addIntrinsic(view: v, variable: 5 + 4 * v, value: 0, resistance: view.compressionResistance.vertical, hugging: view.hugging.vertical)
            labels.append(LabelRows(view: v, label: label, widthMin: first, widthMax: first + 1, heightMin: first + 2, heightMax: first + 3,
                                    widthVariable: 4 + 4 * v))
        }
        rows.append(Row(terms: [LinearTerm(SolverVariable(index: Self.heightVariable), 1)], constant: 0, relation: .equal,
                        priority: Self.fittingPriority, source: .fittingSize))
    }

    private func constant(_ c: TemplateConstraint) -> Double { c.constant }

    /// The constraint's terms over the system's variables (empty when its sides cancel).
    public static func terms(of constraint: TemplateConstraint) -> [LinearTerm] {
        var terms: [(Int, Double)] = []
        append(constraint.first, 1, to: &terms)
        if let second = constraint.second { append(second, -constraint.multiplier, to: &terms) }
        return merged(terms)
    }

    private mutating func addIntrinsic(view: Int, variable: Int, value: Double, resistance: Double, hugging: Double) {
        let terms = [LinearTerm(SolverVariable(index: variable), 1)]
        rows.append(Row(terms: terms, constant: -value, relation: .greaterThanOrEqual, priority: resistance, source: .intrinsic(view: view)))
        rows.append(Row(terms: terms, constant: -value, relation: .lessThanOrEqual, priority: hugging, source: .intrinsic(view: view)))
    }

    static func relation(_ relation: TemplateConstraint.Relation) -> ConstraintRelation {
        switch relation {
        case .equal: return .equal
        case .lessThanOrEqual: return .lessThanOrEqual
        case .greaterThanOrEqual: return .greaterThanOrEqual
        }
    }

    /// The terms of `anchor`, times `scale`.
    static func append(_ anchor: TemplateAnchor, _ scale: Double, to terms: inout [(Int, Double)]) {
        if anchor.view == TemplateAnchor.contentView {
            switch anchor.attribute {
            case .leading, .top: break
            case .trailing, .width: terms.append((widthVariable, scale))
            case .bottom, .height: terms.append((heightVariable, scale))
            case .centerX: terms.append((widthVariable, 0.5 * scale))
            case .centerY: terms.append((heightVariable, 0.5 * scale))
            }
            return
        }
        let x = 2 + 4 * anchor.view, y = x + 1, w = x + 2, h = x + 3
        switch anchor.attribute {
        case .leading: terms.append((x, scale))
        case .trailing: terms.append((x, scale)); terms.append((w, scale))
        case .centerX: terms.append((x, scale)); terms.append((w, 0.5 * scale))
        case .width: terms.append((w, scale))
        case .top: terms.append((y, scale))
        case .bottom: terms.append((y, scale)); terms.append((h, scale))
        case .centerY: terms.append((y, scale)); terms.append((h, 0.5 * scale))
        case .height: terms.append((h, scale))
        }
    }

    /// One term per variable, in variable order, zeros dropped.
    static func merged(_ terms: [(Int, Double)]) -> [LinearTerm] {
        var result: [LinearTerm] = []
        for (variable, coefficient) in terms.sorted(by: { $0.0 < $1.0 }) {
            if let last = result.last, last.variable.index == variable {
                result[result.count - 1].coefficient += coefficient
            } else {
                result.append(LinearTerm(SolverVariable(index: variable), coefficient))
            }
        }
        return result.filter { $0.coefficient != 0 }
    }
}
