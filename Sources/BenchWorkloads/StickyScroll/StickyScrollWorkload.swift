import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `sticky-scroll`: a layout with pinned headers and footers scrolled along a `StickyScrollTrace`.
/// One operation (`scroll-step`) is what UIKit does for one bounds change: ask
/// `shouldInvalidate(forBoundsChange:)`, invalidate with the bounds-change context, `prepare()`, and
/// query the new viewport. The modes are the pinning modes (`PinningMode`), plus the baseline
/// `viewport-query`: the same layout's viewport query at the same offsets with nothing pinned and
/// no invalidation, so that the cost a scroll step adds to the query reads as a ratio in one run.
///
/// Every mode is verified at every step against the independent reference
/// (`ReferenceLayout.pinnedElements`, a direct computation of docs/engine-semantics.md from natural frames); above
/// 300,000 items at every 10th step, as the query workload checks its trace frames.
public struct StickyScrollWorkload: Workload {
    public enum Mode: String, WorkloadMode {
        case relayout
        case scan
        case cached
        case viewportQuery = "viewport-query"

        /// The engine's strategy, or nil for the baseline. A switch, not the raw value: a
        /// harness name that matched no engine case would otherwise build the unpinned baseline
        /// and be verified against the unpinned reference (`ModeMappingTests`).
        public var pinningMode: PinningMode? {
            switch self {
            case .relayout: return .relayout
            case .scan: return .scan
            case .cached: return .cached
            case .viewportQuery: return nil
            }
        }

        /// Every strategy is exact.
        public var accuracyMetric: Metric? { nil }

        /// What the mode keeps per item at most: the layout and its pinning state, measured by
        /// `ModeFootprintTests`.
        public var bytesPerItem: Double { 96 }

        public var about: String {
            switch self {
            case .relayout: return "every bounds change recomputes the whole layout, index and pinned frames (no cache)"
            case .scan: return "item frames cached; pinned frames recomputed by scanning sections 0…last visible"
            case .cached:
                return "item frames cached; sections under the visible top and bottom found by a galloping search, "
                    + "only their header and footer recomputed: O(log S)"
            case .viewportQuery:
                return "baseline: the same layout's viewport query at each step's offset, nothing pinned, no invalidation"
            }
        }

        public var reproduces: String {
            switch self {
            case .relayout: return "CHTCollectionViewWaterfallLayout (invalidates on every bounds change)"
            case .scan: return "HDCollectionView's HDHeaderStopHelper, Listable"
            case .cached: return "none: a galloping search from the last step"
            case .viewportQuery: return "a baseline"
            }
        }
    }
    public enum Operation: String, WorkloadOperation {
        /// One bounds change: shouldInvalidate, invalidate, prepare, viewport query.
        case scrollStep = "scroll-step"

        public var timed: String {
            "one bounds change of the sticky-scroll trace, in order, wrapping at its end: `shouldInvalidate(forBoundsChange:)`, "
                + "the bounds-change invalidation, `prepare()` and the viewport query (`viewport-query`: the query alone); "
                + "a sample is a batch of consecutive steps, divided"
        }
        public var untimed: String { "the layout's first prepare, the answer buffer's first growth (warm-up)" }
    }

    public static let kind = "sticky-scroll"
    public static let about = "bounds changes with pinned headers and footers: invalidate, prepare and query the viewport, one scroll step per operation"

    public static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(400), bound: .between(1, Double(ScenarioLimits.maxSteps)),
        about: "bounds changes in the trace: a pull past the top, drags, flings and scrubber jumps, a jump to the top")
    public static let keys = [stepsKey]

    /// Scroll steps in the trace.
    public var steps: Int

    public init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(Self.stepsKey)
        try spec.finish()
    }

    public var operations: [Operation] { [.scrollStep] }

    public func validate(_ scenario: Scenario) throws(ScenarioError) {}

    public var footprint: WorkloadFootprint { .none }

    public func makeFixture(scenario: Scenario, items: Int) throws -> StickyScrollFixture {
        try StickyScrollFixture(scenario: scenario, items: items, steps: steps)
    }
}

/// The data, the trace and the reference layout, shared by all modes.
public final class StickyScrollFixture: WorkloadFixture {
    public typealias Mode = StickyScrollWorkload.Mode
    public typealias Operation = StickyScrollWorkload.Operation
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    let data: LayoutData
    let trace: StickyScrollTrace
    let viewports: [Rect]
    /// The independent geometry every step is checked against (built on first use: the callgrind
    /// child, which does not verify, never pays for it).
    private(set) lazy var reference: ReferenceLayout = {
        // The same inputs the layout accepted; the reference refuses only what the engine refuses.
        try! ReferenceLayout(data: data, styles: styles, viewportWidth: scenario.viewport.width)
    }()

