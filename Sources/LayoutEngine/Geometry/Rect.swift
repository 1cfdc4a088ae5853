/// An axis-aligned rectangle in points, with `Double` coordinates (y grows downwards).
///
/// Intersection follows CoreGraphics' `CGRectIntersectsRect` with one deliberate choice made
/// explicit: rectangles are half-open, so two rectangles that only touch along an edge do
/// **not** intersect, and an empty rectangle (zero or negative width or height, or a size too
/// small to move its far edge: `y + height == y` in `Double`) intersects nothing. Every mode of
/// every workload uses this one convention.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }

    /// True when the rectangle has no area (a zero, negative or NaN side).
    @inlinable public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// Whether the two rectangles share a region of positive area.
    @inlinable
    public func intersects(_ other: Rect) -> Bool {
        Rect.intersects(
            minX: other.x, minY: other.y, maxX: other.x + other.width, maxY: other.y + other.height,
            withMinX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    /// The intersection test on raw edges, for hot loops that keep frames as flat arrays.
    /// Both rectangles must have positive width and height to intersect.
    @inlinable @inline(__always)
    public static func intersects(
        minX aMinX: Double, minY aMinY: Double, maxX aMaxX: Double, maxY aMaxY: Double,
        withMinX bMinX: Double, minY bMinY: Double, maxX bMaxX: Double, maxY bMaxY: Double
    ) -> Bool {
        aMinX < aMaxX && aMinY < aMaxY && bMinX < bMaxX && bMinY < bMaxY
            && aMinX < bMaxX && bMinX < aMaxX && aMinY < bMaxY && bMinY < aMaxY
    }

    /// Whether the point lies inside the half-open rectangle.
    @inlinable
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double

    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}
