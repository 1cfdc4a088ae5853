import LayoutEngine
import LayoutReference

extension AppendWorkload {
    package enum Operation: String, WorkloadOperation {
        /// One page of `batch` items appended.
        case append

        package var timed: String { "one page of `batch` items appended to the last section, " + UpdateTiming.timed }
        package var untimed: String { UpdateTiming.untimed }
    }
}

/// What one change of `append`, `edit`, `layout-append` and `layout-edit` times and leaves out
/// (their operations' `timed` and `untimed`).
enum UpdateTiming {
    static let timed = "in the trace's order, by the mode's updater (`append`, `edit`) or as a batch of one to the "
        + "layout kind (`layout-append`, `layout-edit`: `invalidate(with: .dataSourceCounts)`, "
        + "`prepare(forCollectionViewUpdates:)`, `prepare()`); after the last change the trace restarts from fresh state"
    static let untimed = "building the fresh state (a private copy of the data with room for the trace's items, so no "
        + "copy-on-write or regrowth of storage the harness shares lands in the first change; for a layout kind, a new "
        + "layout of that data from its factory, prepared); `stable-lanes`: materialising `data` and `frames` from its "
        + "lane sequences (O(n)), which happens on the next read and is left out on purpose (the harness does not "
        + "read them while sampling)"
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
    /// `initial`, when given, is the group's reference layout of the data before any change.
    static func verifyObservingLanes(
        mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace, observes: Bool,
        initial: ReferenceGeometry.Kept? = nil
    ) throws -> (problem: String?, lanes: LaneStability.Values?) {
        var observer: LaneStability.Observer?
        // `full` is the engine's full recompute itself (`FullRecomputeUpdater`): replaying its
        // expectation, the same type on the same data, would compare the code with itself and
        // could never differ (a second O(n) recompute and comparison per change, a large share of
        // a million-item group's verification). Its check is the reference geometry's.
        let problem = try verify(
            updater: mode.make(bounds: bounds, styles: styles, data: trace.initial),
            reference: mode == .full ? nil : mode.makeExpectation(bounds: bounds, styles: styles, data: trace.initial),
            trace: trace,
            geometry: (bounds, styles, keepsShortestFirstPlacement: mode != .stableLanes && mode != .lockLanes),
            initial: initial,
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
    /// and after each change. `initial` (the same bounds and styles as `geometry`) lays out the
    /// data before the first change, or takes the layout it keeps of that data.
    static func verify(
        updater: any LayoutUpdater, reference: (any UpdateExpectation)?, trace: UpdateTrace,
        geometry: (bounds: Rect, styles: [SectionStyle], keepsShortestFirstPlacement: Bool)? = nil,
        initial: ReferenceGeometry.Kept? = nil,
        afterEach: ((LayoutChange?, any LayoutUpdater) -> Void)? = nil
    ) throws -> String? {
        var updater = updater, reference = reference
        let items = trace.initial.itemCount
        var onlyAppends = true
        func geometryProblem(before: Bool = false) throws -> String? {
            guard let geometry, geometry.keepsShortestFirstPlacement || onlyAppends else { return nil }
            if before, let initial { return try initial.firstMismatch(of: updater.frames, data: updater.data) }
            return try ReferenceGeometry.firstMismatch(of: updater.frames, bounds: geometry.bounds, styles: geometry.styles, data: updater.data)
        }
        if let problem = try reference?.firstDifference(of: updater.frames) ?? geometryProblem(before: true) {
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
            updater = try mode.make(bounds: bounds, styles: styles, data: trace.freshInitialData())
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
