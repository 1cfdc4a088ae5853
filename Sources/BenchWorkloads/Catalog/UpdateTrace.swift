import LayoutEngine
import LayoutReference
import BenchResults

/// A sequence of data changes replayed by the `append` and `edit` workloads, one change per
/// timed operation, from the same initial data every time it restarts.
struct UpdateTrace {
    var initial: LayoutData
    var changes: [LayoutChange]

    /// Items the changes add at most (for the headroom of a fresh copy of the data).
    var growth: Int {
        changes.reduce(0) { total, change in
            switch change {
            case .appendItems(_, let items), .insertItems(_, _, let items), .insertSection(_, let items): return total + items.count
            case .removeItems, .setHeight, .removeSection, .moveItem, .moveSection, .reloadItems: return total
            }
        }
    }

    /// A copy of the initial data that shares no storage with the trace, with room for the items
    /// the trace adds: what a long-lived app's arrays look like after amortised growth. Made
    /// outside the timed region, so that the first change after a restart pays neither a
    /// copy-on-write of storage the harness shares nor a reallocation the app would not see.
    func freshInitialData() throws -> LayoutData {
        let capacity = initial.itemCount + growth
        func copy<T>(_ values: [T]) -> [T] {
            var copy: [T] = []
            copy.reserveCapacity(capacity)
            copy.append(contentsOf: values)
            return copy
        }
        return try LayoutData(
            widths: copy(initial.widths), heights: copy(initial.heights), spansAllColumns: copy(initial.spansAllColumns),
            counts: (0..<initial.sectionCount).map(initial.itemCount(inSection:)))
    }
}

/// Verifies an update mode against its reference on a trace, then times one change per run.
final class UpdateOperation: ConsumingOperation {
    private let mode: WaterfallUpdateMode
    private let bounds: Rect
    private let styles: [SectionStyle]
    private let trace: UpdateTrace
    private var updater: (any LayoutUpdater)?
    private var step = 0

    init(mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace) {
        self.mode = mode
        self.bounds = bounds
        self.styles = styles
        self.trace = trace
    }

    /// Applies the whole trace to the mode and to its reference, comparing frames after every
    /// step, and with the reference geometry where `ReferenceGeometry` says (see there).
    static func verify(
        mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace
    ) throws -> String? {
        try verifyObservingLanes(mode: mode, bounds: bounds, styles: styles, trace: trace, observes: false).problem
    }

    /// `verify(mode:bounds:styles:trace:)`, and with `observes` the lane-stability metrics of the
    /// same replay (`LaneStability.Observer`, nil when the check failed): the mode replays its
    /// trace once, where the metrics used to replay it a second time.
    static func verifyObservingLanes(
        mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace, observes: Bool
    ) throws -> (problem: String?, lanes: LaneStability.Values?) {
        var observer: LaneStability.Observer?
        // `full` is the engine's full recompute itself (`FullRecomputeUpdater`): replaying its
        // expectation, the same type on the same data, would compare the code with itself and
        // could never differ (a second O(n) recompute and comparison per change, a large share of
        // a million-item group's verification). Its check is the reference geometry's.
        let problem = try verify(
            updater: mode.makeUpdater(bounds: bounds, styles: styles, data: trace.initial),
            reference: mode == .full ? nil : mode.makeExpectation(bounds: bounds, styles: styles, data: trace.initial),
            trace: trace,
            geometry: (bounds, styles, keepsShortestFirstPlacement: mode != .stableLanes && mode != .lockLanes),
            afterEach: !observes ? nil : { change, updater in
                if let change {
                    observer?.record(change, updater)
                } else {
                    observer = LaneStability.Observer(LaneStability(styles: styles, viewportHeight: bounds.height), updater)
                }
            })
        return (problem, problem == nil ? observer?.values : nil)
    }

