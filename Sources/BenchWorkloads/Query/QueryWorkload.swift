import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `query`: replays a scroll trace (`ScrollTrace`) and issues one viewport-sized rect query per
/// frame, as `layoutAttributesForElements(in:)` is called while scrolling. Modes are the rect-query
/// strategies; each is verified against the exact answer of `linear` on every frame of the trace,
/// and heuristic modes report their recall and the elements they return per query.
///
/// Pinning is the layout's: when the scenario's headers or footers pin, each frame is a bounds
/// change to that frame's viewport (shouldInvalidate, invalidate, prepare, as `sticky-scroll` does
/// with the `cached` pinning mode) followed by the query, so every mode answers with the pinned
/// frames for that viewport, checked against the reference's pinning. A layout without pins is
/// queried as it is, with no bounds change.
public struct QueryWorkload: Workload {
    public typealias Mode = RectQueryMode
    public enum Operation: String, WorkloadOperation {
        /// One viewport-sized rect query.
        case query

        public var timed: String {
            "one viewport rect query of the scroll trace, in order, wrapping at its end (a sample is a batch of "
                + "consecutive frames, divided; every frame is timed, pass after pass); when headers or footers pin, "
                + "the frame's bounds change (shouldInvalidate, invalidate, prepare) comes before its query"
        }
        public var untimed: String { "the answer buffer's first growth (warm-up)" }
    }

    public static let kind = "query"
    public static let about = "viewport rect queries along a scroll trace (drags, flings, a scrubber pass, a jump to the top)"

    public static let framesKey = WorkloadKey(
        "frames", .integer, default: .integer(600), bound: .between(1, Double(ScenarioLimits.maxFrames)),
        about: "frames of the scroll trace (drags, flings, a scrubber pass, a jump to the top), one query each")
    public static let keys = [framesKey]

    /// Frames in the scroll trace.
    public var frames: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(Self.framesKey)
        try spec.finish()
    }

    public var operations: [Operation] { [.query] }

    public func validate(_ scenario: Scenario) throws(ScenarioError) {}

    /// The verification keeps the exact answer of every frame.
    public var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: frames) }

    public func makeFixture(scenario: Scenario, items: Int) throws -> QueryFixture {
        try QueryFixture(scenario: scenario, items: items, frames: frames)
    }
}

/// The prepared layout, the trace and the exact answer of every frame, shared by all modes.
public final class QueryFixture: WorkloadFixture {
    public typealias Operation = QueryWorkload.Operation
    let scenario: Scenario
    let items: Int
    let layout: SectionedLayout
    let trace: ScrollTrace
    /// Whether headers or footers pin, so that each frame moves the bounds before its query.
    let pins: Bool
    /// Per frame, the exact answer (`linear`'s, checked against the reference geometry by
    /// `referenceProblem`) sorted by element.
    private(set) lazy var reference: Result<[[LayoutAttributes]], any Error> = Result {
        var linear = layout
        linear.setQueryMode(.linear)
        try linear.prepare()
        var buffer: [LayoutAttributes] = []
        return try trace.offsets.indices.map { frame in
            try answer(of: &linear, at: trace.rect(at: frame, viewport: scenario.viewport), into: &buffer)
            return buffer.sorted { $0.id < $1.id }
        }
    }

    /// The first difference of the prepared layout, or of `linear`'s answers on the checked trace
    /// frames, from the reference geometry (`ReferenceGeometry`); nil when they agree. Every mode
    /// fails when this is not nil: they all query these frames.
    private lazy var referenceProblem: Result<String?, any Error> = Result {
        let geometry = try ReferenceGeometry.layout(bounds: scenario.viewport, styles: layout.styles, data: layout.data)
        if let problem = ReferenceCheck.firstMismatch(of: layout.frames, against: geometry) {
            return "the prepared layout against the reference layout: \(problem)"
        }
        let reference = try reference.get()
        for frame in ReferenceGeometry.checkedQueryFrames(count: trace.offsets.count, items: items) {
            let rect = trace.rect(at: frame, viewport: scenario.viewport)
            let problem = pins
                ? ReferenceCheck.firstMismatch(
                    ofPinnedQuery: rect, answer: reference[frame], against: geometry, pinOffset: layout.pinOffset,
                    offset: rect.minY, viewportHeight: rect.height)
                : ReferenceCheck.firstMismatch(ofQuery: rect, answer: reference[frame], against: geometry)
            if let problem {
                return "linear's answer at trace frame \(frame) against the reference layout: \(problem)"
            }
        }
        return nil
    }

