import CustomLayouts
import LayoutBenchCLI

/// A list's rule in a waterfall: each preferred size's context reports the item's height change as
/// `contentSizeAdjustment`, but in a waterfall the content grows by its tallest column's change
/// only: `layout-self-sizing` must catch the adjustment that is not the real change.
struct AdjustsContentSizeByItem: Wrapped {
    var base: CHTWaterfallLayout

    func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes, visibleBounds bounds: Rect
    ) -> InvalidationContext {
        var context = base.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
        context.contentSizeAdjustment.height = preferred.frame.height - original.frame.height
        return context
    }
}
