import Testing
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchResults
import LayoutEngine
import LayoutReference
import BenchStatistics
import HarnessTestSupport

/// The engine's list behind `CollectionLayout`, with two ways to break its self-sizing: `keeps`
/// answers UIKit's default (no invalidation) to every preferred size, so items keep their
/// estimates; `nanAdjustment` returns a context whose offset adjustment is NaN; `doubledSize`
/// one whose content size adjustment is twice the real change.
struct SelfSizingListLayout: CollectionLayout {
    var base: SectionedLayout
    var keeps: Bool
    var nanAdjustment: Bool
    var doubledSize = false

    var contentSize: Size { base.contentSize }
    mutating func prepare() throws { try base.prepare() }
    mutating func invalidate(with context: InvalidationContext) { base.invalidate(with: context) }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { base.shouldInvalidate(forBoundsChange: newBounds) }
    func elements(in rect: Rect, into results: inout [LayoutAttributes]) { base.elements(in: rect, into: &results) }
    func attributes(for element: ElementID) throws -> LayoutAttributes { try base.attributes(for: element) }

    func shouldInvalidateLayout(forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes) -> Bool {
        !keeps && base.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original)
    }

    func invalidationContext(
        forPreferredLayoutAttributes preferred: LayoutAttributes, withOriginalAttributes original: LayoutAttributes, visibleBounds bounds: Rect
    ) -> InvalidationContext {
        var context = base.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
        if nanAdjustment { context.contentOffsetAdjustment.y = .nan }
        if doubledSize { context.contentSizeAdjustment.height *= 2 }
        return context
    }
}

enum SelfSizingKinds {
    /// `test-self-sizing`: a list (one section, `lineSpacing`, no header) anchored by `anchor`, its
    /// offsets in the structure `offsets` names (`none`: laid out again on every preferred size).
    static let registered: Void = {
        try! LayoutCatalog.registerIfAbsent(LayoutKind(
            name: "test-self-sizing", about: "a self-sizing list",
            keys: [
                .number("lineSpacing", default: 0, in: 0...20),
                .string("anchor", default: "none", oneOf: ScrollAnchorMode.allCases.map(\.rawValue)),
                .string("offsets", default: "none", oneOf: ["none"] + RowOffsetsMode.allCases.map(\.rawValue)),
            ],
            workloads: [.selfSizing],
            strategies: [
                LayoutStrategy(name: "test-self-sizing", about: "correct", reproduces: "a test layout"),
                LayoutStrategy(name: "test-self-sizing-keeps", about: "broken on purpose: keeps its estimates", reproduces: "a bug"),
                LayoutStrategy(name: "test-self-sizing-nan", about: "broken on purpose: a NaN offset adjustment", reproduces: "a bug"),
                LayoutStrategy(name: "test-self-sizing-size", about: "broken on purpose: twice the content size's change", reproduces: "a bug"),
            ],
            factory: { input in
                let style = SectionStyle(kind: .list, lineSpacing: try input.number("lineSpacing"))
                let base = try SectionedLayout(
                    bounds: input.bounds, styles: [style], data: input.data,
                    selfSizingAnchor: ScrollAnchorMode(rawValue: try input.string("anchor"))!,
                    offsets: RowOffsetsMode(rawValue: try input.string("offsets")))
                return SelfSizingListLayout(
                    base: base, keeps: input.strategy == "test-self-sizing-keeps", nanAdjustment: input.strategy == "test-self-sizing-nan",
                    doubledSize: input.strategy == "test-self-sizing-size")
            }))
    }()
}

/// A self-sizing list written the plainest way, independently of the workload and the engine:
/// row heights in an array, offsets summed from row 0 every time they are needed, the steps of
/// the trace as UIKit makes them (the rows in view that have not reported, in index order, each
/// against the offset the pass started at; the offset moved by the anchoring rule; again until no
/// row in view is new). Gives `anchor_jump` and `size_churn`.
struct PlainSelfSizingList {
    var heights: [Double]
    let trueHeights: [Double]
    let spacing: Double
    let viewportHeight: Double
    let anchor: ScrollAnchorMode
    var measured: [Bool]
    var offset = 0.0
    var anchorJump = 0.0
    var sizeChurn = 0.0

