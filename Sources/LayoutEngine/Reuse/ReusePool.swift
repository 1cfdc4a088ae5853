/// Cells shown for the visible rows of a scrolling list, reused by reuse identifier (docs/modes.md,
/// `reuse-scroll`). A cell is an integer id with the reuse identifier it was created for; which
/// rows it shows over time is the strategy's business.
public protocol ReusePool {
    /// Makes exactly the rows `visible` show a cell: rows that left the previous range give their
    /// cells back, rows that entered get one (dequeued, or created when none is free).
    /// `identifiers[row]` is each row's reuse identifier, `0 ..< identifierCount`.
    mutating func show(_ visible: Range<Int>, identifiers: [UInt8])
    /// The cell showing `row`, or nil when the row is not visible.
    func cell(forRow row: Int) -> Int?
    /// How many rows show a cell.
    var visibleCellCount: Int { get }
    /// Every cell ever created, by id: the reuse identifier it was created for.
    var cellIdentifiers: [UInt8] { get }
    var statistics: ReuseStatistics { get }
}

/// What a strategy did over a scroll.
public struct ReuseStatistics: Hashable, Sendable {
    /// Cells created (a real table view allocates and lays out a view for each).
    public var cellsCreated = 0
    /// Rows that needed a cell as they appeared.
    public var dequeues = 0
    /// The most cells waiting in the pool at any time.
    public var peakPoolSize = 0
    /// Cells dropped because their stack was full.
    public var discarded = 0
    public init() {}
}

/// The strategies of the `reuse-scroll` workload, by their CSV names.
public enum ReuseMode: String, CaseIterable, Sendable {
    case none
    case setScan = "set-scan"
    case stacks

    /// A pool for `identifierCount` reuse identifiers; `stacks` keeps at most `capacityPerIdentifier`
    /// free cells of each.
    public func make(identifierCount: Int, capacityPerIdentifier: Int) -> any ReusePool {
        switch self {
        case .none: return RangeReusePool(source: FreshCells())
        case .setScan: return SetScanReusePool()
        case .stacks:
            return RangeReusePool(source: StackCells(identifierCount: identifierCount, capacity: capacityPerIdentifier))
        }
    }
}
