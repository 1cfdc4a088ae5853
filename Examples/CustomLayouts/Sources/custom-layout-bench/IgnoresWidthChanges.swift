import LayoutBenchCLI

/// Broken on purpose, for the test that `layout-resize` catches a layout that ignores width
/// changes: any layout, whose `shouldInvalidate(forBoundsChange:)` answers as if the width had not
/// changed, so UIKit (and the harness) never invalidates it on a rotation or a window resize and it
/// keeps showing the frames of the width it was built at. Every other call goes to `base`.
struct IgnoresWidthChanges<Base: CollectionLayout>: CollectionLayout {
    var base: Base
    /// The width `base` was built at, the only one it ever hears of.
    let width: Double

    init(_ base: Base, width: Double) {
        self.base = base
        self.width = width
    }

    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }
    mutating func invalidate(with context: InvalidationContext) { base.invalidate(with: context) }
    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) { base.prepare(forCollectionViewUpdates: updates) }

    /// The bug: the new bounds are judged at the old width.
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool {
        base.shouldInvalidate(forBoundsChange: Rect(x: newBounds.x, y: newBounds.y, width: width, height: newBounds.height))
    }

    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext { base.invalidationContext(forBoundsChange: newBounds) }
    func elements(in rect: Rect, into results: inout [LayoutAttributes]) { base.elements(in: rect, into: &results) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }
}