    init(estimate: Double, trueHeights: [Double], spacing: Double, viewportHeight: Double, anchor: ScrollAnchorMode) {
        heights = Array(repeating: estimate, count: trueHeights.count)
        self.trueHeights = trueHeights
        self.spacing = spacing
        self.viewportHeight = viewportHeight
        self.anchor = anchor
        measured = Array(repeating: false, count: trueHeights.count)
    }

    func top(_ row: Int) -> Double {
        var y = 0.0
        for i in 0..<row { y += heights[i] + spacing }
        return y
    }

    var contentHeight: Double { heights.isEmpty ? 0 : top(heights.count - 1) + heights[heights.count - 1] }

    func visible(at y: Double) -> [Int] {
        (0..<heights.count).filter { row in
            let t = top(row)
            return heights[row] > 0 && t < y + viewportHeight && t + heights[row] > y
        }
    }

    mutating func step(_ move: SelfSizingTrace.Move) {
        let before = contentHeight
        let target: Double
        switch move {
        case .by(let dy): target = offset + dy
        case .jump(let fraction): target = before * fraction
        }
        offset = min(max(0, target), max(0, before - viewportHeight))
        let anchorRow = visible(at: offset).first { top($0) >= offset }
        let anchorScreen = anchorRow.map { top($0) - offset }
        for _ in 0..<SelfSizingSession.maxPasses {
            let new = visible(at: offset).filter { !measured[$0] }
            if new.isEmpty { break }
            let passOffset = offset
            let tops = new.map(top)
            var changed = false
            for (row, rowTop) in zip(new, tops) {
                measured[row] = true
                let delta = trueHeights[row] - heights[row]
                guard delta != 0 else { continue }
                switch anchor {
                case .none: break
                case .exact, .tanstack: if rowTop < passOffset { offset += delta }
                case .flutter: if rowTop < passOffset - ScrollAnchorMode.flutterCacheExtent { offset += delta }
                }
                heights[row] = trueHeights[row]
                changed = true
            }
            if !changed { break }
        }
        if let anchorRow, let anchorScreen { anchorJump += (top(anchorRow) - offset - anchorScreen).magnitude }
        sizeChurn += (contentHeight - before).magnitude
    }
}

@Suite struct LayoutSelfSizingWorkloadTests {
    init() {
        TestKinds.registered
        SelfSizingKinds.registered
    }

    static func scenario(
        items: Int, spacing: Double, anchor: ScrollAnchorMode, estimate: Double, steps: Int, seed: Int, mode: String, offsets: RowOffsetsMode? = nil
    ) -> String {
        scenarioJSON(
            layout: #"{"kind": "test-self-sizing", "lineSpacing": \#(spacing), "anchor": "\#(anchor.rawValue)", "offsets": "\#(offsets?.rawValue ?? "none")"}"#,
            data: #"{"generate": {"sections": 1, "heights": {"distribution": "uniform", "min": 20, "max": 160}, "seed": \#(seed)}}"#,
            workload: #"{"kind": "layout-self-sizing", "steps": \#(steps), "estimatedHeight": \#(estimate)}"#,
            modes: "[\"\(mode)\"]", items: "[\(items)]")
    }

    /// The mode's measurement (verified) or its verification failure.
    static func measure(_ text: String, items: Int) throws -> Result<[Metric: Double], VerificationError> {
        let plan = try BenchmarkPlan(scenario: try parseScenario(text))
        do {
            let measured = try plan.workload.makeGroup(scenario: plan.scenario, items: items).measure(mode: plan.modes[0], verify: true)
            var values: [Metric: Double] = [:]
            for observation in measured.observations { values[observation.metric] = observation.values.first }
            return .success(values)
        } catch let error as VerificationError {
            return .failure(error)
        }
    }

