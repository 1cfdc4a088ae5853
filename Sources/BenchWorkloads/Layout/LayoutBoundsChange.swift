import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// A bounds change as UIKit makes it: `shouldInvalidate(forBoundsChange:)`; when it says yes,
/// `invalidationContext(forBoundsChange:)`, `invalidate(with:)` that context and `prepare()`. The
/// scroll workloads' steps, and `dump`/`render --offset` of a registered layout.
enum LayoutBoundsChange {
    static func apply<Layout: CollectionLayout>(to layout: inout Layout, bounds: Rect) throws {
        if layout.shouldInvalidate(forBoundsChange: bounds) {
            layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
            try layout.prepare()
        }
    }
}
