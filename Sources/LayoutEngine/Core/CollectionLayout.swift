/// What changed, passed to `CollectionLayout.invalidate(with:)`, modelled on
/// `UICollectionViewLayoutInvalidationContext`.
public struct InvalidationContext: Hashable, Sendable {
    /// Everything must be recomputed (a new layout, a new data source, `reloadData`).
    public var invalidateEverything: Bool
    /// Items were inserted, deleted or resized (`invalidateDataSourceCounts`).
    public var invalidateDataSourceCounts: Bool
    /// The visible bounds changed (scrolling or resizing); nil when they did not.
    public var newBounds: Rect?
    public init(invalidateEverything: Bool = false, invalidateDataSourceCounts: Bool = false, newBounds: Rect? = nil) {
        self.invalidateEverything = invalidateEverything
        self.invalidateDataSourceCounts = invalidateDataSourceCounts
        self.newBounds = newBounds
    }

    public static let everything = InvalidationContext(invalidateEverything: true)
    public static let dataSourceCounts = InvalidationContext(invalidateDataSourceCounts: true)
    public static func bounds(_ newBounds: Rect) -> InvalidationContext { InvalidationContext(newBounds: newBounds) }
}

/// A layout with the lifecycle of `UICollectionViewLayout`, so that a layout written for the
/// benchmark reads like one written for UIKit, and the harness can measure any layout the
/// same way: invalidate, prepare, then ask for the elements in a rect.
///
/// Conform to benchmark your own layout (see the README for a short example).
public protocol CollectionLayout {
    /// The size of the whole scrollable content after the last `prepare()`.
    var contentSize: Size { get }

    /// Computes whatever the last invalidation made stale. Called before any query.
    mutating func prepare() throws

    /// Records what changed; the work happens in the next `prepare()`.
    mutating func invalidate(with context: InvalidationContext)

    /// Records a batch of updates, in order — items inserted, deleted and resized, sections
    /// inserted and removed — as UIKit's `prepare(forCollectionViewUpdates:)` receives them, after
    /// `invalidate(with: .dataSourceCounts)`. A layout keeps its own copy of the data, so the batch
    /// carries the new items' sizes: the layout applies each change (`LayoutChange.apply(to:)`)
    /// and brings its frames up to date in the next `prepare()`. Only a layout kind that declares
    /// the batch workloads (`layout-append`, `layout-edit`) is sent one; the default ignores it.
    ///
    /// A method of its own rather than a field of `InvalidationContext`: the context of every
    /// scroll step stays a plain value, copied without reference counting.
    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange])

    /// Whether scrolling or resizing to `newBounds` requires a new `prepare()` (true for a width
    /// change, or on every scroll when something is pinned).
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool

    /// What `invalidate(with:)` receives when `shouldInvalidate(forBoundsChange:)` said yes, as
    /// UIKit's `invalidationContext(forBoundsChange:)`. A requirement (with a default that carries
    /// only the bounds), so that a layout that returns its own context gets it when driven through
    /// `any CollectionLayout` (the generic `layout-sticky-scroll` and `layout-reuse-scroll`).
    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext

    /// Replaces the contents of `results` with every element whose frame intersects `rect`,
    /// each once, in no particular order. Must not allocate once `results` has enough capacity.
    func elements(in rect: Rect, into results: inout [LayoutAttributes])

    /// The attributes of one element; throws `LayoutError` when there is no such element.
    func attributes(for element: ElementID) throws -> LayoutAttributes
}

extension CollectionLayout {
    /// A layout that takes no batches ignores them.
    public mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {}

    /// The context for a bounds change: only the bounds, by default.
    public func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext {
        .bounds(newBounds)
    }
}
