/// The built-in row kinds of the height workloads (`title`, `title-body`, `image`), each in two
/// forms that must agree: the hand-written closed form (`rowTemplate`, `RowTemplate`'s
/// `sizeThatFits`) and a constraint template (`template`), as a XIB would lay the same cell out.
///
/// The closed form adds the spacing before the body or caption only when that label has text;
/// the template gets the same effect the way a stack view does, with a `gap` view whose height
/// is at most the spacing and at most the label's height (so 0 under an empty label) and wants
/// the spacing at priority 200 (below the label's hugging, 251, so that the gap never stretches
/// an empty label).
public enum BuiltInRowKind: String, CaseIterable, Hashable, Sendable, Codable {
    case title
    case titleBody = "title-body"
    case image

    /// The closed form, as `height-pass` registers it (accessories included).
    public var rowTemplate: RowTemplate {
        switch self {
        case .title: return RowTemplate(layout: .title)
        case .titleBody: return RowTemplate(layout: .titleAndBody(spacing: Self.bodySpacing), accessory: .disclosureIndicator)
        case .image: return RowTemplate(layout: .imageWithCaption(aspectRatio: Self.aspectRatio, spacing: Self.captionSpacing), accessory: .custom(width: 24))
        }
    }

    static let bodySpacing = 4.0
    static let captionSpacing = 6.0
    static let aspectRatio = 16.0 / 9.0

    /// The same cell as constraints. The label styles, paddings and spacings are those of
    /// `rowTemplate` (title: 20.5 pt lines at scale 1; body and caption: 18 pt at 0.88; padding
    /// 11 and 16).
    public var template: CellTemplate {
        let row = rowTemplate
        let pad = row.title.padding
        let title = TemplateLabel(source: .text, lineHeight: row.title.lineHeight, fontScale: row.title.fontScale)
        let body = TemplateLabel(source: self == .image ? .text : .detail, lineHeight: row.body.lineHeight, fontScale: row.body.fontScale)
        let content = TemplateAnchor.contentView
        func a(_ view: Int, _ attribute: LayoutAttribute) -> TemplateAnchor { TemplateAnchor(view: view, attribute: attribute) }
        var views: [TemplateView] = []
        var constraints: [TemplateConstraint] = []
        switch self {
        case .title:
            views = [TemplateView(name: "title", content: .label(title))]
            constraints = [
                TemplateConstraint(a(0, .leading), .equal, a(content, .leading), constant: pad.left),
                TemplateConstraint(a(0, .trailing), .equal, a(content, .trailing), constant: -pad.right),
                TemplateConstraint(a(0, .top), .equal, a(content, .top), constant: pad.top),
                TemplateConstraint(a(content, .bottom), .equal, a(0, .bottom), constant: pad.bottom),
            ]
        case .titleBody, .image:
            // View 0: the title label or the image; 1: the body or caption label; 2: the gap.
            let spacing = self == .image ? Self.captionSpacing : Self.bodySpacing
            views = [
                self == .image ? TemplateView(name: "image", content: .plain) : TemplateView(name: "title", content: .label(title)),
                TemplateView(name: self == .image ? "caption" : "body", content: .label(body)),
                TemplateView(name: "gap", content: .plain),
            ]
            constraints = [
                TemplateConstraint(a(0, .leading), .equal, a(content, .leading), constant: pad.left),
                TemplateConstraint(a(0, .trailing), .equal, a(content, .trailing), constant: -pad.right),
                TemplateConstraint(a(0, .top), .equal, a(content, .top), constant: pad.top),
                TemplateConstraint(a(1, .leading), .equal, a(0, .leading)),
                TemplateConstraint(a(1, .trailing), .equal, a(0, .trailing)),
                TemplateConstraint(a(2, .top), .equal, a(0, .bottom)),
                TemplateConstraint(a(1, .top), .equal, a(2, .bottom)),
                TemplateConstraint(a(2, .height), .lessThanOrEqual, nil, constant: spacing),
                TemplateConstraint(a(2, .height), .lessThanOrEqual, a(1, .height)),
                TemplateConstraint(a(2, .height), .equal, nil, constant: spacing, priority: 200),
                TemplateConstraint(a(2, .leading), .equal, a(0, .leading)),
                TemplateConstraint(a(2, .width), .equal, nil, constant: 0),
                TemplateConstraint(a(content, .bottom), .equal, a(1, .bottom), constant: pad.bottom),
            ]
            if self == .image {
                constraints.append(TemplateConstraint(a(0, .height), .equal, a(0, .width), multiplier: 1 / Self.aspectRatio))
            }
        }
        return CellTemplate(name: rawValue, views: views, constraints: constraints, accessoryWidth: row.accessory.widthTaken, builtIn: self)
    }
}
