/// Space around a section's items region, as UIEdgeInsets.
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()

    public var horizontal: Double { left + right }
    public var vertical: Double { top + bottom }
}
