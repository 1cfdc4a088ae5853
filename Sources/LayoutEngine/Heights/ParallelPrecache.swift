#if canImport(Dispatch)
import Dispatch
#endif

/// Measuring every row ahead of the user on several threads: the rows the cache does not hold
/// are cut into `lanes` contiguous blocks, each measured by its own template cells (own constraint
/// solvers, own text measurer); thread `t` measures lanes `t`, `t + threads`, … into one flat
/// array of heights, and the heights are then stored into the table's cache on the calling
/// thread in row order, as a serial pass stores them.
///
/// Texture (AsyncDisplayKit) measures cells on background threads (`ASDataController` lays out
/// the nodes of a batch concurrently); UIKit's self-sizing cells and FDTemplateLayoutCell measure
/// on the main thread only. Here the threads share nothing mutable: the table's data is read,
/// each lane's cells are used by one thread, each thread writes the heights of its own rows, and
/// only the calling thread touches the cache and the counters.
///
/// Why lanes rather than a cell set per thread: a long-lived constraint cell's result depends in
/// its last bits on the rows it measured before (its tableau carries their rounding), so a cell
/// per thread would make the heights depend on the thread count. With a fixed number of lanes
/// each row is measured by the same cell after the same rows whatever the thread count, so 1, 2
/// or 64 threads give the same heights bit for bit; against the serial first pass (one cell for
/// every row) they agree bit for bit for closed-form rows and, for constraint templates, within
/// the 1e-6 pt the template checks allow (`ParallelPrecacheTests`).
///
/// Cost: the cache is probed once per row up front and the heights stored in row order (both on
/// the calling thread), the rows measured in parallel. Each lane's cells are made by `init` and
/// `reset(from:)`, outside any timed region; `run` allocates nothing once the row buffers have
/// grown to the table, beyond what the measurements themselves allocate (each lane's cells
/// warm up as a cold table's do).
public final class ParallelPrecache: @unchecked Sendable {
    /// The most threads one precache runs (docs/modes.md), and its lanes by default.
    public static let maxThreads = 64

    public let threads: Int
    /// Blocks of rows, each with its own cells (at least `threads`).
    public let lanes: Int
    /// One per lane: its template cells and text measurer, used by one thread at a time.
    private let cells: [LaneCells]
    /// The rows to measure, in row order, and their heights.
    private var pendingPaths: [ItemPath] = []
    private var heights: [Double] = []
    /// Rows measured by the last `run`.
    public private(set) var rowsMeasured = 0
    /// Called on each thread of a run with more than one, after its last row: a caller that
    /// counts what the threads did (their allocations) settles each thread's share there.
    private let threadFinished: (@Sendable () -> Void)?

    private final class LaneCells: @unchecked Sendable {
        var registry: TemplateRegistry
        let text: (any LabelTextMeasuring)?
        init(registry: TemplateRegistry, text: (any LabelTextMeasuring)?) {
            self.registry = registry
            self.text = text
        }
    }

    /// Why a precache cannot be made.
    public enum SetupError: Error, Equatable, Sendable {
        /// `threads` outside 1…`maxThreads`, or `lanes` below `threads` or above `maxThreads`.
        case threads(Int, lanes: Int)
        /// A lane's template cell could not be made with its text measurer.
        case template(name: String, TemplateMeasurementError)
    }

    /// A precache on `threads` threads over `lanes` lanes whose cells copy `registry`'s
    /// templates; `makeText` is called once per lane for that lane's text measurer (nil when no
    /// label names a font): a text measurer is used by one thread at a time (`LabelTextMeasuring`).
    public init(
        registry: TemplateRegistry, threads: Int, lanes: Int = ParallelPrecache.maxThreads,
        makeText: () throws -> (any LabelTextMeasuring)?, threadFinished: (@Sendable () -> Void)? = nil
    ) throws {
        guard threads >= 1, threads <= Self.maxThreads, lanes >= threads, lanes <= Self.maxThreads else {
            throw SetupError.threads(threads, lanes: lanes)
        }
        self.threads = threads
        self.lanes = lanes
        self.threadFinished = threadFinished
        var cells: [LaneCells] = []
        for _ in 0..<lanes {
            let text = try makeText()
            cells.append(LaneCells(registry: try Self.copy(registry, text: text), text: text))
        }
        self.cells = cells
    }

