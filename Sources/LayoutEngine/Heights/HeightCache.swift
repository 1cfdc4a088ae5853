/// One strategy for remembering row heights between passes (the modes of `height-pass`).
///
/// `HeightTable` asks `cachedHeight` first and measures only on a miss, then calls `store`. It
/// tells the cache about every accepted batch, width change and `reloadData`. A cache must give
/// back exactly what a fresh measurement gives, except `FDIndexPathHeightCache`, which reproduces
/// FDTemplateLayoutCell's known bugs on purpose.
public protocol HeightCache {
    /// The cached height of the row at `path` with id `id` at the current width, or nil.
    /// Mutating because FD's cache builds its arrays on every lookup.
    mutating func cachedHeight(id: Int, at path: ItemPath) -> Double?
    /// What `cachedHeight` would return, without its side effects (for verification).
    func peekHeight(id: Int, at path: ItemPath) -> Double?
    /// Remembers a height just measured.
    mutating func store(_ height: Double, id: Int, at path: ItemPath)
    /// Follows a batch the model accepted (`plan` is `batch` checked and in UIKit's order).
    mutating func apply(_ batch: BatchUpdate, plan: BatchPlan)
    /// The table's width changed (rotation, split screen).
    mutating func widthChanged(to width: Double)
    /// `reloadData`: forget everything; the table now has sections of these item counts.
    mutating func removeAll(sectionCounts: [Int])
}

/// `none`: no cache; every row is measured on every pass.
public struct NoHeightCache: HeightCache, UnsharedCopying {
    public init() {}
    @usableFromInline package func unsharedCopy() -> NoHeightCache { self }
    @inlinable public mutating func cachedHeight(id: Int, at path: ItemPath) -> Double? { nil }
    public func peekHeight(id: Int, at path: ItemPath) -> Double? { nil }
    @inlinable public mutating func store(_ height: Double, id: Int, at path: ItemPath) {}
    public mutating func apply(_ batch: BatchUpdate, plan: BatchPlan) {}
    public mutating func widthChanged(to width: Double) {}
    public mutating func removeAll(sectionCounts: [Int]) {}
}
