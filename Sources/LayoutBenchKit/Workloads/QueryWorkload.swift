import LayoutEngine
import LayoutReference

/// `query`: replays a scroll trace (`ScrollTrace`) and issues one viewport-sized rect query per
/// frame, as `layoutAttributesForElements(in:)` is called while scrolling. Modes are the rect-query
/// strategies; each is verified against the exact answer of `linear` on every frame of the trace,
/// and heuristic modes report their recall and the elements they return per query. Queries see the
/// natural frames: pins are measured by `sticky-scroll`.
public struct QueryWorkload: Workload {
    public typealias Mode = RectQueryMode
    public enum Operation: String, WorkloadOperation {
        /// One viewport-sized rect query.
        case query
    }

    public static let kind = "query"
    public static let summary = "viewport rect queries along a scroll trace (drags, flings, a scrubber pass, a jump to the top)"

    /// Frames in the scroll trace.
    public var frames: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.optionalInt("frames", default: 600, .between(1, Double(ScenarioLimits.maxFrames)))
        try spec.finish()
    }

    public var operations: [Operation] { [.query] }

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
    /// Per frame, the exact answer (`linear`'s, checked against the reference geometry by
    /// `referenceProblem`) sorted by element.
    private(set) lazy var reference: [[LayoutAttributes]] = {
        let linear = LinearQuery(frames: layout.frames)
        var buffer: [LayoutAttributes] = []
        return trace.offsets.indices.map { frame in
            linear.elements(in: trace.rect(at: frame, viewport: scenario.viewport), frames: layout.frames, into: &buffer)
            return buffer.sorted { $0.id < $1.id }
        }
    }()

    /// The first difference of the prepared layout, or of `linear`'s answers on the checked trace
    /// frames, from the reference geometry (`ReferenceGeometry`); nil when they agree. Every mode
    /// fails when this is not nil: they all query these frames.
    private lazy var referenceProblem: Result<String?, any Error> = Result {
        let geometry = try ReferenceGeometry.layout(bounds: scenario.viewport, styles: scenario.makeStyles().map(\.unpinned), data: layout.data)
        if let problem = ReferenceCheck.firstMismatch(of: layout.frames, against: geometry) {
            return "the prepared layout against the reference layout: \(problem)"
        }
        for frame in ReferenceGeometry.checkedQueryFrames(count: trace.offsets.count, items: items) {
            let rect = trace.rect(at: frame, viewport: scenario.viewport)
            if let problem = ReferenceCheck.firstMismatch(ofQuery: rect, answer: reference[frame], against: geometry) {
                return "linear's answer at trace frame \(frame) against the reference layout: \(problem)"
            }
        }
        return nil
    }

    init(scenario: Scenario, items: Int, frames: Int) throws {
        self.scenario = scenario
        self.items = items
        var layout = try SectionedLayout(
            bounds: scenario.viewport, styles: scenario.makeStyles().map(\.unpinned), data: scenario.makeData(items: items))
        try layout.prepare()
        self.layout = layout
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
            query: { rect, buffer in modeLayout.elements(in: rect, into: &buffer) })
        return ModeMeasurement(
            operations: [TimedOperation(.query, .batchable(QueryOperation(layout: modeLayout, trace: trace, viewport: scenario.viewport)))],
            observations: [Observation(.query, .recall, recall), Observation(.query, .elements, elements)])
    }

    /// The prepared layout, queried with the mode.
    public func snapshot(mode: RectQueryMode) throws -> LayoutSnapshot {
        LayoutSnapshot(frames: layout.frames, queryMode: mode, viewport: scenario.viewport)
    }

    /// Runs `query` on every frame of the trace: an exact mode must return exactly the reference
    /// (else `VerificationError`); a heuristic gets its recall per frame. Also counts elements.
    func check(
        mode: String, isExact: Bool, verify: Bool, query: (Rect, inout [LayoutAttributes]) -> Void
    ) throws -> (recall: [Double], elements: [Double]) {
        var recall: [Double] = [], elements: [Double] = []
        recall.reserveCapacity(trace.offsets.count)
        elements.reserveCapacity(trace.offsets.count)
        var buffer: [LayoutAttributes] = []
        for frame in trace.offsets.indices where verify {
            let rect = trace.rect(at: frame, viewport: scenario.viewport)
            query(rect, &buffer)
            let exact = reference[frame]
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
        for (a, b) in zip(returned, exact) where !CoordinateTolerance.equal(a.frame, b.frame) {
            return "\(a.id) has frame \(a.frame), expected \(b.frame)"
        }
        return nil
    }
}

/// One viewport query per operation, walking the trace frame by frame (wrapping around).
final class QueryOperation: BatchableOperation {
    private let layout: SectionedLayout
    private let rects: [Rect]
    private var frame = 0
    private var buffer: [LayoutAttributes] = []

    init(layout: SectionedLayout, trace: ScrollTrace, viewport: Rect) {
        self.layout = layout
        rects = trace.offsets.indices.map { trace.rect(at: $0, viewport: viewport) }
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { rects.count }

    func rewind() { frame = 0 }

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

extension RectQueryMode: WorkloadMode {}
