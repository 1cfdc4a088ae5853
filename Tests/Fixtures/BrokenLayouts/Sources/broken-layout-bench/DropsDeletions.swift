import CustomLayouts
import LayoutBenchCLI

/// A batch's deletions are ignored: `batch-equals-fresh` must catch the layout that still shows them.
struct DropsDeletions: Wrapped {
    var base: CHTWaterfallLayout

    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {
        base.prepare(forCollectionViewUpdates: updates.filter {
            if case .removeItems = $0 { return false }
            return true
        })
    }
}
