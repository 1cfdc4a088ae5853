import CustomLayouts
import LayoutBenchCLI

/// `prepare()` never returns: the run must stop the child after --stall-timeout.
struct LoopsInPrepare: Wrapped {
    var base: CHTWaterfallLayout
    nonisolated(unsafe) private static var spins = 0

    mutating func prepare() throws {
        while true { Self.spins &+= 1 }
    }
}
