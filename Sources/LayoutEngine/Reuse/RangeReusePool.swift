/// Where a `RangeReusePool` gets cells from and gives them back to.
public protocol CellSource {
    /// A free cell for `identifier`, creating one when none is free.
    mutating func dequeue(identifier: UInt8) -> Int32
    /// Takes back a cell that left the screen.
    mutating func enqueue(_ cell: Int32, identifier: UInt8)
    var cellIdentifiers: [UInt8] { get }
    var statistics: ReuseStatistics { get }
}

/// The visible rows as one contiguous range whose cells sit in a ring buffer (`row & mask`): a
/// new range is diffed against the previous one, so a scroll step touches only the rows that
/// left and entered, O(change), and allocates nothing once the ring is large enough.
public struct RangeReusePool<Source: CellSource>: ReusePool {
    private var source: Source
    private var visible = 0..<0
    private var ring: [Int32] = Array(repeating: -1, count: 64)
    private var mask = 63

    public init(source: Source) { self.source = source }

    public mutating func show(_ new: Range<Int>, identifiers: [UInt8]) {
        if new.count > ring.count { growRing(toFit: new.count) }
        let old = visible
        let overlap = old.clamped(to: new)
        if overlap.isEmpty {
            for row in old { source.enqueue(ring[row & mask], identifier: identifiers[row]) }
            for row in new { ring[row & mask] = source.dequeue(identifier: identifiers[row]) }
        } else {
            // Leave first (so entering rows can reuse those cells), then enter.
            for row in old.lowerBound..<overlap.lowerBound { source.enqueue(ring[row & mask], identifier: identifiers[row]) }
            for row in overlap.upperBound..<old.upperBound { source.enqueue(ring[row & mask], identifier: identifiers[row]) }
            for row in new.lowerBound..<overlap.lowerBound { ring[row & mask] = source.dequeue(identifier: identifiers[row]) }
            for row in overlap.upperBound..<new.upperBound { ring[row & mask] = source.dequeue(identifier: identifiers[row]) }
        }
        visible = new
    }

    private mutating func growRing(toFit count: Int) {
        var capacity = ring.count
        while capacity < count { capacity *= 2 }
        var grown = [Int32](repeating: -1, count: capacity)
        for row in visible { grown[row & (capacity - 1)] = ring[row & mask] }
        ring = grown
        mask = capacity - 1
    }

    public func cell(forRow row: Int) -> Int? { visible.contains(row) ? Int(ring[row & mask]) : nil }
    public var visibleCellCount: Int { visible.count }
    public var cellIdentifiers: [UInt8] { source.cellIdentifiers }
    public var statistics: ReuseStatistics { source.statistics }
}

/// `none`: every appearing row gets a new cell; cells that leave are dropped.
public struct FreshCells: CellSource {
    public private(set) var cellIdentifiers: [UInt8] = []
    public private(set) var statistics = ReuseStatistics()

    public init() {}

    public mutating func dequeue(identifier: UInt8) -> Int32 {
        statistics.dequeues += 1
        statistics.cellsCreated += 1
        cellIdentifiers.append(identifier)
        return Int32(cellIdentifiers.count - 1)
    }

    public mutating func enqueue(_ cell: Int32, identifier: UInt8) {}
}

/// `stacks`: one LIFO stack of free cells per reuse identifier, in one flat array, each bounded
/// by `capacity` (a cell arriving at a full stack is dropped). Dequeue and enqueue are O(1).
public struct StackCells: CellSource {
    public private(set) var cellIdentifiers: [UInt8] = []
    public private(set) var statistics = ReuseStatistics()
    private let capacity: Int
    /// Stack `i` is `stacks[i * capacity ..< i * capacity + sizes[i]]`, top last.
    private var stacks: [Int32]
    private var sizes: [Int]
    private var pooled = 0

    public init(identifierCount: Int, capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        stacks = Array(repeating: -1, count: Swift.max(1, identifierCount) * self.capacity)
        sizes = Array(repeating: 0, count: Swift.max(1, identifierCount))
    }

    public mutating func dequeue(identifier: UInt8) -> Int32 {
        statistics.dequeues += 1
        let stack = Int(identifier)
        let size = sizes[stack]
        if size > 0 {
            sizes[stack] = size - 1
            pooled -= 1
            return stacks[stack * capacity + size - 1]
        }
        statistics.cellsCreated += 1
        cellIdentifiers.append(identifier)
        return Int32(cellIdentifiers.count - 1)
    }

    public mutating func enqueue(_ cell: Int32, identifier: UInt8) {
        let stack = Int(identifier)
        let size = sizes[stack]
        guard size < capacity else {
            statistics.discarded += 1
            return
        }
        stacks[stack * capacity + size] = cell
        sizes[stack] = size + 1
        pooled += 1
        if pooled > statistics.peakPoolSize { statistics.peakPoolSize = pooled }
    }
}
