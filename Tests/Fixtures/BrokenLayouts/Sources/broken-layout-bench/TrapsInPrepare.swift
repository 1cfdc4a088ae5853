import CustomLayouts
import LayoutBenchCLI

/// `prepare()` traps, ending its process: the run must fail the mode cleanly and keep the others.
struct TrapsInPrepare: Wrapped {
    var base: CHTWaterfallLayout

    mutating func prepare() throws { preconditionFailure("TrapsInPrepare: prepare() traps on purpose") }
}