    /// Differential, on seeded random self-sizing lists under every anchoring rule and every
    /// offsets structure (and none: laid out again): the built-in list passes the verification
    /// (`self-sizing-equals-fresh`, `self-sizing-content-size`), and its `anchor_jump` and
    /// `size_churn` are the plain model's. Exact anchoring keeps the first visible row still; no
    /// anchoring does not, somewhere. One shard per structure.
    @Test(arguments: [nil] + RowOffsetsMode.allCases.map(Optional.some))
    func selfSizingAgreesWithThePlainModel(offsets: RowOffsetsMode?) throws {
        var rng = SplitMix64(seed: 4949)
        var jumpsWithoutAnchoring = 0
        for _ in 0..<24 {
            let items = rng.nextInt(in: 30...400)
            let spacing = [0.0, 1, 4][rng.nextInt(in: 0...2)]
            let estimate = [30.0, 44, 90][rng.nextInt(in: 0...2)]
            let anchor = ScrollAnchorMode.allCases[rng.nextInt(in: 0...3)]
            let steps = rng.nextInt(in: 6...80)
            let seed = rng.nextInt(in: 1...1000)
            let text = Self.scenario(
                items: items, spacing: spacing, anchor: anchor, estimate: estimate, steps: steps, seed: seed, mode: "test-self-sizing", offsets: offsets)
            let values = try Self.measure(text, items: items).get()
            let data = try parseScenario(text).makeData(items: items)
            var plain = PlainSelfSizingList(
                estimate: estimate, trueHeights: data.heights, spacing: spacing, viewportHeight: 844, anchor: anchor)
            for move in SelfSizingTrace(steps: steps).moves { plain.step(move) }
            let jump = try #require(values[.anchorJump]), churn = try #require(values[.sizeChurn])
            #expect(abs(jump - plain.anchorJump) <= 1e-6 * max(1, plain.anchorJump), "\(text): anchor_jump \(jump), the plain model's \(plain.anchorJump)")
            #expect(abs(churn - plain.sizeChurn) <= 1e-6 * max(1, plain.sizeChurn), "\(text): size_churn \(churn), the plain model's \(plain.sizeChurn)")
            if anchor == .exact { #expect(plain.anchorJump < 1e-6) }
            if anchor == .none, plain.anchorJump > 1 { jumpsWithoutAnchoring += 1 }
        }
        #expect(jumpsWithoutAnchoring >= 1, "no random case without anchoring moved the first visible row")
    }

    /// A layout that keeps its estimates is caught at the first step, naming an item; one whose
    /// context carries a NaN adjustment is refused, naming the layout, the step and the item.
    @Test func brokenSelfSizingIsCaught() throws {
        let keeps = Self.scenario(items: 200, spacing: 1, anchor: .exact, estimate: 44, steps: 30, seed: 7, mode: "test-self-sizing-keeps")
        guard case .failure(let kept) = try Self.measure(keeps, items: 200) else {
            Issue.record("a layout that keeps its estimates passed")
            return
        }
        #expect(kept.description.contains(
            "layout test-self-sizing (mode test-self-sizing-keeps): check self-sizing-equals-fresh at layout-self-sizing step 0 (down 12.0 pt): element item[0,"),
            "\(kept)")
        #expect(kept.description.contains("kept its estimated height 44.0"), "\(kept)")
        let nan = Self.scenario(items: 200, spacing: 1, anchor: .none, estimate: 44, steps: 30, seed: 7, mode: "test-self-sizing-nan")
        guard case .failure(let refused) = try Self.measure(nan, items: 200) else {
            Issue.record("a NaN adjustment passed")
            return
        }
        #expect(refused.description.contains(
            "layout test-self-sizing (mode test-self-sizing-nan): check self-sizing-context at layout-self-sizing step 0 (down 12.0 pt): element item[0,0]: contentOffsetAdjustment (0.0, nan) is not finite"),
            "\(refused)")
        let size = Self.scenario(items: 200, spacing: 1, anchor: .none, estimate: 44, steps: 30, seed: 7, mode: "test-self-sizing-size")
        guard case .failure(let wrongSize) = try Self.measure(size, items: 200) else {
            Issue.record("a content size adjustment twice the real change passed")
            return
        }
        #expect(wrongSize.description.contains(
            "layout test-self-sizing (mode test-self-sizing-size): check self-sizing-content-size at layout-self-sizing step 0 (down 12.0 pt): element item[0,0]: contentSizeAdjustment: "),
            "\(wrongSize)")
        // The same scenario with the correct strategy passes.
        guard case .success = try Self.measure(keeps.replacingOccurrences(of: "test-self-sizing-keeps", with: "test-self-sizing"), items: 200) else {
            Issue.record("the correct layout failed")
            return
        }
    }

    /// `UICollectionViewLayout`'s defaults: no invalidation, and a context naming the item with
    /// nothing adjusted.
    @Test func protocolDefaultsAreUIKits() throws {
        struct Plain: CollectionLayout {
            var contentSize: Size { Size(width: 100, height: 100) }
            mutating func prepare() throws {}
            mutating func invalidate(with context: InvalidationContext) {}
            func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { false }
            func elements(in rect: Rect, into results: inout [LayoutAttributes]) { results.removeAll() }
            func attributes(for element: ElementID) throws -> LayoutAttributes { LayoutAttributes(id: element, frame: .zero) }
        }
        let original = LayoutAttributes(id: .item(3, section: 1), frame: Rect(x: 0, y: 10, width: 100, height: 44))
        var preferred = original
        preferred.frame.height = 80
        let layout = Plain()
        #expect(!layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
        let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: .zero)
        #expect(context == InvalidationContext(invalidatedItem: PreferredSize(item: .item(3, section: 1), size: Size(width: 100, height: 80))))
        #expect(context.contentOffsetAdjustment == .zero && context.contentSizeAdjustment == .zero)
        #expect(_isPOD(InvalidationContext.self), "the context must stay a plain value, copied without reference counting")
    }

    /// The built-in list's adjustment under each rule, for an item above, straddling and below
    /// the viewport top, and a preferred size the data refuses thrown by the next prepare.
    @Test func sectionedLayoutAnchorsByItsRule() throws {
        let data = try LayoutData(widths: Array(repeating: 0, count: 40), heights: Array(repeating: 50, count: 40), counts: [40])
        let bounds = Rect(x: 0, y: 600, width: 320, height: 400)
        for (anchor, expected) in [(ScrollAnchorMode.none, [0.0, 0, 0, 0]), (.exact, [30, 30, 30, 0]), (.tanstack, [30, 30, 30, 0]), (.flutter, [30, 0, 0, 0])] {
            var layout = try SectionedLayout(bounds: bounds, styles: [SectionStyle(kind: .list)], data: data, selfSizingAnchor: anchor)
            try layout.prepare()
            for (row, want) in zip([2, 8, 11, 12], expected) {
                let original = try layout.attributes(for: .item(row, section: 0))
                var preferred = original
                preferred.frame.height += 30
                #expect(layout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original))
                let context = layout.invalidationContext(forPreferredLayoutAttributes: preferred, withOriginalAttributes: original, visibleBounds: bounds)
                #expect(context.contentOffsetAdjustment.y == want, "\(anchor) row \(row)")
                #expect(context.contentSizeAdjustment.height == 30)
            }
            var context = InvalidationContext(invalidatedItem: PreferredSize(item: .item(5, section: 0), size: Size(width: 320, height: 80)))
            layout.invalidate(with: context)
            try layout.prepare()
            #expect(try layout.attributes(for: .item(6, section: 0)).frame.minY == 5 * 50 + 80)
            #expect(layout.contentSize.height == 39 * 50 + 80)
            context.invalidatedItem = PreferredSize(item: .item(5, section: 0), size: Size(width: 320, height: -1))
            layout.invalidate(with: context)
            #expect(throws: LayoutError.self) { try layout.prepare() }
        }
    }

    @Test func aKindWithoutSelfSizingIsRefusedAtLoad() throws {
        do {
            _ = try BenchmarkPlan(scenario: try parseScenario(stackScenario(workload: #"{"kind": "layout-self-sizing"}"#)))
            Issue.record("layout-self-sizing was accepted")
        } catch {
            #expect("\(error)".contains(#"layout kind "test-stack" does not support "layout-self-sizing""#), "\(error)")
            #expect("\(error)".contains("(it does not declare that it applies preferred attributes; docs/your-layout.md)"), "\(error)")
        }
    }

    @Test func badKeysAreRefused() throws {
        for (workload, path) in [
            (#"{"kind": "layout-self-sizing", "steps": 3}"#, "workload.steps"),
            (#"{"kind": "layout-self-sizing", "estimatedHeight": -1}"#, "workload.estimatedHeight"),
            (#"{"kind": "layout-self-sizing", "estimatedWidth": 1e300}"#, "workload.estimatedWidth"),
        ] {
            let text = scenarioJSON(layout: #"{"kind": "list"}"#, workload: workload, modes: #"["list"]"#, items: "[100]")
            do {
                _ = try BenchmarkPlan(scenario: try parseScenario(text))
                Issue.record("\(workload) was accepted")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
        expectScenarioError(
            scenarioJSON(layout: #"{"kind": "list", "selfSizingAnchor": "sideways"}"#, workload: #"{"kind": "layout-self-sizing"}"#, modes: #"["list"]"#),
            path: "layout.selfSizingAnchor", "sideways")
    }
}
