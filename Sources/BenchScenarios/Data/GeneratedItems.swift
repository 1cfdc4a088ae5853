import LayoutEngine

/// What `Scenario.makeItems(items:)` produces: the layout data and, for the `text` height
/// distribution, each item's text and the template cell that measured it (a height cache or a
/// height pass measures them again with `cell.height(of: texts[i], width:)`).
package struct GeneratedItems: Hashable, Sendable {
    package var data: LayoutData
    /// One text per item in global order, or nil when heights are not measured from text
    /// (explicit data: the texts given, if any, with `cell` nil).
    package var texts: ItemTexts?
    package var cell: TemplateCell?
    /// For constraint-template rows: each item's template and detail text (`texts` holds the text).
    package var templated: TemplatedRows?

    package init(data: LayoutData, texts: ItemTexts? = nil, cell: TemplateCell? = nil, templated: TemplatedRows? = nil) {
        self.data = data
        self.texts = texts
        self.cell = cell
        self.templated = templated
    }
}

/// Rows measured by constraint templates: the templates they use, each item's template (an index
/// into `templates`) and each item's detail text.
package struct TemplatedRows: Hashable, Sendable {
    package var templates: [CellTemplate]
    package var kinds: [Int]
    package var details: ItemTexts
}
