/// What an element of a layout is, as UICollectionView distinguishes cells, supplementary views
/// and decoration views.
public enum ElementKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case item = 0
    case header = 1
    case footer = 2
    /// The section background, spanning the whole section below everything else.
    case decoration = 3

    /// The name used in CSV output and scenario files.
    public var name: String {
        switch self {
        case .item: return "item"
        case .header: return "header"
        case .footer: return "footer"
        case .decoration: return "decoration"
        }
    }

    public var description: String { name }
}
