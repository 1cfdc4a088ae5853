/// The item offsets of a list-only `SectionedLayout` kept in one `RowOffsets` structure per
/// section (`SectionedLayout.offsetsMode`), as UIKit-style estimated-offset layouts keep them
/// (UITableView's row-height table, TanStack Virtual's measurements cache): a self-sizing item's
/// measured height is one `setHeight` in its section's structure — rebuild O(n), suffix O(n − i),
/// fenwick and btree O(log n) — and item tops, the first item at an offset and the section's
/// height are read from the structure, not laid out again.
///
/// Row `i` of section `s` holds item `i`'s height plus the section's `lineSpacing`, so that
/// `offset(of: i)` is the item's top below the items region's top and `row(at:)` finds the first
/// item a rect can meet; the region's height is `contentHeight − lineSpacing` (0 when empty).
/// Only list sections can be kept so: a flow item's size change moves the line breaks after it, a
/// waterfall item's the column of every later item, which no prefix sum of one number per item
/// describes (docs/modes.md).
@usableFromInline
struct SectionRowOffsets {
    let mode: RowOffsetsMode
    /// One structure per section of the data.
    private(set) var sections: [any RowOffsets] = []
    /// The line spacing of each section, added to every row's height.
    private(set) var spacings: [Double] = []

    init(mode: RowOffsetsMode) {
        self.mode = mode
    }

    /// The structures of `frames`' item heights, built from scratch (after a full layout pass).
    mutating func rebuild(frames: LayoutFrames, styles: [SectionStyle]) {
        sections.removeAll(keepingCapacity: true)
        spacings.removeAll(keepingCapacity: true)
        for s in 0..<frames.sectionCount {
            let spacing = styles[s % styles.count].lineSpacing
            let rows = frames.itemRange(inSection: s).map { frames.itemHeight[$0] + spacing }
            // The heights are the frames' (finite, >= 0) plus a validated spacing: the build cannot throw.
            sections.append(try! mode.make(heights: rows, estimate: rows.first ?? 0))
            spacings.append(spacing)
        }
    }

    /// Item `row`'s top below its section's items region top.
    @inline(__always)
    func top(ofRow row: Int, section s: Int) -> Double { sections[s].offset(of: row) }

    /// The first row of section `s` whose item can reach below `y` (relative to the items
    /// region's top), one row early so that a top rounded an ulp away is not missed.
    @inline(__always)
    func firstRow(reaching y: Double, section s: Int) -> Int {
        let row = (try? sections[s].row(at: y)) ?? 0
        return Swift.max(0, row - 1)
    }

    /// The height of section `s`'s items region.
    func regionHeight(section s: Int) -> Double {
        sections[s].count == 0 ? 0 : Swift.max(0, sections[s].contentHeight - spacings[s])
    }

    /// Sets item `row` of section `s` to `height`; returns how much the section's region grew.
    mutating func setHeight(_ height: Double, row: Int, section s: Int) throws(RowOffsetsError) -> Double {
        let before = regionHeight(section: s)
        try sections[s].setHeight(height + spacings[s], of: row)
        return regionHeight(section: s) - before
    }

    var storageBytes: Int { sections.reduce(0) { $0 + $1.storageBytes } + 8 * spacings.capacity }
}
