import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-sticky-scroll`: per strategy, `sticky-scroll`'s trace (`StickyScrollTrace`, same keys,
/// same offsets for the same content height) as UIKit drives any layout through it. One operation
/// (`scroll-step`) is one bounds change: `shouldInvalidate(forBoundsChange:)`; when it says yes,
/// `invalidationContext(forBoundsChange:)`, `invalidate(with:)` and `prepare()`; then the new
/// viewport's `elements(in:into:)`.
///
/// Verified before timing at every step (every 10th above 300,000 items), on the answer the timed
/// path gave: every element's frame by `LayoutContract`'s rules for the step's bounds, and the
/// answer exactly the brute force over every element's current `attributes(for:)`, pinned ones
/// included; when the kind declares `sameGeometryAs`, every element against the reference
/// geometry with the built-in pinning at that offset.
package struct LayoutStickyScrollWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = LayoutScrollFixture.Operation

    package static let generic = GenericWorkload.stickyScroll
    package static let about =
        "any registered layout kind: sticky-scroll's trace, each step shouldInvalidate, invalidationContext, invalidate and prepare as UIKit calls them, then the viewport query"

    package static let keys = [StickyScrollWorkload.stepsKey]

    /// Scroll steps in the trace.
    package var steps: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        steps = try spec.int(StickyScrollWorkload.stepsKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.scrollStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: 1) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutScrollFixture {
        try LayoutScrollFixture(build: LayoutBuild(scenario: scenario, items: items), trace: .sticky(steps: steps))
    }
}

/// `layout-reuse-scroll`: per strategy, `reuse-scroll`'s trace (`ScrollTrace`, `frames` offsets)
/// through any layout, with cells reused by reuse identifier. One operation (`scroll-step`) is the
/// bounds change of `layout-sticky-scroll`, the viewport's `elements(in:into:)`, and then the cells:
/// each element that left gives its cell back, each that entered dequeues one for its reuse
/// identifier (`SlotReusePool` over `StackCells`, the `stacks` strategy of `reuse-scroll`). Items
/// draw one of `identifiers` reuse identifiers at random (by `seed`); headers, footers and
/// decorations have one identifier each.
///
/// Verified before timing at every step: the answer as in `layout-sticky-scroll` (every 10th step
/// above 300,000 items), and the cells against `ReuseReference`, a plain simulation of the reuse
/// rules: the visible cells, the cells created and the dequeues after every step, every visible
/// element with one cell of its own identifier. Reported with the timing: `cells_created`,
/// `dequeues`, `peak_pool`, `most_visible`, `cells_needed`.
package struct LayoutReuseScrollWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package typealias Operation = LayoutScrollFixture.Operation

    package static let generic = GenericWorkload.reuseScroll
    package static let about =
        "any registered layout kind: reuse-scroll's trace, each step a bounds change, the viewport query, and cells enqueued and dequeued by reuse identifier"

    /// As `reuse-scroll`'s, but at most 252: headers, footers and decorations take one identifier
    /// each of the 255.
    package static let identifiersKey = WorkloadKey(
        "identifiers", .integer, default: .integer(3), bound: .between(1, 252),
        about: "reuse identifiers the items draw from at random (headers, footers and decorations have one each)")
    package static let keys = [ReuseScrollWorkload.framesKey, identifiersKey, ReuseScrollWorkload.seedKey]

    package var frames: Int
    /// Reuse identifiers the items draw from (headers, footers and decorations add one each).
    package var identifiers: Int
    package var seed: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(ReuseScrollWorkload.framesKey)
        identifiers = try spec.int(Self.identifiersKey)
        seed = try spec.int(ReuseScrollWorkload.seedKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.scrollStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: 1) }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutScrollFixture {
        try LayoutScrollFixture(
            build: LayoutBuild(scenario: scenario, items: items),
            trace: .reuse(frames: frames, identifiers: identifiers, seed: seed))
    }
}

/// The scroll of `layout-sticky-scroll` or `layout-reuse-scroll` at one item count.
package final class LayoutScrollFixture: WorkloadFixture {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One bounds change and the viewport query (and for `layout-reuse-scroll`, the cells).
        case scrollStep = "scroll-step"

        package var timed: String {
            "one step of the trace, in order, wrapping at its end: the new bounds, `shouldInvalidate(forBoundsChange:)` and, "
                + "when it says yes, `invalidationContext(forBoundsChange:)`, `invalidate(with:)` and `prepare()`; then the "
                + "viewport's `elements(in:into:)`; for `layout-reuse-scroll` also the cells given back and dequeued; "
                + "a sample is a batch of consecutive steps, divided"
        }
        package var untimed: String { "the layout's first prepare and the verification pass over the whole trace" }
    }

    enum Trace {
        /// `StickyScrollTrace`, no cells.
        case sticky(steps: Int)
        /// `ScrollTrace`, and cells by reuse identifier.
        case reuse(frames: Int, identifiers: Int, seed: Int)
    }

    let build: LayoutBuild
    let trace: Trace

    init(build: LayoutBuild, trace: Trace) {
        self.build = build
        self.trace = trace
    }

    /// The viewports of the trace, for a layout of `contentHeight`.
    func viewports(contentHeight: Double) -> [Rect] {
        let viewport = build.scenario.viewport
        switch trace {
        case .sticky(let steps):
            return StickyScrollTrace(contentHeight: contentHeight, viewportHeight: viewport.height, steps: steps).offsets.map {
                Rect(x: viewport.minX, y: $0, width: viewport.width, height: viewport.height)
            }
        case .reuse(let frames, _, _):
            let trace = ScrollTrace(contentHeight: contentHeight, viewportHeight: viewport.height, frames: frames)
            return trace.rects(viewport: viewport)
        }
    }

    package func makeMeasurement(mode: LayoutStrategyMode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        let viewports = viewports(contentHeight: layout.contentSize.height)
        let operation = LayoutScrollOperation(layout: layout, viewports: viewports)
        let reference = verify ? try PinnedReference(build: build, mode: mode) : nil
        let checked = Set(ReferenceGeometry.checkedQueryFrames(count: viewports.count, items: build.items))

        // The answers of the whole trace from its first step (the check of the checked steps when
        // verifying), and what the cells need: the most elements visible at once, and the elements
        // other than items and index-0 supplementaries, which get slots of their own.
        var elements: [Double] = []
        var mostVisible = 0
        var extras = Set<ElementID>()
        let slots = ElementSlots(data: build.data)
        if verify || trace.reusesCells {
            elements.reserveCapacity(viewports.count)
            for (step, viewport) in viewports.enumerated() {
                let answer = try self.step(operation, mode: mode, step: step)
                let distinct = Set(answer.map(\.id))
                elements.append(Double(answer.count))
                mostVisible = max(mostVisible, distinct.count)
                for id in distinct where slots.standardSlot(of: id) == nil { extras.insert(id) }
                guard verify, checked.contains(step) else { continue }
                let stepName = "scroll step \(step)"
                let universe: [LayoutAttributes]
                do {
                    universe = try LayoutContract.elementsAfterBoundsChange(
                        of: operation.layout, answer: answer, rect: viewport, data: build.data, bounds: viewport, step: stepName)
                } catch {
                    throw build.failure(mode, error)
                }
                if let violation = reference?.firstDifference(of: universe, bounds: viewport, step: stepName) {
                    throw build.failure(mode, violation)
                }
            }
            operation.rewind()
        }

        var observations: [Observation<Operation>] = verify || trace.reusesCells ? [Observation(.scrollStep, .elements, elements)] : []
        if case .reuse(_, let identifiers, let seed) = trace {
            let reuse = ElementReuse(slots: slots.adding(extras), identifiers: identifiers, seed: seed, mostVisible: mostVisible)
            operation.reuse = reuse
            // The cells along the whole trace, checked against the plain simulation at every step
            // when verifying; the timed pool then starts warm, where this pass ended.
            var oracle = ReuseReference()
            for step in viewports.indices {
                let answer = try self.step(operation, mode: mode, step: step)
                let expected = oracle.step(answer.map(\.id)) { Int(reuse.identifier(of: $0)) }
                if verify, let violation = reuse.firstProblem(answer: answer, expected: expected, step: "scroll step \(step)") {
                    throw build.failure(mode, violation)
                }
            }
            operation.rewind()
            let statistics = reuse.pool.statistics
            observations += [
                Observation(.scrollStep, .cellsCreated, [Double(statistics.cellsCreated)]),
                Observation(.scrollStep, .dequeues, [Double(statistics.dequeues)]),
                Observation(.scrollStep, .peakPool, [Double(statistics.peakPoolSize)]),
                Observation(.scrollStep, .mostVisible, [Double(mostVisible)]),
                Observation(.scrollStep, .cellsNeeded, [Double(oracle.cellsNeeded)]),
            ]
        }
        return ModeMeasurement(operations: [TimedOperation(.scrollStep, .batchable(operation))], observations: observations)
    }

    /// One step of `operation`, untimed; a `prepare()` that throws fails the mode naming the step.
    private func step(_ operation: LayoutScrollOperation, mode: LayoutStrategyMode, step: Int) throws -> [LayoutAttributes] {
        do {
            return try operation.step()
        } catch {
            throw build.failure(mode, LayoutContract.Violation(check: "prepare", step: "scroll step \(step)", element: nil, detail: "prepare() threw: \(error)"))
        }
    }

    package func snapshot(mode: LayoutStrategyMode) throws -> LayoutSnapshot {
        var layout = try build.make(mode)
        try build.prepare(&layout, mode: mode, step: "prepare")
        return build.snapshot(of: layout)
    }
}

extension LayoutScrollFixture.Trace {
    var reusesCells: Bool {
        if case .reuse = self { return true }
        return false
    }
}

/// The reference geometry, with the built-in pinning, of a kind that declares `sameGeometryAs`.
struct PinnedReference {
    let reference: ReferenceLayout
    /// Every element's natural frame, sorted by ID.
    let natural: [ReferenceElement]
    let pinOffset: Double
    let kind: String

    /// Nil when the kind declares no `sameGeometryAs`. `width` is the content width (by default
    /// the scenario viewport's; `layout-resize` asks for each width of its trace).
    init?(build: LayoutBuild, mode: LayoutStrategyMode, width: Double? = nil) throws {
        guard let same = build.kind(of: mode).sameGeometryAs else { return nil }
        do {
            let layout = try build.geometryLayout(same, mode: mode)
            reference = try ReferenceLayout(data: build.data, styles: layout.styles, viewportWidth: width ?? build.scenario.viewport.width)
            pinOffset = layout.pinOffset
            kind = same.kind
        } catch {
            throw build.failure(mode, LayoutContract.Violation(
                check: "same-geometry", step: "prepare", element: nil, detail: "the built-in \(same.kind) layout it declares cannot be built: \(error)"))
        }
        natural = reference.allElements()
    }

    /// The first element (lowest ID) of `elements` — a layout's, sorted by ID, after the bounds
    /// change to `bounds` — whose frame differs from the reference's at that offset, pinned headers
    /// and footers included, or that one of them lacks. A merge of the two sorted lists: this runs
    /// at every step of a scroll.
    func firstDifference(of elements: [LayoutAttributes], bounds: Rect, step: String) -> LayoutContract.Violation? {
        let pinned = Dictionary(
            reference.pinnableSupplementaries(pinOffset: pinOffset, offset: bounds.minY, viewportHeight: bounds.height).map { ($0.id, $0.frame) },
            uniquingKeysWith: { first, _ in first })
        func violation(_ id: ElementID, _ detail: String) -> LayoutContract.Violation {
            LayoutContract.Violation(check: "same-geometry (pinned, as built-in \(kind))", step: step, element: id, detail: detail)
        }
        var i = 0, j = 0
        while i < elements.count || j < natural.count {
            if j == natural.count || (i < elements.count && elements[i].id < natural[j].id) {
                return violation(elements[i].id, "not expected: frame \(elements[i].frame)")
            }
            let expected = pinned[natural[j].id] ?? natural[j].frame
            if i == elements.count || natural[j].id < elements[i].id {
                return violation(natural[j].id, "missing: expected frame \(expected)")
            }
            if !ReferenceTolerance.equal(elements[i].frame, expected) {
                return violation(elements[i].id, "frame \(elements[i].frame), expected \(expected)")
            }
            i += 1
            j += 1
        }
        return nil
    }
}

/// One slot per element a layout of `data` can show, for the reuse pool: section by section, its
/// items, then its header, footer and decoration (index 0); any other element a query returned
/// gets a slot after those.
struct ElementSlots {
    /// The first slot of each section.
    let sectionBase: [Int]
    let itemCounts: [Int]
    let extras: [ElementID: Int32]
    let count: Int

    init(data: LayoutData) {
        var base: [Int] = []
        var counts: [Int] = []
        var next = 0
        for section in 0..<data.sectionCount {
            base.append(next)
            counts.append(data.itemCount(inSection: section))
            next += counts[section] + 3
        }
        sectionBase = base
        itemCounts = counts
        extras = [:]
        count = next
    }

    private init(sectionBase: [Int], itemCounts: [Int], extras: [ElementID: Int32], count: Int) {
        self.sectionBase = sectionBase
        self.itemCounts = itemCounts
        self.extras = extras
        self.count = count
    }

    /// These slots and one more for each of `ids`, in ID order.
    func adding(_ ids: Set<ElementID>) -> ElementSlots {
        var extras = self.extras
        var next = count
        for id in ids.sorted() where extras[id] == nil {
            extras[id] = Int32(next)
            next += 1
        }
        return ElementSlots(sectionBase: sectionBase, itemCounts: itemCounts, extras: extras, count: next)
    }

    /// The slot of an item of the data, or of a section's index-0 header, footer or decoration.
    @inline(__always)
    func standardSlot(of id: ElementID) -> Int? {
        let section = id.section
        guard section >= 0, section < itemCounts.count else { return nil }
        if id.kind == .item {
            return id.index >= 0 && id.index < itemCounts[section] ? sectionBase[section] + id.index : nil
        }
        return id.index == 0 ? sectionBase[section] + itemCounts[section] + Int(id.kind.rawValue) - 1 : nil
    }

    /// The slot of `id`, or -1 for an element never seen.
    @inline(__always)
    func slot(of id: ElementID) -> Int32 {
        if let slot = standardSlot(of: id) { return Int32(slot) }
        return extras[id] ?? -1
    }
}

/// The cells of `layout-reuse-scroll`: the slots, each slot's reuse identifier, and the pool.
final class ElementReuse {
    let slots: ElementSlots
    /// Per slot: an item's drawn identifier (`0 ..< identifiers`); a header's is `identifiers`,
    /// a footer's `identifiers + 1`, a decoration's `identifiers + 2`.
    let identifiers: [UInt8]
    private(set) var pool: SlotReusePool<StackCells>
    /// The answer as slots, reused every step.
    private var answerSlots: [Int32] = []

    init(slots: ElementSlots, identifiers count: Int, seed: Int, mostVisible: Int) {
        self.slots = slots
        var random = SplitMix64(seed: UInt64(seed), stream: 6)
        var identifiers = [UInt8](repeating: 0, count: slots.count)
        for section in slots.itemCounts.indices {
            let base = slots.sectionBase[section], items = slots.itemCounts[section]
            for item in 0..<items { identifiers[base + item] = UInt8(random.next(below: count)) }
            for kind in 1...3 { identifiers[base + items + kind - 1] = UInt8(count + kind - 1) }
        }
        for (id, slot) in slots.extras { identifiers[Int(slot)] = id.kind == .item ? 0 : UInt8(count + Int(id.kind.rawValue) - 1) }
        self.identifiers = identifiers
        // A stack as deep as the most elements ever visible: no free cell is ever dropped, so
        // the cells created are the fewest the trace needs.
        pool = SlotReusePool(source: StackCells(identifierCount: count + 3, capacity: mostVisible + 2), slotCount: slots.count)
        answerSlots.reserveCapacity(max(256, mostVisible * 2))
    }

    func identifier(of id: ElementID) -> UInt8 {
        let slot = slots.slot(of: id)
        return slot >= 0 ? identifiers[Int(slot)] : 0
    }

    /// Shows the cells of `answer`; returns how many elements show one.
    @inline(__always)
    func show(_ answer: [LayoutAttributes]) -> Int {
        answerSlots.removeAll(keepingCapacity: true)
        for attributes in answer {
            let slot = slots.slot(of: attributes.id)
            if slot >= 0 { answerSlots.append(slot) }
        }
        pool.show(answerSlots, identifiers: identifiers)
        return pool.visibleCellCount
    }

    /// How the pool after showing `answer` differs from the plain simulation's `expected`
    /// counts, or from one cell of its own identifier per visible element; nil when it does not.
    func firstProblem(answer: [LayoutAttributes], expected: ReuseReference.Step, step: String) -> LayoutContract.Violation? {
        var owner: [Int: ElementID] = [:]
        for id in Set(answer.map(\.id)).sorted() {
            let slot = slots.slot(of: id)
            guard let cell = pool.cell(forSlot: Int(slot)) else {
                return LayoutContract.Violation(check: "reuse-cell", step: step, element: id, detail: "visible, but it shows no cell")
            }
            if let other = owner.updateValue(id, forKey: cell) {
                return LayoutContract.Violation(check: "reuse-cell", step: step, element: id, detail: "shows cell \(cell), which \(other) shows too")
            }
            let created = pool.cellIdentifiers[cell], own = identifiers[Int(slot)]
            if created != own {
                return LayoutContract.Violation(
                    check: "reuse-cell", step: step, element: id, detail: "of reuse identifier \(own), shows cell \(cell), created for identifier \(created)")
            }
        }
        let statistics = pool.statistics
        let counts: [(String, Int, Int)] = [
            ("reuse-visible", pool.visibleCellCount, expected.visible),
            ("reuse-created", statistics.cellsCreated, expected.created),
            ("reuse-dequeues", statistics.dequeues, expected.dequeues),
            ("reuse-reused", statistics.dequeues - statistics.cellsCreated, expected.reused),
        ]
        for (check, actual, wanted) in counts where actual != wanted {
            return LayoutContract.Violation(
                check: check, step: step, element: nil, detail: "the pool counts \(actual), the plain simulation of the reuse rules \(wanted)")
        }
        return nil
    }
}

/// One scroll step per operation through a registered layout, walking the trace (wrapping): the
/// bounds change as UIKit makes it, the viewport query, and for `layout-reuse-scroll` the cells.
final class LayoutScrollOperation: BatchableOperation {
    private(set) var layout: any CollectionLayout
    private let viewports: [Rect]
    private var next = 0
    private var buffer: [LayoutAttributes] = []
    /// The cells (`layout-reuse-scroll`); nil for `layout-sticky-scroll`.
    var reuse: ElementReuse?

    init(layout: any CollectionLayout, viewports: [Rect]) {
        self.layout = layout
        self.viewports = viewports.isEmpty ? [Rect(x: 0, y: 0, width: 0, height: 0)] : viewports
        buffer.reserveCapacity(4096)
    }

    var traceLength: Int { viewports.count }

    /// The layout stays where the last step left it; the trace starts again at its first step.
    func rewind() { next = 0 }

    func run(count: Int) throws -> Int {
        var checksum = 0
        for _ in 0..<count {
            try Self.scroll(&layout, to: viewports[next], into: &buffer)
            checksum &+= buffer.count
            if let reuse { checksum &+= reuse.show(buffer) }
            next += 1
            if next == viewports.count { next = 0 }
        }
        return checksum
    }

    /// One step, returning its answer (for verification, untimed).
    func step() throws -> [LayoutAttributes] {
        _ = try run(count: 1)
        return buffer
    }

    /// A bounds change as UIKit makes it, then the query of the new bounds.
    static func scroll<Layout: CollectionLayout>(_ layout: inout Layout, to bounds: Rect, into buffer: inout [LayoutAttributes]) throws {
        try LayoutBoundsChange.apply(to: &layout, bounds: bounds)
        layout.elements(in: bounds, into: &buffer)
    }
}

/// A bounds change as UIKit makes it: `shouldInvalidate(forBoundsChange:)`; when it says yes,
/// `invalidationContext(forBoundsChange:)`, `invalidate(with:)` that context and `prepare()`. The
/// scroll workloads' steps, and `dump`/`render --offset` of a registered layout.
enum LayoutBoundsChange {
    static func apply<Layout: CollectionLayout>(to layout: inout Layout, bounds: Rect) throws {
        if layout.shouldInvalidate(forBoundsChange: bounds) {
            layout.invalidate(with: layout.invalidationContext(forBoundsChange: bounds))
            try layout.prepare()
        }
    }
}
