/// What a layout says about one element, as `UICollectionViewLayoutAttributes` does:
/// where it is, how it stacks, and whether it is pinned away from its natural place.
public struct LayoutAttributes: Hashable, Sendable {
    public var id: ElementID
    public var frame: Rect
    /// Higher draws above. Decorations are below items; headers and footers above them.
    public var zIndex: Int
    /// True when a sticky header or footer sits away from its natural frame.
    public var isPinned: Bool

    @inlinable
    public init(id: ElementID, frame: Rect, zIndex: Int = 0, isPinned: Bool = false) {
        self.id = id
        self.frame = frame
        self.zIndex = zIndex
        self.isPinned = isPinned
    }
}
