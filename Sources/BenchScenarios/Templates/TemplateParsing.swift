import LayoutEngine
import TextShaping
import BenchResults
import BenchPlatform

/// `data.templates` (docs/scenario-format.md, constraint templates): constraint templates by name. Every
/// error names the file, the JSON path (`data.templates.post.constraints[3]`) and, for a
/// constraint, the template and the constraint's index in the message.
package enum TemplateParsing {
    /// The templates of a `data.templates` object, in file order.
    package static func parseTemplates(_ node: JSONNode) throws(ScenarioError) -> [CellTemplate] {
        let r = try node.object()
        guard r.members.count >= 1 else { throw node.error("expected at least one template") }
        guard r.members.count <= ScenarioLimits.maxTemplates else {
            throw node.error("expected at most \(ScenarioLimits.maxTemplates) templates, got \(r.members.count)")
        }
        var templates: [CellTemplate] = []
        for member in r.members {
            let child = try r.require(member.key)
            guard isIdentifier(member.key) else {
                throw child.error("a template name is letters, digits, '_' and '-' (not starting with a digit), got \(JSONValue.quoted(member.key))")
            }
            if BuiltInRowKind(rawValue: member.key) != nil {
                throw child.error("\(JSONValue.quoted(member.key)) is a built-in row kind (\(builtInNames)); give the template another name")
            }
            templates.append(try parseTemplate(child, name: member.key))
        }
        try r.finish()
        return templates
    }

    package static var builtInNames: String { BuiltInRowKind.allCases.map { JSONValue.quoted($0.rawValue) }.joined(separator: ", ") }

    /// One template: `views` and `constraints`.
    package static func parseTemplate(_ node: JSONNode, name: String) throws(ScenarioError) -> CellTemplate {
        let r = try node.object()
        let viewsNode = try r.require("views")
        let vr = try viewsNode.object()
        guard vr.members.count <= ScenarioLimits.maxTemplateViews else {
            throw viewsNode.error("template \(JSONValue.quoted(name)): expected at most \(ScenarioLimits.maxTemplateViews) views, got \(vr.members.count)")
        }
        var views: [TemplateView] = []
        for member in vr.members {
            let viewNode = try vr.require(member.key)
            guard isIdentifier(member.key), !member.key.contains("-") else {
                throw viewNode.error("template \(JSONValue.quoted(name)): a view name is letters, digits and '_' (not starting with a digit), got \(JSONValue.quoted(member.key))")
            }
            guard member.key != "contentView" else {
                throw viewNode.error("template \(JSONValue.quoted(name)): 'contentView' is implicit; do not declare it")
            }
            views.append(try parseView(viewNode, name: member.key, template: name))
        }
        try vr.finish()
        let constraintsNode = try r.require("constraints")
        let nodes = try constraintsNode.array(minCount: 1)
        guard nodes.count <= ScenarioLimits.maxTemplateConstraints else {
            throw constraintsNode.error("template \(JSONValue.quoted(name)): expected at most \(ScenarioLimits.maxTemplateConstraints) constraints, got \(nodes.count)")
        }
        var constraints: [TemplateConstraint] = []
        for (index, node) in nodes.enumerated() {
            let text = try node.string()
            switch parseConstraint(text, views: views) {
            case .success(let constraint): constraints.append(constraint)
            case .failure(let failure):
                throw node.error("template \(JSONValue.quoted(name)), constraint \(index) (\(JSONValue.quoted(text))): \(failure.message)")
            }
        }
        try r.finish()
        return CellTemplate(name: name, views: views, constraints: constraints)
    }

    /// `{"family": "DejaVu Sans", "size": 17}`: a family the font library knows, opened now (a
    /// missing file or one FreeType cannot open is an error here, not at the first measurement),
    /// and a size in (0, `TextLimits.maximumPointSize`]; the font and its line height at that size.
    /// Without the RealText trait, any font is `TextEngine.missingTrait`, naming the trait.
    static func parseFont(_ node: JSONNode, prefix: String) throws(ScenarioError) -> (font: LabelFont, lineHeight: Double) {
        #if RealText
        let f = try node.object()
        let family = try f.requireNonEmptyString("family")
        let size = try f.requireDouble("size", .above(0, atMost: TextLimits.maximumPointSize))
        try f.finish()
        // Named here, escaped and bounded: the family is the user's text (a NUL, an escape
        // sequence, 100,000 characters) and the error line echoes it.
        guard FontLibrary.families.contains(where: { $0.name == family }) else {
            let known = FontLibrary.families.map { JSONValue.quoted($0.name) }.joined(separator: ", ")
            throw f.error(at: "family", "\(prefix): unknown font family \(JSONValue.quoted(DisplayText.bounded(family))) (known: \(known))")
        }
        do {
            let face = try FontLibrary.shared.face(family: family)
            return (LabelFont(family: family, size: size), face.lineHeight(size: size))
        } catch {
            throw f.error(at: "family", "\(prefix): \(error.message)")
        }
        #else
        throw node.error("\(prefix): \(TextEngine.missingTrait.message)")
        #endif
    }

    static func parseView(_ node: JSONNode, name: String, template: String) throws(ScenarioError) -> TemplateView {
        let r = try node.object()
        let prefix = "template \(JSONValue.quoted(template)), view \(JSONValue.quoted(name))"
        let content: TemplateView.Content
        if r.has("intrinsic") && r.has("label") {
            throw r.error(at: "label", "\(prefix): a view has an intrinsic size or a label, not both")
        }
        if let i = try r.optionalObject("intrinsic") {
            let width = try i.optionalDouble("width", .size)
            let height = try i.optionalDouble("height", .size)
            try i.finish()
            content = .intrinsic(width: width, height: height)
        } else if let l = try r.optionalObject("label") {
            guard let source = l.optional("text") else {
                throw l.error("\(prefix): a label needs a text source: \"text\": \"text\" or \"detail\"")
            }
            let kind = try source.enumCase(TemplateLabel.Source.self)
            let lines = try l.optionalInt("lines", default: 0, .between(0, Double(ScenarioLimits.maxLabelLines)))
            if let fontNode = l.optional("font") {
                // A label on a real font (docs/text.md): its line height is the font's or a number.
                let (font, fontLineHeight) = try parseFont(fontNode, prefix: prefix)
                if l.has("fontScale") { throw l.error(at: "fontScale", "\(prefix): fontScale is the table model's; a label with a font takes its size from font.size") }
                var lineHeight = fontLineHeight
                if let node = l.optional("lineHeight") {
                    if case .string = node.value {
                        guard try node.string() == "font" else { throw node.error("expected \"font\" or a number > 0") }
                    } else {
                        lineHeight = try node.double(.positiveSize)
                    }
                }
                try l.finish()
                content = .label(TemplateLabel(source: kind, lineHeight: lineHeight, maxLines: lines, font: font))
            } else {
                let lineHeight = try l.optionalDouble("lineHeight", default: 20.5, .positiveSize)
                let fontScale = try l.optionalDouble("fontScale", default: 1, .above(0, atMost: ScenarioLimits.maxFontScale))
                try l.finish()
                content = .label(TemplateLabel(source: kind, lineHeight: lineHeight, fontScale: fontScale, maxLines: lines))
            }
        } else {
            content = .plain
        }
        let hugging = try axisPriorities(r, "hugging")
        let resistance = try axisPriorities(r, "compressionResistance")
        try r.finish()
        var view = TemplateView(name: name, content: content)
        if let hugging {
            view.hugging = AxisPriorities(horizontal: hugging.0 ?? view.hugging.horizontal, vertical: hugging.1 ?? view.hugging.vertical)
        }
        if let resistance {
            view.compressionResistance = AxisPriorities(
                horizontal: resistance.0 ?? view.compressionResistance.horizontal, vertical: resistance.1 ?? view.compressionResistance.vertical)
        }
        return view
    }

    private static func axisPriorities(_ r: JSONReader, _ key: String) throws(ScenarioError) -> (Double?, Double?)? {
        guard let o = try r.optionalObject(key) else { return nil }
        let h = try o.optionalDouble("horizontal", .between(1, 1000))
        let v = try o.optionalDouble("vertical", .between(1, 1000))
        try o.finish()
        return (h, v)
    }

    /// Letters, digits, `_` and `-`, not starting with a digit; at most 64 characters.
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.utf8.first, s.utf8.count <= 64, !(0x30...0x39).contains(first) else { return false }
        return s.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }
    }

    package struct ConstraintFailure: Error, Equatable {
        package var message: String
    }

    private enum Token: Equatable {
        case anchor(String, String)
        case number(Double, String)
        case relation(TemplateConstraint.Relation)
        case times, plus, minus, at
    }

    /// `ITEM.ATTR REL [M *] ITEM.ATTR [+|- C] [@P]` or `ITEM.ATTR REL C [@P]` (docs/scenario-format.md, constraint templates), with
    /// the axis rules: both sides on one axis, except that a width and a height may be related;
    /// only `width` and `height` may equal a constant alone.
    package static func parseConstraint(_ text: String, views: [TemplateView]) -> Result<TemplateConstraint, ConstraintFailure> {
        func fail(_ message: String) -> Result<TemplateConstraint, ConstraintFailure> { .failure(ConstraintFailure(message: message)) }
        let grammar = "expected 'ITEM.ATTR REL [M *] ITEM.ATTR [+|- C] [@P]' or 'ITEM.ATTR REL C [@P]'"
        // Tokens.
        var tokens: [Token] = []
        let bytes = Array(text.utf8)
        guard bytes.count <= 1000 else { return fail("longer than 1000 characters") }
        var i = 0
        func isNameByte(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 { i += 1; continue }
            if (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F {
                var j = i
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                let item = String(decoding: bytes[i..<j], as: UTF8.self)
                guard j < bytes.count, bytes[j] == 0x2E else { return fail("\(JSONValue.quoted(item)) is not ITEM.ATTR; \(grammar)") }
                var k = j + 1
                while k < bytes.count, isNameByte(bytes[k]) { k += 1 }
                tokens.append(.anchor(item, String(decoding: bytes[(j + 1)..<k], as: UTF8.self)))
                i = k
            } else if (b >= 0x30 && b <= 0x39) || b == 0x2E {
                var j = i
                while j < bytes.count, (bytes[j] >= 0x30 && bytes[j] <= 0x39) || bytes[j] == 0x2E || bytes[j] == 0x65 || bytes[j] == 0x45
                    || ((bytes[j] == 0x2D || bytes[j] == 0x2B) && j > i && (bytes[j - 1] == 0x65 || bytes[j - 1] == 0x45)) { j += 1 }
                let literal = String(decoding: bytes[i..<j], as: UTF8.self)
                guard let value = Double(literal), value.isFinite else { return fail("\(JSONValue.quoted(literal)) is not a number") }
                tokens.append(.number(value, literal))
                i = j
            } else if i + 1 < bytes.count, bytes[i + 1] == 0x3D, b == 0x3D || b == 0x3E || b == 0x3C {
                tokens.append(.relation(b == 0x3D ? .equal : b == 0x3E ? .greaterThanOrEqual : .lessThanOrEqual))
                i += 2
            } else if b == 0x2A { tokens.append(.times); i += 1 }
            else if b == 0x2B { tokens.append(.plus); i += 1 }
            else if b == 0x2D { tokens.append(.minus); i += 1 }
            else if b == 0x40 { tokens.append(.at); i += 1 }
            else {
                return fail("unexpected character \(JSONValue.quoted(String(decoding: [b], as: UTF8.self))); \(grammar)")
            }
        }
        // Anchors.
        func anchor(_ item: String, _ attribute: String) -> Result<TemplateAnchor, ConstraintFailure> {
            let view: Int
            if item == "contentView" {
                view = TemplateAnchor.contentView
            } else if let index = views.firstIndex(where: { $0.name == item }) {
                view = index
            } else {
                let known = (["contentView"] + views.map(\.name)).map { JSONValue.quoted($0) }.joined(separator: ", ")
                return .failure(ConstraintFailure(message: "unknown view \(JSONValue.quoted(item)); expected one of \(known)"))
            }
            guard let attr = LayoutAttribute(rawValue: attribute) else {
                let known = LayoutAttribute.allCases.map { JSONValue.quoted($0.rawValue) }.joined(separator: ", ")
                return .failure(ConstraintFailure(message: "unknown attribute \(JSONValue.quoted(attribute)) of \(JSONValue.quoted(item)); expected one of \(known)"))
            }
            return .success(TemplateAnchor(view: view, attribute: attr))
        }
        var p = 0
        func next() -> Token? { p < tokens.count ? tokens[p] : nil }
        // A signed number at p (an optional leading minus).
        func signedNumber() -> Double? {
            var sign = 1.0
            if next() == .minus { sign = -1; p += 1 } else if next() == .plus { p += 1 }
            if case .number(let v, _)? = next() { p += 1; return sign * v }
            return nil
        }
        guard case .anchor(let firstItem, let firstAttr)? = next() else { return fail(grammar) }
        p += 1
        let first: TemplateAnchor
        switch anchor(firstItem, firstAttr) {
        case .success(let a): first = a
        case .failure(let f): return .failure(f)
        }
        guard case .relation(let relation)? = next() else { return fail("expected ==, >= or <= after \(firstItem).\(firstAttr); \(grammar)") }
        p += 1
        var second: TemplateAnchor?
        var multiplier = 1.0
        var constant = 0.0
        let start = p
        if let value = signedNumber() {
            if next() == .times {
                p += 1
                multiplier = value
            } else {
                constant = value
            }
        } else {
            p = start
        }
        if p == start || multiplier != 1 || next() != nil && next() != .at {
            if case .anchor(let item, let attr)? = next() {
                p += 1
                switch anchor(item, attr) {
                case .success(let a): second = a
                case .failure(let f): return .failure(f)
                }
                if next() == .plus || next() == .minus {
                    let negative = next() == .minus
                    p += 1
                    guard case .number(let v, _)? = next() else { return fail("expected a constant after '\(negative ? "-" : "+")'; \(grammar)") }
                    p += 1
                    constant = negative ? -v : v
                }
            } else if p == start || multiplier != 1 {
                return fail("expected ITEM.ATTR or a constant after the relation; \(grammar)")
            }
        }
        var priority = 1000.0
        if next() == .at {
            p += 1
            guard case .number(let v, let literal)? = next() else { return fail("expected a priority after '@'") }
            p += 1
            guard v >= 1, v <= 1000 else { return fail("priority \(literal) is outside 1...1000") }
            priority = v
        }
        guard p == tokens.count else { return fail("unexpected text after the constraint; \(grammar)") }
        guard abs(constant) <= ScenarioLimits.maxSize else { return fail("the constant is beyond \(format(ScenarioLimits.maxSize))") }
        guard abs(multiplier) <= ScenarioLimits.maxMultiplier else { return fail("the multiplier is beyond \(format(ScenarioLimits.maxMultiplier))") }
        if let second {
            let sameAxis = first.attribute.isHorizontal == second.attribute.isHorizontal
            guard sameAxis || (first.attribute.isSize && second.attribute.isSize) else {
                return fail("\(first.attribute.rawValue) and \(second.attribute.rawValue) are on different axes (only a width and a height may be related across them)")
            }
        } else {
            guard first.attribute.isSize else {
                return fail("only width and height may equal a constant alone, not \(first.attribute.rawValue)")
            }
        }
        let constraint = TemplateConstraint(first, relation, second, multiplier: multiplier, constant: constant, priority: priority)
        guard !TemplateSystem.terms(of: constraint).isEmpty else {
            return fail("its two sides cancel (it constrains nothing the measurement does not fix)")
        }
        return .success(constraint)
    }
}
