import CustomLayouts
import LayoutBenchCLI

/// Drops the item moves of every batch it is sent (section moves and every other change still
/// reach the layout), so that after a `move` its frames are those of the data before the move:
/// `layout-edit`'s verification, which compares the layout after each batch with a fresh layout of
/// the data, must name the layout, the workload, the batch and the element that differs.
struct IgnoresMoves: Wrapped {
    var base: CHTWaterfallLayout

    mutating func prepare(forCollectionViewUpdates updates: [LayoutChange]) {
        base.prepare(forCollectionViewUpdates: updates.filter {
            if case .moveItem = $0 { return false }
            return true
        })
    }
}
