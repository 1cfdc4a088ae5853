/// `fd-index-path`: FDTemplateLayoutCell's `FDIndexPathHeightCache` as shipped (1.6), bugs and
/// costs included, so that the benchmark shows them.
///
/// - Two tables of per-section arrays, one for portrait and one for landscape, with -1 for
///   "not cached". The orientation stands in for `UIDevice.orientation`: portrait while the
///   width is at most `portraitWidth`, so a split-screen resize that keeps the orientation
///   reads stale heights (FD #392).
/// - Every lookup (`existsHeightAtIndexPath:`, `heightForIndexPath:`, `cacheHeight:`) first runs
///   `buildSectionsIfNeeded` and `buildRowsIfNeeded`: loops from 0 to the section and to the row,
///   for both tables. A hit costs two such builds, so a full pass over n rows costs ~2n² steps.
/// - Batch calls are applied one at a time, in the order the app made them (FD swizzles each
///   UITableView method), not in UIKit's order, and:
///   - `deleteSections:` removes the sections one at a time in ascending order, so after the
///     first removal the later indices name the wrong sections (FD #416, #54);
///   - `moveSection:toSection:` and `moveRowAtIndexPath:toIndexPath:` swap the two slots
///     instead of removing and inserting, so every row between them keeps a neighbour's height
///     (FD #193, #304).
///   Inserts add -1 slots, reloads set -1, row deletes use `removeObjectsAtIndexes:` (correct).
/// - Nothing is invalidated before the first height is cached (`automaticallyInvalidateEnabled`).
public struct FDIndexPathHeightCache: HeightCache, UnsharedCopying {
    public var portraitWidth: Double
    private var portrait: [[Double]] = []
    private var landscape: [[Double]] = []
    private var isPortrait = true
    private var automaticallyInvalidateEnabled = false

    public init(portraitWidth: Double) { self.portraitWidth = portraitWidth }

    @usableFromInline package func unsharedCopy() -> FDIndexPathHeightCache {
        var copy = self
        copy.portrait = portrait.unsharedRows()
        copy.landscape = landscape.unsharedRows()
        return copy
    }

    public mutating func cachedHeight(id: Int, at path: ItemPath) -> Double? {
        // fd_heightForCellWithIdentifier:cacheByIndexPath: — existsHeightAtIndexPath:, then heightForIndexPath:.
        buildCaches(at: path)
        let exists = (isPortrait ? portrait : landscape)[path.section][path.item] != -1
        guard exists else { return nil }
        buildCaches(at: path)
        return (isPortrait ? portrait : landscape)[path.section][path.item]
    }

    /// The stored height (no build loops); nil where a lookup would measure.
    public func peekHeight(id: Int, at path: ItemPath) -> Double? {
        let table = isPortrait ? portrait : landscape
        guard path.section < table.count, path.item < table[path.section].count else { return nil }
        let height = table[path.section][path.item]
        return height == -1 ? nil : height
    }

    public mutating func store(_ height: Double, id: Int, at path: ItemPath) {
        automaticallyInvalidateEnabled = true
        buildCaches(at: path)
        if isPortrait { portrait[path.section][path.item] = height } else { landscape[path.section][path.item] = height }
    }

    public mutating func widthChanged(to width: Double) { isPortrait = width <= portraitWidth }

    public mutating func removeAll(sectionCounts: [Int]) {
        // fd_reloadData
        if automaticallyInvalidateEnabled {
            portrait.removeAll()
            landscape.removeAll()
        }
    }

    public mutating func apply(_ batch: BatchUpdate, plan: BatchPlan) {
        guard automaticallyInvalidateEnabled else { return }
        for call in batch.calls {
            switch call {
            case .insertSections(let contents):
                for section in Self.indexSet(contents.map(\.index)) {
                    buildSections(section)
                    portrait.insert([], at: section)
                    landscape.insert([], at: section)
                }
            case .deleteSections(let sections):
                for section in Self.indexSet(sections) {
                    buildSections(section)
                    portrait.remove(at: section)
                    landscape.remove(at: section)
                }
            case .reloadSections(let contents):
                for section in Self.indexSet(contents.map(\.index)) {
                    buildSections(section)
                    portrait[section].removeAll()
                    landscape[section].removeAll()
                }
            case .moveSection(let from, let to):
                buildSections(from)
                buildSections(to)
                portrait.swapAt(from, to)
                landscape.swapAt(from, to)
            case .insertItems(let placed):
                for entry in placed { buildCaches(at: entry.path) }
                for entry in placed {
                    portrait[entry.path.section].insert(-1, at: entry.path.item)
                    landscape[entry.path.section].insert(-1, at: entry.path.item)
                }
            case .deleteItems(let paths):
                for path in paths { buildCaches(at: path) }
                // removeObjectsAtIndexes: per section.
                var bySection: [Int: Set<Int>] = [:]
                for path in paths { bySection[path.section, default: []].insert(path.item) }
                for (section, rows) in bySection {
                    for row in rows.sorted(by: >) {
                        portrait[section].remove(at: row)
                        landscape[section].remove(at: row)
                    }
                }
            case .reloadItems(let placed):
                for entry in placed { buildCaches(at: entry.path) }
                for entry in placed {
                    portrait[entry.path.section][entry.path.item] = -1
                    landscape[entry.path.section][entry.path.item] = -1
                }
            case .moveItem(let from, let to):
                buildCaches(at: from)
                buildCaches(at: to)
                for orientation in 0..<2 {
                    if orientation == 0 {
                        Self.swapRows(&portrait, from, to)
                    } else {
                        Self.swapRows(&landscape, from, to)
                    }
                }
            }
        }
    }

    /// `NSIndexSet` enumerates ascending and without repeats, whatever order the app gave.
    private static func indexSet(_ indices: [Int]) -> [Int] { Array(Set(indices)).sorted() }

    private static func swapRows(_ table: inout [[Double]], _ a: ItemPath, _ b: ItemPath) {
        let source = table[a.section][a.item]
        let destination = table[b.section][b.item]
        table[a.section][a.item] = destination
        table[b.section][b.item] = source
    }

    private mutating func buildCaches(at path: ItemPath) {
        buildSections(path.section)
        buildRows(path.item, inSection: path.section)
    }

    /// `buildSectionsIfNeeded:`: for both tables, every section up to the target.
    private mutating func buildSections(_ targetSection: Int) {
        Self.buildSections(targetSection, &portrait)
        Self.buildSections(targetSection, &landscape)
    }

    /// `buildRowsIfNeeded:inExistSection:`: for both tables, a loop over rows 0...target.
    private mutating func buildRows(_ targetRow: Int, inSection section: Int) {
        Self.buildRows(targetRow, &portrait[section])
        Self.buildRows(targetRow, &landscape[section])
    }

    @inline(never)
    private static func buildSections(_ targetSection: Int, _ table: inout [[Double]]) {
        var section = 0
        while section <= targetSection {
            if section >= table.count { table.append([]) }
            section += 1
        }
    }

    @inline(never)
    private static func buildRows(_ targetRow: Int, _ rows: inout [Double]) {
        var row = 0
        while row <= targetRow {
            if row >= rows.count { rows.append(-1) }
            row += 1
        }
    }
}
