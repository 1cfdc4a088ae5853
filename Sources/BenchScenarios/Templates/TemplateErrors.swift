import LayoutEngine
import BenchResults

/// One line for a failed template measurement: the template, the constraint's index (or which
/// implicit row) and the width.
package enum TemplateErrors {
    package static func describe(_ error: any Error, template: CellTemplate) -> String {
        guard let error = error as? TemplateMeasurementError else { return "template \(JSONValue.quoted(template.name)): \(error)" }
        let name = "template \(JSONValue.quoted(template.name))"
        switch error {
        case .unsatisfiable(let source, let width):
            return "\(name): the required constraints cannot all hold at width \(format(width))" + where_(source, template)
        case .pivotLimitReached(let width):
            return "\(name): the solver stopped at its pivot bound at width \(format(width))"
        case .solver(let solverError, let width):
            return "\(name): the solver refused at width \(format(width)): \(solverError)"
        case .text(let view, let message):
            return "\(name), view \(JSONValue.quoted(template.views[view].name)): \(message)"
        }
    }

    static func where_(_ source: TemplateSystem.Source?, _ template: CellTemplate) -> String {
        switch source {
        case .constraint(let index)?:
            let c = template.constraints[index]
            return " (constraint \(index), \(describe(c, template)), conflicts with the ones before it)"
        case .intrinsic(let view)?:
            return " (the intrinsic size of view \(JSONValue.quoted(template.views[view].name)) conflicts with the constraints)"
        case .width?:
            return " (contentView.width cannot take that width)"
        case .fittingSize?, nil:
            return ""
        }
    }

    /// The constraint written back in the scenario's form.
    package static func describe(_ c: TemplateConstraint, _ template: CellTemplate) -> String {
        func anchor(_ a: TemplateAnchor) -> String {
            (a.view == TemplateAnchor.contentView ? "contentView" : template.views[a.view].name) + "." + a.attribute.rawValue
        }
        var s = anchor(c.first) + " " + c.relation.rawValue + " "
        if let second = c.second {
            if c.multiplier != 1 { s += format(c.multiplier) + " * " }
            s += anchor(second)
            if c.constant != 0 { s += (c.constant < 0 ? " - " : " + ") + format(abs(c.constant)) }
        } else {
            s += format(c.constant)
        }
        if c.priority != 1000 { s += " @" + format(c.priority) }
        return s
    }
}
