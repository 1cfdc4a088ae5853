/// A problem with the input of a layout, reported instead of crashing or laying out silently wrong.
///
/// `field` names what was wrong in the terms of the scenario files (for example
/// `sections[2].insets.left` or `items[17].height`), so the harness can print one clear message.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A size or spacing that is negative, NaN or infinite.
        case invalidValue(Double)
        /// A count that is negative or otherwise impossible.
        case invalidCount(Int)
        /// The content width leaves no room for items once the insets are taken.
        case widthSmallerThanInsets(width: Double, insets: Double)
        /// An element that the layout does not have.
        case noSuchElement(ElementID)
        /// Anything else, said in words.
        case other(String)
    }

    public var field: String
    public var reason: Reason

    public init(field: String, reason: Reason) {
        self.field = field
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .invalidValue(let value):
            return "\(field): \(value) is not allowed (expected a finite number >= 0)"
        case .invalidCount(let count):
            return "\(field): \(count) is not a valid count"
        case .widthSmallerThanInsets(let width, let insets):
            return "\(field): the width \(width) must be larger than the horizontal insets \(insets)"
        case .noSuchElement(let id):
            return "\(field): the layout has no element \(id)"
        case .other(let message):
            return "\(field): \(message)"
        }
    }

    /// Throws unless `value` is finite and not negative.
    @inlinable
    public static func checkSize(_ value: Double, _ field: @autoclosure () -> String) throws(LayoutError) {
        guard value.isFinite, value >= 0 else {
            throw LayoutError(field: field(), reason: .invalidValue(value))
        }
    }
}
