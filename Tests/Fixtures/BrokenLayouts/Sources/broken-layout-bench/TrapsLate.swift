import CustomLayouts
import LayoutBenchCLI

/// The first `prepare()` of a layout traps once 29 layouts have been prepared in the process: late
/// enough to pass verification and trap while the harness samples (`layout-prepare`'s `prepare`
/// prepares a fresh layout each sample).
struct TrapsLate: Wrapped {
    var base: CHTWaterfallLayout
    private var prepared = false
    nonisolated(unsafe) private static var preparesInProcess = 0

    init(base: CHTWaterfallLayout) { self.base = base }

    mutating func prepare() throws {
        if !prepared {
            prepared = true
            Self.preparesInProcess += 1
            precondition(Self.preparesInProcess < 30, "TrapsLate: the process's 30th prepare traps on purpose")
        }
        try base.prepare()
    }
}
