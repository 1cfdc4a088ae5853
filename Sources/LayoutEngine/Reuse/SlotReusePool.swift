/// The cells of any layout's visible elements, reused by reuse identifier: `RangeReusePool` for a
/// visible set that is not one contiguous range of rows (a waterfall's columns, a grid, headers
/// and footers beside items). Each element the layout can show has a slot, `0 ..< slotCount`, and
/// a reuse identifier; every step the caller passes the slots its rect query returned.
///
/// As UIKit does on a scroll step: the elements that left give their cells back first (so the
/// entering ones can reuse them), then each entering element dequeues one for its identifier
/// (created when the source has none free). O(visible) per step, through a generation stamp per
/// slot instead of a set; allocates nothing once the visible list has grown to the most ever
/// visible.
public struct SlotReusePool<Source: CellSource> {
    private var source: Source
    /// The cell each slot shows, or -1.
    private var cellOfSlot: [Int32]
    /// `stamp[slot] == generation`: the slot is in the current step's answer.
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    /// The slots showing a cell, in no order.
    private var visible: [Int32] = []

    public init(source: Source, slotCount: Int) {
        self.source = source
        cellOfSlot = Array(repeating: -1, count: slotCount)
        stamp = Array(repeating: 0, count: slotCount)
        visible.reserveCapacity(256)
    }

    public var slotCount: Int { cellOfSlot.count }

    /// Makes exactly `slots` (a query's answer, each slot once; a repeated slot is shown once)
    /// show a cell. `identifiers[slot]` is each slot's reuse identifier.
    public mutating func show(_ slots: [Int32], identifiers: [UInt8]) {
        generation &+= 1
        if generation == 0 {
            for i in stamp.indices { stamp[i] = 0 }
            generation = 1
        }
        for slot in slots { stamp[Int(slot)] = generation }
        // Leave first, keeping the slots that stay.
        var kept = 0
        for i in visible.indices {
            let slot = visible[i]
            if stamp[Int(slot)] == generation {
                visible[kept] = slot
                kept += 1
            } else {
                source.enqueue(cellOfSlot[Int(slot)], identifier: identifiers[Int(slot)])
                cellOfSlot[Int(slot)] = -1
            }
        }
        visible.removeLast(visible.count - kept)
        // Then enter.
        for slot in slots where cellOfSlot[Int(slot)] < 0 {
            cellOfSlot[Int(slot)] = source.dequeue(identifier: identifiers[Int(slot)])
            visible.append(slot)
        }
    }

    /// The cell showing `slot`, or nil when it is not visible.
    public func cell(forSlot slot: Int) -> Int? {
        guard slot >= 0, slot < cellOfSlot.count, cellOfSlot[slot] >= 0 else { return nil }
        return Int(cellOfSlot[slot])
    }

    /// How many slots show a cell.
    public var visibleCellCount: Int { visible.count }
    /// Every cell ever created, by id: the reuse identifier it was created for.
    public var cellIdentifiers: [UInt8] { source.cellIdentifiers }
    public var statistics: ReuseStatistics { source.statistics }
}
