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

    public init(data: LayoutData, texts: ItemTexts? = nil, cell: TemplateCell? = nil) {
        self.data = data
        self.texts = texts
        self.cell = cell
    }
}
