/// The height cache strategies of the `height-pass` workload (docs/modes.md), by their CSV `mode` name.
public enum HeightCacheMode: String, CaseIterable, Sendable {
    case none
    case fdIndexPath = "fd-index-path"
    case indexPath = "index-path"
    case keyed
    case widthKeyed = "width-keyed"

    /// Whether the mode returns a fresh measurement's height for every row after any change.
    public var isExact: Bool { self != .fdIndexPath }

    /// Hands `builder` the mode's cache constructor, for a table of about `expectedItems` rows laid
    /// out first at `portraitWidth` (FD's cache keeps two orientations, told apart by that width).
    ///
    /// The factory of this family, in the shape every mode family's has (`make(...)`), but through
    /// a builder: `HeightTable` is generic over its cache, so the caller's code is specialized for
    /// each cache type rather than handed an existential. Inlinable, so that the caller's module
    /// sees which builder gets which cache and specializes its code for each: called through an
    /// unspecialized factory, the builder ran `HeightTable` through witness tables, and the
    /// height-pass workload's fast operations took twice to five times as long.
    @inlinable
    package func make<Builder: HeightCacheBuilder>(
        expectedItems: Int, portraitWidth: Double, _ builder: Builder
    ) throws -> Builder.Built {
        switch self {
        case .none: return try builder.build { NoHeightCache() }
        case .fdIndexPath: return try builder.build { FDIndexPathHeightCache(portraitWidth: portraitWidth) }
        case .indexPath: return try builder.build { IndexPathHeightCache() }
        case .keyed: return try builder.build { KeyedHeightCache(expectedItems: expectedItems) }
        case .widthKeyed: return try builder.build { WidthKeyedHeightCache(expectedItems: expectedItems) }
        }
    }
}

/// What builds something on a height cache of a mode chosen at run time (`HeightCacheMode.make`):
/// it is handed the constructor of a new, empty cache of the mode's concrete type (which can also
/// make unshared copies, for the preparation of runs that consume a prepared table).
@usableFromInline
package protocol HeightCacheBuilder {
    associatedtype Built
    func build<Cache: HeightCache & UnsharedCopying>(_ makeCache: @escaping () -> Cache) throws -> Built
}
