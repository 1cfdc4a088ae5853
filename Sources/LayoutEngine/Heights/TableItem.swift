/// One row of a table's data, lpd-tableview-kit's item view model: a stable id (the key of the
/// keyed caches and of index lookups), the reuse identifier of the template that measures it,
/// its content, and optionally a height the app already knows (lpd's `height`), which is then
/// returned without measuring.
public struct TableItem: Hashable, Sendable {
    public var id: Int
    public var reuseIdentifier: ReuseIdentifier
    public var content: RowContent
    public var knownHeight: Double?

    public init(id: Int, reuseIdentifier: ReuseIdentifier, content: RowContent, knownHeight: Double? = nil) {
        self.id = id
        self.reuseIdentifier = reuseIdentifier
        self.content = content
        self.knownHeight = knownHeight
    }
}
