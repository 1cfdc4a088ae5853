import LayoutEngine

/// When a coordinate computed by the engine counts as equal to the reference's: within 1e-9 pt
/// (docs/methodology.md), or — where a `Double` cannot resolve 1e-9, above about 8.4M pt — within 8 units
/// in the last place of the larger magnitude. Faster modes add the same numbers in another order
/// (a suffix shifted by δ instead of re-summed), which can round differently by an ulp at 60M pt.
/// Every check of a computed coordinate, in the harness and the tests, uses this rule.
public enum ReferenceTolerance {
    /// The absolute tolerance in points.
    public static let absolute = 1e-9
    /// Units in the last place allowed where `absolute` is finer than a `Double` resolves.
    public static let ulps = 8.0

    public static func equal(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }  // also equal infinities
        let scale = max(a.magnitude.ulp, b.magnitude.ulp)
        return (a - b).magnitude <= max(absolute, ulps * scale)
    }

    /// Inlined, with identical rectangles decided first (each coordinate equal, as the first
    /// test of `equal(_:_:)` on `Double`): it runs on every item of every whole check.
    @inline(__always)
    public static func equal(_ a: Rect, _ b: Rect) -> Bool {
        if a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height { return true }
        return equal(a.x, b.x) && equal(a.y, b.y) && equal(a.width, b.width) && equal(a.height, b.height)
    }
}
