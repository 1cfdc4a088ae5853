import CustomLayouts
import LayoutBenchCLI

/// `shouldInvalidate(forBoundsChange:)` says no to every bounds change, a width change too, so
/// UIKit (and the harness) never invalidates it on a rotation or a window resize and it keeps the
/// frames of the width it was built at: `layout-resize` must catch it.
struct IgnoresWidthChanges: Wrapped {
    var base: CHTWaterfallLayout

    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { false }
}
