import LayoutBenchCLI

/// Broken on purpose: a layout that drops the item moves of every batch it is sent (sections
/// moves and every other change still reach the layout it wraps), so that after a `move` its
/// frames are those of the data before the move. The test that a batch's move applied wrongly is
/// caught (scripts/test-examples): `layout-edit`'s verification compares the layout after each
/// batch with a fresh layout of the data, and names the layout, the workload, the batch and the
/// element that differs.
struct IgnoresMoves<Base: CollectionLayout>: CollectionLayout {
    var base: Base

    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }
    mutating func invalidate(with context: InvalidationContext) { base.invalidate(with: context) }

    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {
        base.prepare(forCollectionViewUpdates: updates.filter {
            if case .moveItem = $0 { return false }
            return true
        })
    }

    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { base.shouldInvalidate(forBoundsChange: newBounds) }
    func invalidationContext(forBoundsChange newBounds: Rect) -> InvalidationContext {
        base.invalidationContext(forBoundsChange: newBounds)
    }
    func elements(in rect: Rect, into results: inout [LayoutAttributes]) { base.elements(in: rect, into: &results) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }
}