    init(scenario: Scenario, items: Int, steps: Int) throws {
        self.scenario = scenario
        self.items = items
        styles = scenario.makeStyles()
        data = try scenario.makeData(items: items)
        let contentHeight = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: styles, data: data).contentHeight
        trace = StickyScrollTrace(contentHeight: contentHeight, viewportHeight: scenario.viewport.height, steps: steps)
        viewports = trace.offsets.map {
            Rect(x: scenario.viewport.minX, y: $0, width: scenario.viewport.width, height: scenario.viewport.height)
        }
    }

    /// The layout a mode scrolls, prepared at the viewport's first place.
    func makeLayout(mode: Mode) throws -> SectionedLayout {
        var layout: SectionedLayout
        if let pinningMode = mode.pinningMode {
            layout = try SectionedLayout(
                bounds: scenario.viewport, styles: styles, data: data, queryMode: .binary,
                pinOffset: scenario.layout.pinOffset, pinningMode: pinningMode)
        } else {
            layout = try SectionedLayout(bounds: scenario.viewport, styles: styles.map(\.unpinned), data: data, queryMode: .binary)
        }
        try layout.prepare()
        return layout
    }

    public func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        let layout = try makeLayout(mode: mode)
        let operation = ScrollStep(layout: layout, viewports: viewports, boundsChanges: mode.pinningMode != nil)
        var elements: [Double] = []
        if verify {
            // One pass over the whole trace from the first step, checking the answers of the
            // checked steps (every step up to 300,000 items, every 10th above: the reference's
            // answer is a linear scan of every element).
            elements.reserveCapacity(viewports.count)
            let checked = Set(ReferenceGeometry.checkedQueryFrames(count: viewports.count, items: items))
            for (step, viewport) in viewports.enumerated() {
                let answer = try operation.step()
                elements.append(Double(answer.count))
                guard checked.contains(step) else { continue }
                if let problem = check(mode: mode, viewport: viewport, answer: answer) {
                    throw VerificationError(
                        scenario: scenario.name, mode: mode.rawValue, items: items, detail: "scroll step \(step): \(problem)")
                }
            }
            operation.rewind()
        }
        return ModeMeasurement(
            operations: [TimedOperation(.scrollStep, .batchable(operation))],
            observations: [Observation(.scrollStep, .elements, elements)])
    }

    /// How `answer`, a mode's viewport query at `viewport`, differs from the reference, or nil.
    func check(mode: Mode, viewport: Rect, answer: [LayoutAttributes]) -> String? {
        if mode.pinningMode == nil {
            return ReferenceCheck.firstMismatch(ofQuery: viewport, answer: answer, against: reference)
        }
        return ReferenceCheck.firstMismatch(
            ofPinnedQuery: viewport, answer: answer, against: reference, pinOffset: scenario.layout.pinOffset,
            offset: viewport.minY, viewportHeight: viewport.height)
    }

    /// The laid-out frames; pinned headers and footers move with `dump --offset` (not for the baseline).
    public func snapshot(mode: Mode) throws -> LayoutSnapshot {
        let layout = try makeLayout(mode: mode)
        return LayoutSnapshot(
            frames: layout.frames, queryMode: .binary, viewport: scenario.viewport, styles: layout.styles,
            pinOffset: layout.pinOffset)
    }
}

/// One scroll step per operation, walking the trace (wrapping around): a bounds change through
/// the UIKit lifecycle and the viewport query, or for the baseline (`boundsChanges` false) the
/// viewport query alone.
final class ScrollStep: BatchableOperation {
    private var layout: SectionedLayout
    private let viewports: [Rect]
    private let boundsChanges: Bool
    private var next = 0
    private var buffer: [LayoutAttributes] = []

    init(layout: SectionedLayout, viewports: [Rect], boundsChanges: Bool) {
        self.layout = layout
        self.viewports = viewports
        self.boundsChanges = boundsChanges
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { viewports.count }

    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        // One exclusive access to the layout for the whole batch.
        try Self.scroll(count: count, boundsChanges: boundsChanges, layout: &layout, viewports: viewports, next: &next, buffer: &buffer)
    }

    /// One step, returning its answer (for verification, untimed).
    func step() throws -> [LayoutAttributes] {
        _ = try run(count: 1)
        return buffer
    }

    /// `count` scroll steps: shouldInvalidate → invalidate → prepare → viewport query.
    private static func scroll(
        count: Int, boundsChanges: Bool, layout: inout SectionedLayout, viewports: [Rect], next: inout Int,
        buffer: inout [LayoutAttributes]
    ) throws -> Int {
        var checksum = 0
        for _ in 0..<count {
            let bounds = viewports[next]
            if boundsChanges {
                if layout.shouldInvalidate(forBoundsChange: bounds) {
                    layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
                }
                try layout.prepare()
            }
            layout.elements(in: bounds, into: &buffer)
            checksum &+= buffer.count
            next += 1
            if next == viewports.count { next = 0 }
        }
        return checksum
    }
}
