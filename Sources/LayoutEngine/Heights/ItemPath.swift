/// The position of a row: its section and its index in that section (UIKit's `NSIndexPath`).
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (a: ItemPath, b: ItemPath) -> Bool {
        a.section != b.section ? a.section < b.section : a.item < b.item
    }

    public var description: String { "[\(section), \(item)]" }
}

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
