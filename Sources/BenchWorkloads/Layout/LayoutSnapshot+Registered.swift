import LayoutEngine

extension LayoutSnapshot {
    /// A registered layout as it answers at a scroll offset: `elements` gives every element of a
    /// copy of the layout scrolled there, as UIKit scrolls it (`LayoutBoundsChange`), so a layout
    /// that pins its headers shows them pinned; the query is that copy's `elements(in:into:)`.
    init(layout: any CollectionLayout, viewport: Rect, elements: @escaping (any CollectionLayout, Rect) -> [LayoutAttributes]) {
        self.init(frames: LayoutFrames(), queryMode: .linear, viewport: viewport)
        registered = (layout.contentSize.height, { offset in
            var scrolled = layout
            let bounds = Rect(x: viewport.x, y: viewport.y + offset, width: viewport.width, height: viewport.height)
            // A layout whose prepare() throws here shows as it was at offset 0.
            if (try? LayoutBoundsChange.apply(to: &scrolled, bounds: bounds)) == nil { scrolled = layout }
            return (elements(scrolled, bounds), { [scrolled] rect in
                var results: [LayoutAttributes] = []
                scrolled.elements(in: rect, into: &results)
                return results
            })
        })
        styles = [SectionStyle()]  // nothing pins beyond what the layout itself reports
    }
}
