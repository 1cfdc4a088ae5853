/// The height cache strategies of the `height-pass` workload (docs/modes.md), by their CSV `mode` name.
public enum HeightCacheMode: String, CaseIterable, Sendable {
    case none
    case fdIndexPath = "fd-index-path"
    case indexPath = "index-path"
    case keyed
    case widthKeyed = "width-keyed"

    /// Whether the mode returns a fresh measurement's height for every row after any change.
    public var isExact: Bool { self != .fdIndexPath }
}