    /// Applies the trace to both and returns the first difference of frames, or nil (without a
    /// `reference`, only the geometry is checked). With
    /// `geometry`, the updater's frames are also compared with the reference layout of its data
    /// before the first change and after the changes `ReferenceGeometry.checksChange` picks — for
    /// a mode whose placement is not shortest-first only while nothing but appends has happened.
    /// `afterEach` sees the updater once its frames were checked: before the first change (nil)
    /// and after each change.
    static func verify(
        updater: any LayoutUpdater, reference: (any UpdateExpectation)?, trace: UpdateTrace,
        geometry: (bounds: Rect, styles: [SectionStyle], keepsShortestFirstPlacement: Bool)? = nil,
        afterEach: ((LayoutChange?, any LayoutUpdater) -> Void)? = nil
    ) throws -> String? {
        var updater = updater, reference = reference
        let items = trace.initial.itemCount
        var onlyAppends = true
        func geometryProblem() throws -> String? {
            guard let geometry, geometry.keepsShortestFirstPlacement || onlyAppends else { return nil }
            return try ReferenceGeometry.firstMismatch(of: updater.frames, bounds: geometry.bounds, styles: geometry.styles, data: updater.data)
        }
        if let problem = try reference?.firstDifference(of: updater.frames) ?? geometryProblem() {
            return "before any change: \(problem)"
        }
        afterEach?(nil, updater)
        for (step, change) in trace.changes.enumerated() {
            try updater.apply(change)
            try reference?.apply(change)
            if case .appendItems = change {} else { onlyAppends = false }
            var problem = reference?.firstDifference(of: updater.frames)
            if problem == nil, ReferenceGeometry.checksChange(step: step, count: trace.changes.count, items: items) {
                problem = try geometryProblem()
            }
            if let problem { return "after change \(step) (\(change.shortDescription)): \(problem)" }
            afterEach?(change, updater)
        }
        return nil
    }

    var traceLength: Int { trace.changes.count }

    func rewind() { updater = nil }

    func prepareNext() throws {
        if updater == nil || step == trace.changes.count {
            updater = nil
            updater = try mode.makeUpdater(bounds: bounds, styles: styles, data: trace.freshInitialData())
            step = 0
        }
    }

    /// Applies the next change. The value returned is the step, not a read of `frames`: reading
    /// `StableLanesUpdater.frames` materialises its pending lane moves, work that is not the
    /// change's (docs/modes.md says so).
    func runNext() throws -> Int {
        guard updater != nil, step < trace.changes.count else { throw OperationMisuse.notPrepared }
        try updater!.apply(trace.changes[step])
        step += 1
        return step
    }
}

extension LayoutChange {
    /// A short description for verification messages.
    var shortDescription: String {
        switch self {
        case .appendItems(let section, let items): return "append \(items.count) items to section \(section)"
        case .insertItems(let section, let at, let items): return "insert \(items.count) items at [\(section), \(at)]"
        case .removeItems(let section, let at, let count): return "remove \(count) items at [\(section), \(at)]"
        case .setHeight(let section, let item, let height): return "height of [\(section), \(item)] to \(height)"
        case .insertSection(let at, let items): return "insert section \(at) with \(items.count) items"
        case .removeSection(let at): return "remove section \(at)"
        case .moveItem(let from, let to): return "move [\(from.section), \(from.item)] to [\(to.section), \(to.item)]"
        case .moveSection(let from, let to): return "move section \(from) to \(to)"
        case .reloadItems(let section, let at, let items):
            return "reload \(items.count) items at [\(section), \(at)] (first to \(items.first.map { "\($0.width)×\($0.height)" } ?? "none"))"
        }
    }
}

/// The update strategies of `append` and `edit`, as a user reads them.
extension WaterfallUpdateMode: WorkloadMode {
    public var about: String {
        switch self {
        case .full: return "recomputes every frame on every change"
        case .incremental:
            return "appends continue from cached column heights; middle edits restart from a checkpoint and stop where "
                + "the column heights re-synchronise; later sections are shifted"
        case .stableLanes:
            return "items keep their column, so an edit shifts only later items of that column, O(chunk + lanes · log n) "
                + "(a different placement, verified against its own reference)"
        case .lockLanes:
            return "items up to the last one the user has seen keep their column, later ones are placed afresh by the "
                + "rule after each change, O(n) (its own placement, verified against its own reference)"
        }
    }

    public var reproduces: String {
        switch self {
        case .full: return "CHTCollectionViewWaterfallLayout's prepareLayout"
        case .incremental: return "HDCollectionView, extended to middle edits"
        case .stableLanes: return "TanStack Virtual's cached lanes"
        case .lockLanes: return "FlashList's proposal: lanes locked up to the last engaged index"
        }
    }

    /// Every strategy is exact.
    public var accuracyMetric: Metric? { nil }

    /// What the mode keeps per item at most: the layout, its column state and the edit trace's
    /// copies (`ModeFootprintTests`; the edit workload keeps most, 195 B at 32 lanes).
    public var bytesPerItem: Double {
        switch self {
        case .full, .incremental, .stableLanes, .lockLanes: 208
        }
    }
}
