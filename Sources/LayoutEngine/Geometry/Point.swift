/// A point, or a displacement of one (`InvalidationContext.contentOffsetAdjustment`, as UIKit's
/// `CGPoint`).
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// Both coordinates finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}
