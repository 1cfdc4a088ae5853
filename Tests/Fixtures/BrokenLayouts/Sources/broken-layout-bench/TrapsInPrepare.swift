import CustomLayouts
import LayoutBenchCLI

/// `prepare()` traps, ending its process: the run must fail the mode cleanly and keep the others.
struct TrapsInPrepare: Wrapped {
    var base: CHTWaterfallLayout

    mutating func prepare() throws {
        // A precondition, as a layout's own checks trap: its one line says "Precondition failed".
        let traps = true
        precondition(!traps, "TrapsInPrepare: prepare() traps on purpose")
        try base.prepare()
    }
}
