import CustomLayoutKinds
import LayoutBenchCLI

// The example's kinds, with the broken strategies beside `cht-waterfall`: one line each (README.md).
LayoutBenchCLI.main(layouts: [
    CustomLayoutKinds.squareGrid,
    CustomLayoutKinds.chtWaterfall(adding: [
        broken("cht-waterfall-broken", "its rect query drops the last element of each answer (the verification test)", DropsLastElement.init),
        broken("cht-waterfall-traps", "prepare() traps, ending its process (the test of a crashing layout)", TrapsInPrepare.init),
        broken("cht-waterfall-traps-late",
               "prepare() traps from the process's 30th prepare on, while sampling (the test of a crash among modes sampled together)",
               TrapsLate.init),
        broken("cht-waterfall-loops", "prepare() never returns (the test that a layout looping forever is stopped)", LoopsInPrepare.init),
        broken("cht-waterfall-drops-deletions", "a batch's deletions are ignored (the test that a batch applied wrongly is caught)",
               DropsDeletions.init),
        broken("cht-waterfall-ignores-width", "its shouldInvalidate ignores width changes (the test that layout-resize catches it)",
               IgnoresWidthChanges.init),
        broken("cht-waterfall-ignores-moves", "a batch's item moves are dropped (the test that a move applied wrongly is caught)",
               IgnoresMoves.init),
        broken("cht-waterfall-keeps-estimates", "preferred attributes never invalidate it, so items keep their estimates (the test that self-sizing is checked)",
               KeepsEstimates.init),
        broken("cht-waterfall-wrong-size-adjustment",
               "its preferred-attributes contexts adjust the content size by each item's height change (the test that contentSizeAdjustment is checked)",
               AdjustsContentSizeByItem.init),
    ]),
])
