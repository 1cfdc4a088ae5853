/// What changed, passed to `CollectionLayout.invalidate(with:)`, modelled on
/// `UICollectionViewLayoutInvalidationContext`.
public struct InvalidationContext: Hashable, Sendable {
    /// Everything must be recomputed (a new layout, a new data source, `reloadData`).
    public var invalidateEverything: Bool
    /// Items were inserted, deleted or resized (`invalidateDataSourceCounts`).
    public var invalidateDataSourceCounts: Bool
    /// The visible bounds changed (scrolling or resizing); nil when they did not.
    public var newBounds: Rect?
    /// The item whose preferred attributes invalidated the layout, and its preferred size
    /// (`invalidatedItemIndexPaths` of UIKit's context for preferred attributes, which names that
    /// one item); nil for every other invalidation. One value rather than an array, so that the
    /// context stays a plain value, copied without reference counting.
    public var invalidatedItem: PreferredSize?
    /// How far the collection view moves its content offset when it applies this invalidation
    /// (UIKit's `contentOffsetAdjustment`: a layout keeps what the user sees by moving the offset
    /// by the height an item above the viewport gained). Zero by default: the content jumps.
    public var contentOffsetAdjustment: Point
    /// How much the content size changes with this invalidation, as far as the layout knows
    /// before its next `prepare()` (UIKit's `contentSizeAdjustment`). Zero by default.
    public var contentSizeAdjustment: Size

    public init(
        invalidateEverything: Bool = false, invalidateDataSourceCounts: Bool = false, newBounds: Rect? = nil,
        invalidatedItem: PreferredSize? = nil, contentOffsetAdjustment: Point = .zero, contentSizeAdjustment: Size = .zero
    ) {
        self.invalidateEverything = invalidateEverything
        self.invalidateDataSourceCounts = invalidateDataSourceCounts
        self.newBounds = newBounds
        self.invalidatedItem = invalidatedItem
        self.contentOffsetAdjustment = contentOffsetAdjustment
        self.contentSizeAdjustment = contentSizeAdjustment
    }

    public static let everything = InvalidationContext(invalidateEverything: true)
    public static let dataSourceCounts = InvalidationContext(invalidateDataSourceCounts: true)
    public static func bounds(_ newBounds: Rect) -> InvalidationContext { InvalidationContext(newBounds: newBounds) }
}

/// An item and the size its self-sizing cell reported (`preferredLayoutAttributesFitting(_:)`),
/// carried by the `InvalidationContext` of preferred attributes.
public struct PreferredSize: Hashable, Sendable {
    public var item: ElementID
    public var size: Size

    public init(item: ElementID, size: Size) {
        self.item = item
        self.size = size
    }
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

    /// Whether the size a self-sizing cell reports for an element (`preferred`, the `original`
    /// attributes with the cell's fitted size) requires a new `prepare()`, as UIKit's
    /// `shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)`. The
    /// default, as `UICollectionViewLayout`'s, is false: the element keeps the layout's estimate.
    func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes) -> Bool

    /// What `invalidate(with:)` receives when `shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)`
    /// said yes, as UIKit's `invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:)`:
    /// the item and its preferred size, and the `contentOffsetAdjustment` and
    /// `contentSizeAdjustment` the collection view applies. The default, as `UICollectionViewLayout`'s
    /// (a context of its `invalidationContextClass` with nothing adjusted), names the item and
    /// adjusts nothing. `bounds` are the collection view's bounds at that moment, which a UIKit
    /// layout reads from its `collectionView` (a `CollectionLayout` has none, and is told of a
    /// scroll only when `shouldInvalidate(forBoundsChange:)` says yes). A requirement, so that a layout's own answer is the one the generic
    /// `layout-self-sizing` gets through `any CollectionLayout`.
    func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes,
        visibleBounds bounds: Rect) -> InvalidationContext

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

    /// `UICollectionViewLayout`'s default: preferred attributes never invalidate the layout.
    public func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes
    ) -> Bool {
        false
    }

    /// `UICollectionViewLayout`'s default: a context naming the item, with no adjustment.
    public func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes,
        visibleBounds bounds: Rect
    ) -> InvalidationContext {
        InvalidationContext(invalidatedItem: PreferredSize(item: original.id, size: Size(width: preferred.frame.width, height: preferred.frame.height)))
    }
}
