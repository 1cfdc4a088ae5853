import CustomLayouts
import CustomLayoutKinds
import LayoutBenchCLI

/// A broken-on-purpose layout: the example's CHTWaterfallLayout, `base`, with every requirement
/// of `CollectionLayout` forwarded to it; a conforming type overrides only what it breaks.
protocol Wrapped: CollectionLayout {
    var base: CHTWaterfallLayout { get set }
}

extension Wrapped {
    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }
    mutating func invalidate(with context: InvalidationContext) { base.invalidate(with: context) }
    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) { base.prepare(forCollectionViewUpdates: updates) }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { base.shouldInvalidate(forBoundsChange: newBounds) }
    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext { base.invalidationContext(forBoundsChange: newBounds) }
    func elements(in rect: Rect, into results: inout [LayoutAttributes]) { base.elements(in: rect, into: &results) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }
    func shouldInvalidateLayout(forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes) -> Bool {
        base.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original)
    }
    func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes, visibleBounds bounds: Rect
    ) -> InvalidationContext {
        base.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
    }
}

/// The registration of a broken strategy of `cht-waterfall`: its name, what it breaks, and the
/// wrapper's initializer (`init(base:)`).
func broken<Layout: Wrapped>(_ name: String, _ about: String, _ make: @escaping @Sendable (CHTWaterfallLayout) -> Layout) -> CustomLayoutKinds.AddedStrategy {
    CustomLayoutKinds.AddedStrategy(
        LayoutStrategy(name: name, about: "broken on purpose: " + about, reproduces: "a fault planted for a test", bytesPerItem: 400),
        make: make)
}
