import LayoutEngine

/// Broken on purpose: `base` with UIKit's default answer to self-sizing cells, so every item keeps
/// its estimate after its preferred attributes (the `cht-waterfall-keeps-estimates` strategy, for
/// the test that `layout-self-sizing` catches a layout that ignores them). Everything else is
/// `base`'s.
struct KeepsEstimates<Base: CollectionLayout>: CollectionLayout {
    var base: Base

    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }
    mutating func invalidate(with context: InvalidationContext) { base.invalidate(with: context) }
    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) { base.prepare(forCollectionViewUpdates: updates) }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { base.shouldInvalidate(forBoundsChange: newBounds) }
    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext { base.invalidationContext(forBoundsChange: newBounds) }
    func elements(in rect: Rect, into results: inout [LayoutAttributes]) { base.elements(in: rect, into: &results) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }

    /// The bug: the preferred size is never taken.
    func shouldInvalidateLayout(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes
    ) -> Bool {
        false
    }
}
