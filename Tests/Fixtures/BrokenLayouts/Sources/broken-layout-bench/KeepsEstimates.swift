import CustomLayouts
import LayoutBenchCLI

/// UIKit's default answer to self-sizing cells: preferred attributes never invalidate it, so every
/// item keeps its estimate: `layout-self-sizing` must catch it.
struct KeepsEstimates: Wrapped {
    var base: CHTWaterfallLayout

    func shouldInvalidateLayout(forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes) -> Bool {
        false
    }
}
