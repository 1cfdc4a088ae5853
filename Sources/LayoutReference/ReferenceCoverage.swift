/// Which elements a `ReferenceCheck` compares one by one. The counts (sections, items per
/// section) and the content size are always compared in full.
public enum ReferenceCoverage: Hashable, Sendable {
    /// Every element of every section.
    case whole
    /// A deterministic sample (see `sampledSections(count:)` and `sampledItems(count:)`): the
    /// same elements for the same shape of data, run after run.
    case sample
    /// `whole` for layouts of at most `ReferenceCoverage.wholeLayoutItemLimit` items, `sample` above.
    case automatic

    /// The largest item count that `automatic` checks whole (300,000).
    public static let wholeLayoutItemLimit = 300_000

    /// Whether a layout of `itemCount` items is compared whole.
    public func isWhole(itemCount: Int) -> Bool {
        switch self {
        case .whole: return true
        case .sample: return false
        case .automatic: return itemCount <= Self.wholeLayoutItemLimit
        }
    }

    /// The sampled sections of a layout with `count` sections, ascending: all of them up to 64;
    /// above, the first 8, the last 8 and every k-th section in between, k = count / 48 (about
    /// 64 sections in all).
    public static func sampledSections(count: Int) -> [Int] {
        sample(count: count, keepAllUpTo: 64, ends: 8, middle: 48)
    }

    /// The sampled items of a sampled section with `count` items, ascending: all of them up to
    /// 4,096; above, the first 1,024, the last 1,024 and every k-th item in between,
    /// k = count / 2,048.
    public static func sampledItems(count: Int) -> [Int] {
        sample(count: count, keepAllUpTo: 4096, ends: 1024, middle: 2048)
    }

    private static func sample(count: Int, keepAllUpTo limit: Int, ends: Int, middle: Int) -> [Int] {
        if count <= limit { return Array(0..<count) }
        let step = count / middle
        var indices = Array(0..<ends)
        indices += stride(from: ends, to: count - ends, by: step)
        indices += (count - ends)..<count
        return indices
    }
}
