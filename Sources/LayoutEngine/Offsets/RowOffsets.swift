/// The vertical offsets of the rows of a self-sizing list whose heights start as estimates and are
/// replaced by measured ones while the user scrolls (docs/modes.md, `offsets`).
///
/// Every strategy answers the same three questions after every change — where row `i` starts,
/// which row covers offset `y`, and how tall the content is — and accepts the same changes: a
/// measured height, rows inserted, rows removed. Offsets are `Double` throughout (DZTableView's
/// `float` offsets drift by 0.5 pt beyond 4.2M pt, as `RowOffsetsPrecisionTests` shows).
///
/// Invalid input (a NaN offset, a row past the end, a negative or non-finite height) throws a
/// `RowOffsetsError` naming the value and leaves the structure unchanged.
public protocol RowOffsets: Sendable {
    /// Rows with the given heights (estimates or measurements).
    init(heights: [Double]) throws(RowOffsetsError)
    /// `count` rows that all have the height `estimate`.
    init(count: Int, estimate: Double) throws(RowOffsetsError)

    /// The number of rows.
    var count: Int { get }
    /// The height of row `row` (`0 ..< count`).
    func height(of row: Int) -> Double
    /// Where row `row` starts; `offset(of: count)` is the content height. `row` in `0 ... count`.
    func offset(of row: Int) -> Double
    /// The row `i` with `offset(of: i) <= y < offset(of: i + 1)`, clamped to `0 ..< count`
    /// (0 above the content and for an empty list, the last row below it). Throws for NaN.
    func row(at y: Double) throws(RowOffsetsError) -> Int
    /// Replaces the height of one row (an estimate by its measurement, or a re-measurement).
    mutating func setHeight(_ height: Double, of row: Int) throws(RowOffsetsError)
    /// Inserts rows with the given heights so that the first of them becomes row `row` (`0 ... count`).
    mutating func insert(heights: [Double], at row: Int) throws(RowOffsetsError)
    /// Removes `count` rows starting at `row`.
    mutating func remove(at row: Int, count: Int) throws(RowOffsetsError)
    /// Bytes of storage the structure holds (array capacities), for the `bytes_per_row` metric.
    var storageBytes: Int { get }
}

extension RowOffsets {
    /// The height of the whole content: the end of the last row.
    @inlinable
    public var contentHeight: Double { offset(of: count) }

    /// Checks a row index for `setHeight` and friends.
    @inlinable
    public static func checkRow(_ row: Int, count: Int) throws(RowOffsetsError) {
        guard row >= 0, row < count else { throw RowOffsetsError.rowOutOfRange(row, count: count) }
    }

    /// Checks one height: finite and not negative.
    @inlinable
    public static func checkHeight(_ height: Double) throws(RowOffsetsError) {
        guard height.isFinite, height >= 0 else { throw RowOffsetsError.invalidHeight(height) }
    }

    /// Checks the arguments of `insert(heights:at:)`.
    @inlinable
    public static func checkInsert(_ heights: [Double], at row: Int, count: Int) throws(RowOffsetsError) {
        guard row >= 0, row <= count else { throw RowOffsetsError.insertOutOfRange(row, count: count) }
        for height in heights { try checkHeight(height) }
    }

    /// Checks the arguments of `remove(at:count:)`.
    @inlinable
    public static func checkRemove(at row: Int, removing: Int, count: Int) throws(RowOffsetsError) {
        guard removing >= 0, row >= 0, row <= count - removing else {
            throw RowOffsetsError.removeOutOfRange(row, removing: removing, count: count)
        }
    }

    /// Checks an offset for `row(at:)`.
    @inlinable
    public static func checkOffset(_ y: Double) throws(RowOffsetsError) {
        guard !y.isNaN else { throw RowOffsetsError.offsetIsNaN }
    }
}

/// Bad input to a `RowOffsets` structure; the structure is left unchanged.
public enum RowOffsetsError: Error, Hashable, Sendable, CustomStringConvertible {
    case offsetIsNaN
    case invalidHeight(Double)
    case rowOutOfRange(Int, count: Int)
    case insertOutOfRange(Int, count: Int)
    case removeOutOfRange(Int, removing: Int, count: Int)
    case invalidCount(Int)

    public var description: String {
        switch self {
        case .offsetIsNaN:
            return "row(at:): the offset is NaN; expected a number"
        case .invalidHeight(let height):
            return "height \(height) is not allowed; expected a finite number >= 0"
        case .rowOutOfRange(let row, let count):
            return "row \(row) does not exist; the list has \(count) rows (0..<\(count))"
        case .insertOutOfRange(let row, let count):
            return "cannot insert at row \(row): past the end of a list of \(count) rows (expected 0...\(count))"
        case .removeOutOfRange(let row, let removing, let count):
            return "cannot remove \(removing) rows at row \(row) from a list of \(count) rows"
        case .invalidCount(let count):
            return "row count \(count) is not allowed; expected a count >= 0"
        }
    }
}
