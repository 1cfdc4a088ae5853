import LayoutEngine

/// What `Scenario.makeItems(items:)` produces: the layout data and, for the `text` height
/// distribution, each item's text and the template cell that measured it (a height cache or a
/// height pass measures them again with `cell.height(of: texts[i], width:)`).
public struct GeneratedItems: Hashable, Sendable {
    public var data: LayoutData
    /// One text per item in global order, or nil when heights are not measured from text
    /// (explicit data: the texts given, if any, with `cell` nil).
    public var texts: ItemTexts?
    public var cell: TemplateCell?
    /// For constraint-template rows: each item's template and detail text (`texts` holds the text).
    public var templated: TemplatedRows?

    public init(data: LayoutData, texts: ItemTexts? = nil, cell: TemplateCell? = nil, templated: TemplatedRows? = nil) {
        self.data = data
        self.texts = texts
        self.cell = cell
        self.templated = templated
    }
}

/// Rows measured by constraint templates: the templates they use, each item's template (an index
/// into `templates`) and each item's detail text.
public struct TemplatedRows: Hashable, Sendable {
    public var templates: [CellTemplate]
    public var kinds: [Int]
    public var details: ItemTexts

    public init(templates: [CellTemplate], kinds: [Int], details: ItemTexts) {
        self.templates = templates
        self.kinds = kinds
        self.details = details
    }
}
