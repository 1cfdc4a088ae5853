/// `index-path`: heights by index path with O(1) lookups (NaN = not cached) that follow batches
/// with UIKit's semantics: the arrays of the sections a batch touches are edited in one pass each
/// (removals, then insertions; moved heights travel with their rows), sections are reordered as
/// the plan says. A batch costs O(sections + the rows after the first change of each changed
/// section); a width change forgets everything.
public struct IndexPathHeightCache: HeightCache, UnsharedCopying {
    private var heights: [[Double]] = []

    public init() {}

    @usableFromInline package func unsharedCopy() -> IndexPathHeightCache {
        var copy = self
        copy.heights = heights.unsharedRows()
        return copy
    }

    public mutating func cachedHeight(id: Int, at path: ItemPath) -> Double? {
        let height = heights[path.section][path.item]
        return height.isNaN ? nil : height
    }

    public func peekHeight(id: Int, at path: ItemPath) -> Double? {
        let height = heights[path.section][path.item]
        return height.isNaN ? nil : height
    }

    public mutating func store(_ height: Double, id: Int, at path: ItemPath) {
        heights[path.section][path.item] = height
    }

    public mutating func apply(_ batch: BatchUpdate, plan: BatchPlan) {
        plan.apply(
            to: &heights,
            section: { [Double](repeating: .nan, count: plan.sectionItems[$0].count) },
            item: { _ in .nan }, reload: { height, _ in height = .nan })
    }

    public mutating func widthChanged(to width: Double) {
        for s in heights.indices {
            heights[s].withUnsafeMutableBufferPointer { $0.update(repeating: .nan) }
        }
    }

    public mutating func removeAll(sectionCounts: [Int]) {
        heights = sectionCounts.map { [Double](repeating: .nan, count: $0) }
    }
}
