/// Measuring rows ahead of the user, safely: the rows nearest the viewport first, in chunks,
/// each step stopping once its time budget is spent, and cancelled by any data or width change.
///
/// FDTemplateLayoutCell 1.2–1.3 precached one row per run-loop turn in the default mode and
/// took it out (its issue #138) because runs of those turns made pull-to-refresh and load-more
/// hitch, and because removing each row from its pending array made the pass O(n²). Here the
/// order is a walk outward from a centre row (no pending array: O(1) per row), the budget bounds
/// every step, and a step after `table.generation` changed does nothing and reports cancelled.
public struct Precache {
    public enum StepResult: Equatable, Sendable {
        /// The budget ran out; more rows remain.
        case paused
        /// Every row has a height now.
        case finished
        /// The table changed since `start`: start again from the new data.
        case cancelled
    }

    public let generation: Int
    public let centre: Int
    /// How many rows one chunk asks for between two looks at the clock.
    public var chunk: Int
    private let sectionStarts: [Int]
    private var next = 0
    /// Rows asked for so far (cached ones included).
    public private(set) var rowsVisited = 0

    /// A precache of `table`'s rows, outward from the global row `centre`.
    public init<Cache>(table: HeightTable<Cache>, centre: Int, chunk: Int = 16) {
        generation = table.generation
        var starts = [0]
        for items in table.model.sections { starts.append(starts[starts.count - 1] + items.count) }
        sectionStarts = starts
        self.centre = max(0, min(centre, starts[starts.count - 1] - 1))
        self.chunk = max(1, chunk)
    }

    public var rowCount: Int { sectionStarts[sectionStarts.count - 1] }
    public var isFinished: Bool { next >= 2 * rowCount }

    /// Measures rows until `budget` has passed on `clock` (checked after every chunk).
    public mutating func step<Cache, C: Clock>(
        _ table: inout HeightTable<Cache>, budget: C.Duration, clock: C
    ) -> StepResult {
        guard table.generation == generation else { return .cancelled }
        let deadline = clock.now.advanced(by: budget)
        while true {
            if runChunk(&table) { return .finished }
            if clock.now >= deadline { return .paused }
        }
    }

    /// Measures up to `rows` rows (no clock: for tests and exact counts).
    public mutating func step<Cache>(_ table: inout HeightTable<Cache>, rows: Int) -> StepResult {
        guard table.generation == generation else { return .cancelled }
        for _ in 0..<rows {
            guard let row = nextRow() else { return .finished }
            _ = table.height(at: path(ofGlobal: row))
        }
        return isFinished ? .finished : .paused
    }

    /// One chunk; true when every row is done.
    private mutating func runChunk<Cache>(_ table: inout HeightTable<Cache>) -> Bool {
        for _ in 0..<chunk {
            guard let row = nextRow() else { return true }
            _ = table.height(at: path(ofGlobal: row))
        }
        return isFinished
    }

    /// The next row of the walk centre, centre+1, centre-1, centre+2, …, skipping ends.
    private mutating func nextRow() -> Int? {
        let n = rowCount
        while next < 2 * n {
            let k = next
            next += 1
            let row = k % 2 == 0 ? centre + k / 2 : centre - (k + 1) / 2
            if row >= 0, row < n {
                rowsVisited += 1
                return row
            }
        }
        return nil
    }

    private func path(ofGlobal row: Int) -> ItemPath {
        var low = 0, high = sectionStarts.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if sectionStarts[mid] <= row { low = mid } else { high = mid }
        }
        return ItemPath(section: low, item: row - sectionStarts[low])
    }
}