    init(scenario: Scenario, items: Int, frames: Int) throws {
        self.scenario = scenario
        self.items = items
        var layout = try SectionedLayout(
            bounds: scenario.viewport, styles: scenario.makeStyles(), data: scenario.makeData(items: items),
            pinOffset: scenario.layout.pinOffset)
        try layout.prepare()
        self.layout = layout
        pins = !layout.pinned.isEmpty
        trace = ScrollTrace(
            contentHeight: layout.contentSize.height, viewportHeight: scenario.viewport.height, frames: frames)
    }

    public func makeMeasurement(mode: RectQueryMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        if verify, let problem = try referenceProblem.get() {
            throw VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: problem)
        }
        var modeLayout = layout
        modeLayout.setQueryMode(mode)
        try modeLayout.prepare()
        let (recall, elements) = try check(
            mode: mode.rawValue, isExact: mode.isExact, verify: verify,
            query: { rect, buffer in try answer(of: &modeLayout, at: rect, into: &buffer) })
        let operation: any BatchableOperation
        if pins {
            let viewports = trace.rects(viewport: scenario.viewport)
            operation = ScrollStep(layout: modeLayout, viewports: viewports, boundsChanges: true)
        } else {
            operation = QueryOperation(layout: modeLayout, rects: trace.rects(viewport: scenario.viewport))
        }
        return ModeMeasurement(
            operations: [TimedOperation(.query, .batchable(operation))],
            observations: [Observation(.query, .recall, recall), Observation(.query, .elements, elements)])
    }

    /// The prepared layout, queried with the mode.
    public func snapshot(mode: RectQueryMode) throws -> LayoutSnapshot {
        LayoutSnapshot(frames: layout.frames, queryMode: mode, viewport: scenario.viewport)
    }

    /// `layout`'s answer for the viewport `rect`: when something pins, after moving the bounds
    /// there, as a scroll does.
    func answer(of layout: inout SectionedLayout, at rect: Rect, into buffer: inout [LayoutAttributes]) throws {
        if pins {
            if layout.shouldInvalidate(forBoundsChange: rect) {
                layout.invalidate(with: layout.invalidationContext(forBoundsChange: rect))
            }
            try layout.prepare()
        }
        layout.elements(in: rect, into: &buffer)
    }

    /// Runs `query` on every frame of the trace: an exact mode must return exactly the reference
    /// (else `VerificationError`); a heuristic gets its recall per frame. Also counts elements.
    func check(
        mode: String, isExact: Bool, verify: Bool, query: (Rect, inout [LayoutAttributes]) throws -> Void
    ) throws -> (recall: [Double], elements: [Double]) {
        var recall: [Double] = [], elements: [Double] = []
        recall.reserveCapacity(trace.offsets.count)
        elements.reserveCapacity(trace.offsets.count)
        var buffer: [LayoutAttributes] = []
        for frame in trace.offsets.indices where verify {
            let rect = trace.rect(at: frame, viewport: scenario.viewport)
            try query(rect, &buffer)
            let exact = try reference.get()[frame]
            elements.append(Double(buffer.count))
            if isExact {
                let returned = buffer.sorted { $0.id < $1.id }
                if let problem = Self.difference(returned, exact) {
                    throw VerificationError(
                        scenario: scenario.name, mode: mode, items: items,
                        detail: "query \(rect) at trace frame \(frame): \(problem)")
                }
                recall.append(1)
            } else {
                recall.append(QueryRecall(returned: buffer, exact: exact).recall)
            }
        }
        return (recall, elements)
    }

    /// How two sorted answers differ (a missing, extra or misplaced element), or nil.
    static func difference(_ returned: [LayoutAttributes], _ exact: [LayoutAttributes]) -> String? {
        let returnedIDs = Set(returned.map(\.id)), exactIDs = Set(exact.map(\.id))
        if returned.count != returnedIDs.count { return "an element was returned twice" }
        if let missing = exact.first(where: { !returnedIDs.contains($0.id) }) { return "missed \(missing.id)" }
        if let extra = returned.first(where: { !exactIDs.contains($0.id) }) { return "returned \(extra.id), which does not intersect" }
        for (a, b) in zip(returned, exact) where !ReferenceTolerance.equal(a.frame, b.frame) {
            return "\(a.id) has frame \(a.frame), expected \(b.frame)"
        }
        return nil
    }
}

