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