    /// New cells for every lane, copies of `registry`'s templates in their state before any
    /// measurement (as a cold table's), each with its lane's text measurer.
    public func reset(from registry: TemplateRegistry) throws {
        for lane in cells { lane.registry = try Self.copy(registry, text: lane.text) }
    }

    /// A registry with `registry`'s templates and new cells sharing nothing with it: each
    /// constraint template's measurer made again with `text`, counters and created cells reset.
    static func copy(_ registry: TemplateRegistry, text: (any LabelTextMeasuring)?) throws -> TemplateRegistry {
        var copy = registry
        copy.discardTemplateCells()
        copy.resetCounters()
        for index in copy.constraintCells.indices {
            guard let cell = registry.constraintCells[index] else { continue }
            do {
                copy.constraintCells[index] = try TemplateMeasurer(system: cell.system, strategy: cell.strategy, text: text)
            } catch {
                throw SetupError.template(name: registry.names[index], error)
            }
        }
        return copy
    }

    /// Measures every row of `table` that neither its item nor its cache knows, on `threads`
    /// threads, then stores the heights into the cache in row order and counts the measurements
    /// in the table's registry as a serial pass would. Returns the rows measured.
    @discardableResult
    public func run<Cache: HeightCache>(_ table: inout HeightTable<Cache>) -> Int {
        pendingPaths.removeAll(keepingCapacity: true)
        let model = table.model
        for s in 0..<model.sections.count {
            let rows = model.sections[s]
            for i in 0..<rows.count where rows[i].knownHeight == nil {
                let path = ItemPath(section: s, item: i)
                if table.storage.peekHeight(id: rows[i].id, at: path) == nil { pendingPaths.append(path) }
            }
        }
        let count = pendingPaths.count
        if heights.count < count { heights.append(contentsOf: repeatElement(0, count: count - heights.count)) }
        let width = table.width
        let threads = threads, lanes = lanes, cells = cells, threadFinished = threads > 1 ? threadFinished : nil
        pendingPaths.withUnsafeBufferPointer { paths in
            heights.withUnsafeMutableBufferPointer { out in
                let shared = SharedRows(paths: paths, heights: out)
                let work: @Sendable (Int) -> Void = { thread in
                    var lane = thread
                    while lane < lanes {
                        let cell = cells[lane]
                        for k in (lane * count / lanes)..<((lane + 1) * count / lanes) {
                            let path = shared.paths[k]
                            let item = model.sections[path.section][path.item]
                            shared.heights[k] = cell.registry.height(of: item.content, reuseIdentifier: item.reuseIdentifier, width: width)
                        }
                        lane += threads
                    }
                    threadFinished?()
                }
                if threads == 1 {
                    work(0)
                } else {
                    #if canImport(Dispatch)
                    DispatchQueue.concurrentPerform(iterations: threads, execute: work)
                    #else
                    for thread in 0..<threads { work(thread) }
                    #endif
                }
            }
        }
        for k in 0..<count {
            let path = pendingPaths[k]
            let item = model.sections[path.section][path.item]
            table.registry.noteMeasurement(item.reuseIdentifier)
            table.storage.store(heights[k], id: item.id, at: path)
        }
        rowsMeasured = count
        return count
    }

    /// The heights the last `run` measured, in row order (for verification).
    public var lastHeights: ArraySlice<Double> { heights[0..<rowsMeasured] }
    /// The rows the last `run` measured, in row order.
    public var lastPaths: [ItemPath] { pendingPaths }
}

/// The row buffers the threads of one `run` share: every thread reads `paths` and writes only the
/// entries of `heights` at its own rows.
private struct SharedRows: @unchecked Sendable {
    let paths: UnsafeBufferPointer<ItemPath>
    let heights: UnsafeMutableBufferPointer<Double>
}

extension TemplateRegistry {
    /// Whether `identifier`'s rows are measured by a constraint template (a long-lived solver)
    /// rather than a closed form.
    public func isConstraintTemplate(_ identifier: ReuseIdentifier) -> Bool { constraintCells[identifier.index] != nil }
}
