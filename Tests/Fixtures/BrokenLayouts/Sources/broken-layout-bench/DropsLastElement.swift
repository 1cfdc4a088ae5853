import CustomLayouts
import LayoutBenchCLI

/// The rect query drops the last element of each answer: verification must catch it.
struct DropsLastElement: Wrapped {
    var base: CHTWaterfallLayout

    func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        base.elements(in: rect, into: &results)
        if !results.isEmpty { results.removeLast() }
    }
}
