/// The identity of one element: its kind, its section and its index in the section.
///
/// Headers, footers and decorations have index 0. Items are numbered from 0 in each section,
/// like `IndexPath(item:section:)`.
public struct ElementID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var kind: ElementKind
    public var section: Int
    public var index: Int

    @inlinable
    public init(kind: ElementKind, section: Int, index: Int) {
        self.kind = kind
        self.section = section
        self.index = index
    }

    @inlinable public static func item(_ index: Int, section: Int) -> ElementID {
        ElementID(kind: .item, section: section, index: index)
    }
    @inlinable public static func header(section: Int) -> ElementID {
        ElementID(kind: .header, section: section, index: 0)
    }
    @inlinable public static func footer(section: Int) -> ElementID {
        ElementID(kind: .footer, section: section, index: 0)
    }
    @inlinable public static func decoration(section: Int) -> ElementID {
        ElementID(kind: .decoration, section: section, index: 0)
    }

    /// Sections first, then kind, then index: a stable order for sorted output.
    public static func < (lhs: ElementID, rhs: ElementID) -> Bool {
        if lhs.section != rhs.section { return lhs.section < rhs.section }
        if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
        return lhs.index < rhs.index
    }

    public var description: String { "\(kind.name)[\(section),\(index)]" }
}
