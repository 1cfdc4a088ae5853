import LayoutEngine

/// One element of a `ReferenceLayout`: its identity and its natural frame.
public struct ReferenceElement: Hashable, Sendable, CustomStringConvertible {
    public var id: ElementID
    public var frame: Rect

    public init(id: ElementID, frame: Rect) {
        self.id = id
        self.frame = frame
    }

    public var description: String { "\(id) \(frame)" }
}
