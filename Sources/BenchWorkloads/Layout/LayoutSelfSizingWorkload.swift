import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-self-sizing`: per strategy, a self-sizing collection view scrolled through any layout
/// kind that applies preferred attributes. Every item starts at the estimate (the
/// `estimatedHeight` and `estimatedWidth` keys, UIKit's `estimatedItemSize`: the layout is built
/// by its factory from data of estimated sizes); along a scroll trace of drags, a fling, a far jump
/// and a scroll back up (`SelfSizingTrace`), each item that enters the viewport for the first time
/// reports its true size, the data's, as UIKit's self-sizing cells do (`SelfSizingSession`).
///
/// One operation (`self-sizing-step`) is one step of the trace: the bounds change to the step's
/// offset, the viewport query, the new items' preferred attributes through
/// `shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)` and
/// `invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:visibleBounds:)`, each
/// context to `invalidate(with:)` with its `contentOffsetAdjustment` applied to the offset, then
/// `prepare()`, the bounds change to the adjusted offset and the query again, until no item in the
/// viewport is new.
///
/// Verified before timing at every step: every measured item's frame, and the content height,
/// equal those of a fresh layout from the kind's factory whose data has the true sizes for the
/// measured items and the estimates for the rest (`self-sizing-equals-fresh`; a layout that keeps
/// its estimates fails here); after the trace, the layout passes `LayoutContract` for that data. A
/// context whose preferred size is negative or not finite, or whose adjustments are not finite,
/// fails the mode (`self-sizing-context`). The collection view's content size follows each
/// context's `contentSizeAdjustment` as UIKit applies it, before the next `prepare()`; when a
/// pass's contexts adjust it at all (UIKit's default is zero: a layout may leave it so), the
/// adjusted size must be the content size the layout reports after that `prepare()`
/// (`self-sizing-content-size`, at every step, timed or not). Reported with the timing, as the `offsets` workload
/// defines them: `anchor_jump` (how far the first item that starts at or below the viewport top
/// moved on screen in a step, after the layout's offset adjustment, summed over the steps) and
/// `size_churn` (how much the content height changed, summed over the steps).
package struct LayoutSelfSizingWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One step of the trace, with the preferred attributes of the items it brings into view.
        case selfSizingStep = "self-sizing-step"

        package var timed: String {
            "one step of the trace, in order: the bounds change to the step's offset, the viewport's `elements(in:into:)`, "
                + "each new item's preferred attributes through `shouldInvalidateLayout(forPreferredLayoutAttributes:withOriginalAttributes:)` "
                + "and `invalidationContext(forPreferredLayoutAttributes:withOriginalAttributes:visibleBounds:)` to `invalidate(with:)`, "
                + "the offset adjusted, `prepare()`, and the query again until no item in view is new"
        }
        package var untimed: String {
            "a fresh layout of the estimated data and its first prepare when the trace is used up; the verification pass"
        }
    }

    package static let generic = GenericWorkload.selfSizing
    package static let about =
        "any layout kind that applies preferred attributes: items start at estimated sizes and report their true size when they first enter the viewport, along drags, a fling, a jump and a scroll back up"

    package static let stepsKey = WorkloadKey(
        "steps", .integer, default: .integer(120), bound: .between(6, 10_000),
        about: "steps of the scroll trace: drags, a fling, a jump to 60% of the content and a scroll back up")
    package static let estimatedHeightKey = WorkloadKey(
        "estimatedHeight", .number, default: .described("44"), bound: .size,
        about: "every item's estimated height (UIKit's `estimatedItemSize.height`)")
    package static let estimatedWidthKey = WorkloadKey(
        "estimatedWidth", .number, default: .described("0: each item keeps its own width, and reports the width the layout gave it"), bound: .size,
        about: "every item's estimated width, for a layout that sizes items by their width (flow); 0 keeps the data's widths")
    package static let keys = [stepsKey, estimatedHeightKey, estimatedWidthKey]

    package var steps: Int
    package var estimatedHeight: Double
    package var estimatedWidth: Double

    package init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(Self.stepsKey)
        estimatedHeight = try spec.optionalDouble(Self.estimatedHeightKey) ?? 44
        estimatedWidth = try spec.optionalDouble(Self.estimatedWidthKey) ?? 0
        try spec.finish()
    }

    package var operations: [Operation] { [.selfSizingStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: LayoutBuild.checkFrames) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutSelfSizingFixture {
        try LayoutSelfSizingFixture(build: LayoutBuild(scenario: scenario, items: items), workload: self)
    }
}

/// The estimated data and the trace of `layout-self-sizing` at one item count.
package final class LayoutSelfSizingFixture: WorkloadFixture {
    package typealias Operation = LayoutSelfSizingWorkload.Operation
    let build: LayoutBuild
    let trace: SelfSizingTrace
    /// The data with every item at the estimate: what the layout under test starts from.
    let estimated: LayoutData
    let estimatedWidth: Double
    let estimatedHeight: Double

    init(build: LayoutBuild, workload: LayoutSelfSizingWorkload) throws {
        self.build = build
        trace = SelfSizingTrace(steps: workload.steps)
        estimatedWidth = workload.estimatedWidth
        estimatedHeight = workload.estimatedHeight
        estimated = try Self.estimate(build.data, width: workload.estimatedWidth, height: workload.estimatedHeight)
    }

    /// `data` with every item's height `height`, and its width `width` unless that is 0.
    static func estimate(_ data: LayoutData, width: Double, height: Double) throws -> LayoutData {
        var sections: [[ItemSize]] = []
        for s in 0..<data.sectionCount {
            sections.append((0..<data.itemCount(inSection: s)).map { i in
                let size = data.size(section: s, item: i)
                return ItemSize(width: width > 0 ? width : size.width, height: height, spansAllColumns: size.spansAllColumns)
            })
        }
        return try LayoutData(sections: sections)
    }

    /// A layout of the estimated data, prepared, at offset 0. Its data is a copy of its own, so
    /// that the first size it writes does not copy the arrays it shares with `estimated` in the
    /// timed region.
    func session(_ mode: LayoutStrategyMode) throws -> SelfSizingSession {
        let own = try Self.estimate(build.data, width: estimatedWidth, height: estimatedHeight)
        var layout = try build.make(mode, data: own)
        try build.prepare(&layout, mode: mode, step: "layout-self-sizing: prepare")
        return SelfSizingSession(layout: layout, data: build.data, viewport: build.scenario.viewport, estimatedWidth: estimatedWidth)
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var observations: [Observation<Operation>] = []
        if verify {
            let (anchorJump, sizeChurn) = try verifyTrace(mode: mode)
            observations = [Observation(.selfSizingStep, .anchorJump, [anchorJump]), Observation(.selfSizingStep, .sizeChurn, [sizeChurn])]
        }
        let operation = LayoutSelfSizingOperation(make: { [self] in try self.session(mode) }, trace: trace)
        return ModeMeasurement(operations: [TimedOperation(.selfSizingStep, .consuming(operation))], observations: observations)
    }

    /// Replays the trace, checking every step against a fresh layout of the data as it then is;
    /// returns `anchor_jump` and `size_churn`.
    func verifyTrace(mode: LayoutStrategyMode) throws -> (Double, Double) {
        let session = try session(mode)
        var mixed = estimated
        var anchorJump = 0.0, sizeChurn = 0.0
        for (index, move) in trace.moves.enumerated() {
            let step = SelfSizingSession.stepName(index, move)
            let before = session.layout.contentSize.height
            let screenMove: Double
            do {
                screenMove = try session.run(move, step: index, observe: true)
            } catch let violation as LayoutContract.Violation {
                throw build.failure(mode, violation)
            }
            anchorJump += screenMove.magnitude
            sizeChurn += (session.layout.contentSize.height - before).magnitude
            try checkAgainstFresh(session, mixed: &mixed, mode: mode, step: step)
        }
        _ = try build.verify(
            session.layout, mode: mode, data: mixed,
            rects: build.checkRects(contentHeight: session.layout.contentSize.height), after: "layout-self-sizing: after the trace")
        return (anchorJump, sizeChurn)
    }

    /// Every measured item of `session` where a fresh layout of the data (true sizes for the
    /// measured items, estimates for the rest) places it, and the same content height.
    private func checkAgainstFresh(_ session: SelfSizingSession, mixed: inout LayoutData, mode: LayoutStrategyMode, step: String) throws {
        let data = build.data
        for s in 0..<data.sectionCount {
            for i in 0..<data.itemCount(inSection: s) where session.measured[data.globalIndex(section: s, item: i)] {
                let size = data.size(section: s, item: i)
                if mixed.size(section: s, item: i) != size { try mixed.setSize(size, section: s, item: i) }
            }
        }
        var fresh = try build.make(mode, data: mixed)
        try build.prepare(&fresh, mode: mode, step: "\(step), a fresh layout of the measured sizes")
        func violation(_ id: ElementID?, _ detail: String) -> VerificationError {
            build.failure(mode, LayoutContract.Violation(check: "self-sizing-equals-fresh", step: step, element: id, detail: detail))
        }
        let height = session.layout.contentSize.height, expectedHeight = fresh.contentSize.height
        for s in 0..<data.sectionCount {
            for i in 0..<data.itemCount(inSection: s) where session.measured[data.globalIndex(section: s, item: i)] {
                let id = ElementID.item(i, section: s)
                let actual: Rect, expected: Rect
                do {
                    actual = try session.layout.attributes(for: id).frame
                    expected = try fresh.attributes(for: id).frame
                } catch {
                    throw violation(id, "attributes(for:) threw: \(error)")
                }
                guard !ReferenceTolerance.equal(actual, expected) else { continue }
                let estimate = estimated.size(section: s, item: i)
                let kept = actual.height == estimate.height && expected.height != estimate.height
                throw violation(id, "frame \(actual), a fresh layout with the measured sizes places it at \(expected)"
                    + (kept ? " (the layout kept its estimated height \(estimate.height) after the item's preferred attributes)" : ""))
            }
        }
        if !ReferenceTolerance.equal(height, expectedHeight) {
            throw violation(nil, "content height \(height), a fresh layout with the measured sizes has \(expectedHeight)")
        }
    }

    /// The layout after the whole trace.
    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        let session = try session(mode)
        for (index, move) in trace.moves.enumerated() { _ = try session.run(move, step: index, observe: false) }
        return build.snapshot(of: session.layout)
    }
}

/// The scroll trace of `layout-self-sizing`, in offsets relative to the content as it is at each
/// step (which the measurements change): drags of 12 pt from the top, a fling from 120 pt a step
/// slowing by 5% a step, a jump to 60% of the content, and a scroll back up of 60 pt a step.
struct SelfSizingTrace {
    enum Move: CustomStringConvertible {
        /// Scroll by this many points.
        case by(Double)
        /// Jump to this fraction of the content height.
        case jump(Double)

        var description: String {
            switch self {
            case .by(let dy): return dy < 0 ? "up \(-dy) pt" : "down \(dy) pt"
            case .jump(let fraction): return "jump to \(Int(fraction * 100))% of the content"
            }
        }

        /// Where the step scrolls to from `offset`, clamped to the content.
        func target(from offset: Double, contentHeight: Double, viewportHeight: Double) -> Double {
            let y: Double
            switch self {
            case .by(let dy): y = offset + dy
            case .jump(let fraction): y = contentHeight * fraction
            }
            return Swift.min(Swift.max(0, y), Swift.max(0, contentHeight - viewportHeight))
        }
    }

    let moves: [Move]

    init(steps: Int) {
        let part = Swift.max(1, steps / 6)
        var moves: [Move] = Array(repeating: .by(12), count: part)
        var velocity = 120.0
        for _ in 0..<part {
            moves.append(.by(velocity))
            velocity *= 0.95
        }
        moves.append(.jump(0.6))
        while moves.count < steps { moves.append(.by(-60)) }
        self.moves = moves
    }
}

/// A self-sizing collection view over one layout: its content offset, which items have reported
/// their size, and the steps of the trace as UIKit makes them.
final class SelfSizingSession {
    private(set) var layout: any CollectionLayout
    /// The true sizes.
    let data: LayoutData
    /// The viewport at offset zero.
    let viewport: Rect
    /// 0: an item reports the width the layout gave it; else its own (`estimatedWidth`).
    let estimatedWidth: Double
    private(set) var offset = 0.0
    /// Per item (global index): it has reported its size.
    private(set) var measured: [Bool]
    private var buffer: [LayoutAttributes] = []
    private var pending: [LayoutAttributes] = []
    /// Layout passes of one step at most (UIKit's `layoutSubviews` loop settles in a few).
    static let maxPasses = 16

    init(layout: any CollectionLayout, data: LayoutData, viewport: Rect, estimatedWidth: Double) {
        self.layout = layout
        self.data = data
        self.viewport = viewport
        self.estimatedWidth = estimatedWidth
        measured = Array(repeating: false, count: data.itemCount)
        buffer.reserveCapacity(4096)
        pending.reserveCapacity(1024)
    }

    /// The name of step `index` in a failure.
    static func stepName(_ index: Int, _ move: SelfSizingTrace.Move) -> String {
        "layout-self-sizing step \(index) (\(move))"
    }

    /// Step `step` of the trace, `move`: returns how far the first item that starts at or below
    /// the viewport top after the scroll moved on screen by the end of the step (0 unless
    /// `observe`). Throws `LayoutContract.Violation` naming the step for a `prepare()` that throws
    /// or a context that cannot be applied (the name is built only then: the timed path allocates
    /// nothing).
    func run(_ move: SelfSizingTrace.Move, step: Int, observe: Bool) throws -> Double {
        try Self.run(&layout, move: move, session: self, step: step, observe: observe)
    }

    private static func run<Layout: CollectionLayout>(
        _ layout: inout Layout, move: SelfSizingTrace.Move, session s: SelfSizingSession, step index: Int, observe: Bool
    ) throws -> Double {
        let target = move.target(from: s.offset, contentHeight: layout.contentSize.height, viewportHeight: s.viewport.height)
        try s.scroll(&layout, to: target, step: index, move: move)
        var anchor: ElementID?
        var anchorY = 0.0
        if observe {
            for attributes in s.buffer where attributes.id.kind == .item && attributes.frame.minY >= s.offset {
                if anchor == nil || attributes.id < anchor! { anchor = attributes.id; anchorY = attributes.frame.minY - s.offset }
            }
        }
        for _ in 0..<maxPasses {
            s.pending.removeAll(keepingCapacity: true)
            for attributes in s.buffer {
                if let index = s.globalIndex(of: attributes.id), !s.measured[index] { s.pending.append(attributes) }
            }
            if s.pending.isEmpty { break }
            // UIKit sizes the new cells in index-path order (an insertion sort: the few new items
            // of a step, in place, without allocating).
            for i in 1..<Swift.max(1, s.pending.count) {
                let element = s.pending[i]
                var j = i
                while j > 0, element.id < s.pending[j - 1].id { s.pending[j] = s.pending[j - 1]; j -= 1 }
                s.pending[j] = element
            }
            var invalidated = false
            let bounds = s.bounds(at: s.offset)
            // The collection view's content size through the pass: the layout's, plus each
            // context's adjustment as UIKit adds it; the first item that adjusted it, if any.
            let sizeBefore = layout.contentSize
            var adjustedSize = sizeBefore
            var firstAdjusted: ElementID?
            for original in s.pending {
                s.measured[s.globalIndex(of: original.id)!] = true
                let size = s.data.size(section: original.id.section, item: original.id.index)
                var preferred = original
                preferred.frame.width = s.estimatedWidth > 0 ? size.width : original.frame.width
                preferred.frame.height = size.height
                guard layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original) else { continue }
                let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
                if let problem = Self.problem(of: context) {
                    throw LayoutContract.Violation(check: "self-sizing-context", step: stepName(index, move), element: original.id, detail: problem)
                }
                layout.invalidate(with: context)
                s.offset += context.contentOffsetAdjustment.y
                if context.contentSizeAdjustment != .zero {
                    adjustedSize.width += context.contentSizeAdjustment.width
                    adjustedSize.height += context.contentSizeAdjustment.height
                    if firstAdjusted == nil { firstAdjusted = original.id }
                }
                invalidated = true
            }
            guard invalidated else { break }
            do { try layout.prepare() } catch {
                throw LayoutContract.Violation(
                    check: "prepare", step: stepName(index, move), element: nil, detail: "prepare() threw after preferred attributes: \(error)")
            }
            if let firstAdjusted, let problem = Self.sizeProblem(before: sizeBefore, adjusted: adjustedSize, after: layout.contentSize) {
                throw LayoutContract.Violation(check: "self-sizing-content-size", step: stepName(index, move), element: firstAdjusted, detail: problem)
            }
            try s.scroll(&layout, to: s.offset, step: index, move: move)
        }
        guard let anchor else { return 0 }
        do {
            return try layout.attributes(for: anchor).frame.minY - s.offset - anchorY
        } catch {
            throw LayoutContract.Violation(check: "attributes", step: stepName(index, move), element: anchor, detail: "attributes(for:) threw: \(error)")
        }
    }

    /// Why `context` cannot be applied (a preferred size negative or not finite, an adjustment
    /// not finite), or nil.
    static func problem(of context: InvalidationContext) -> String? {
        if let preferred = context.invalidatedItem {
            let size = preferred.size
            if !(size.width.isFinite && size.height.isFinite && size.width >= 0 && size.height >= 0) {
                return "the layout's invalidation context carries the preferred size (\(size.width), \(size.height)); expected a finite size >= 0"
            }
        }
        if !context.contentOffsetAdjustment.isFinite {
            return "contentOffsetAdjustment (\(context.contentOffsetAdjustment.x), \(context.contentOffsetAdjustment.y)) is not finite"
        }
        let size = context.contentSizeAdjustment
        if !(size.width.isFinite && size.height.isFinite) {
            return "contentSizeAdjustment (\(size.width), \(size.height)) is not finite"
        }
        return nil
    }

    /// Why a pass's content size adjustments disagree with the content size after `prepare()`, or
    /// nil: from `before`, the adjustments made `adjusted`, and the layout reports `after`.
    static func sizeProblem(before: Size, adjusted: Size, after: Size) -> String? {
        guard !ReferenceTolerance.equal(adjusted.width, after.width) || !ReferenceTolerance.equal(adjusted.height, after.height) else { return nil }
        return "contentSizeAdjustment: the pass's contexts adjust the content size by (\(adjusted.width - before.width), \(adjusted.height - before.height)), "
            + "from (\(before.width), \(before.height)) to (\(adjusted.width), \(adjusted.height)), "
            + "but after prepare() the layout's content size is (\(after.width), \(after.height)), a change of (\(after.width - before.width), \(after.height - before.height))"
    }

    private func bounds(at y: Double) -> Rect {
        Rect(x: viewport.minX, y: y, width: viewport.width, height: viewport.height)
    }

    /// The bounds change to offset `y` as UIKit makes it, and the query of the new bounds.
    private func scroll<Layout: CollectionLayout>(_ layout: inout Layout, to y: Double, step: Int, move: SelfSizingTrace.Move) throws {
        offset = y
        let newBounds = bounds(at: y)
        if layout.shouldInvalidate(forBoundsChange: newBounds) {
            layout.invalidate(with: layout.invalidationContext(forBoundsChange: newBounds))
            do { try layout.prepare() } catch {
                throw LayoutContract.Violation(
                    check: "prepare", step: Self.stepName(step, move), element: nil, detail: "prepare() threw after a bounds change: \(error)")
            }
        }
        layout.elements(in: newBounds, into: &buffer)
    }

    /// The global index of an item of the data; nil for anything else.
    @inline(__always)
    private func globalIndex(of id: ElementID) -> Int? {
        guard id.kind == .item, id.section >= 0, id.section < data.sectionCount, id.index >= 0,
              id.index < data.itemCount(inSection: id.section) else { return nil }
        return data.globalIndex(section: id.section, item: id.index)
    }
}

/// One step of the self-sizing trace per timed operation; a fresh session (a layout of the
/// estimated data, built and prepared outside the timing) starts each pass of the trace.
final class LayoutSelfSizingOperation: ConsumingOperation {
    private let make: () throws -> SelfSizingSession
    private let trace: SelfSizingTrace
    private var session: SelfSizingSession?
    private var step = 0

    init(make: @escaping () throws -> SelfSizingSession, trace: SelfSizingTrace) {
        self.make = make
        self.trace = trace
    }

    var traceLength: Int { trace.moves.count }

    func rewind() { session = nil }

    func prepareNext() throws {
        if session == nil || step == trace.moves.count {
            session = nil
            session = try make()
            step = 0
        }
    }

    func runNext() throws -> Int {
        guard let session, step < trace.moves.count else { throw OperationMisuse.notPrepared }
        _ = try session.run(trace.moves[step], step: step, observe: false)
        step += 1
        return Int(truncatingIfNeeded: session.offset.bitPattern)
    }
}