/// One viewport query per operation, walking the trace frame by frame (wrapping around): the
/// `query` workload's built-in layout and `layout-query`'s registered ones. The driver reaches
/// `run(count:)` through the protocol, that is the unspecialised generic code (37 instructions a
/// query more than a class written for `SectionedLayout`), so the built-in layout's loop is
/// pre-specialised; a registered layout (an existential) is opened once, when the operation is
/// made (`makeQueryOperation`).
final class QueryOperation<Layout: CollectionLayout>: BatchableOperation {
    private let layout: Layout
    private let rects: [Rect]
    private var frame = 0
    private var buffer: [LayoutAttributes] = []

    init(layout: Layout, rects: [Rect]) {
        self.layout = layout
        self.rects = rects
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { rects.count }

    func rewind() { frame = 0 }

    @_specialize(where Layout == SectionedLayout)
    func run(count: Int) -> Int {
        var checksum = 0
        for _ in 0..<count {
            layout.elements(in: rects[frame], into: &buffer)
            checksum &+= buffer.count
            frame += 1
            if frame == rects.count { frame = 0 }
        }
        return checksum
    }
}

/// A `QueryOperation` over a registered layout, its type opened from the existential.
func makeQueryOperation<Layout: CollectionLayout>(_ layout: Layout, rects: [Rect]) -> any BatchableOperation {
    QueryOperation(layout: layout, rects: rects)
}

/// The rect-query strategies, as a user reads them (the algorithms are `RectQueryMode`'s indexes).
extension RectQueryMode: WorkloadMode {
    public var about: String {
        switch self {
        case .linear: return "tests every element"
        case .unionBlocks: return "blocks of 20 elements with their union rect, scanned from both ends"
        case .binaryProbe: return "binary search for any hit, then 40 more probes past the first miss with a 1 pt tolerance (heuristic)"
        case .binary: return "exact binary search on minY-sorted items with a prefix maximum of maxY: O(log n + k)"
        case .perColumn: return "per-column sorted arrays plus a spanning array, made exact with a prefix maximum of maxY"
        case .buckets: return "items registered in fixed-height y buckets (about a viewport), exact for any placement"
        case .coherent: return "moves the previous frame's answer by the scroll delta, galloping from the last walk; a jump searches afresh"
        case .masonryRange: return "binary search on item starts in index order, then expand both ways until every lane has an item past the viewport; returns the whole index range (heuristic)"
        case .intervalTree: return "implicit augmented interval tree per section (items sorted by top, subtree maximum of bottoms), exact: O(log n + k)"
        }
    }

    public var reproduces: String {
        switch self {
        case .linear: return "IGListKit, Listable"
        case .unionBlocks: return "CHTCollectionViewWaterfallLayout"
        case .binaryProbe: return "HDCollectionView"
        case .binary: return "none: the exact search"
        case .perColumn: return "HDWaterFlowLayout, made exact"
        case .buckets: return "none: exact for any placement"
        case .coherent: return "none: scroll-coherent"
        case .masonryRange: return "TanStack Virtual's masonry range (calculateRange with lanes)"
        case .intervalTree: return "react-virtualized's Masonry PositionCache (interval tree)"
        }
    }

    /// A heuristic (`binary-probe`, HDCollectionView's probe; `masonry-range`, TanStack's lanes)
    /// reports its recall.
    public var accuracyMetric: Metric? { isExact ? nil : .recall }

    /// What the mode keeps per item at most: its index beside the shared frames, and the answer
    /// buffer (`ModeFootprintTests`).
    public var bytesPerItem: Double {
        switch self {
        case .linear, .binaryProbe: 32
        case .masonryRange: 40
        case .unionBlocks: 128
        case .binary, .coherent: 64
        case .perColumn, .buckets: 48
        case .intervalTree: 80
        }
    }
}
