import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// `layout-resize`: per strategy, a trace of viewport widths — a phone turned and turned back, or
/// an iPad window through the widths of Split View, Slide Over and Stage Manager — walked as UIKit
/// drives any layout through a width change. One operation (`resize-step`) is one bounds change of
/// a new width: `shouldInvalidate(forBoundsChange:)`; when it says yes,
/// `invalidationContext(forBoundsChange:)`, `invalidate(with:)` and `prepare()`; then the new
/// viewport's `elements(in:into:)` — the `scroll-step` of `layout-sticky-scroll`
/// (`LayoutScrollOperation`), along widths instead of offsets.
///
/// The layout starts at the scenario's viewport. Each step sets the next width of the trace (the
/// `trace` key, or `widths`), every one different from the one before it (the last from the
/// first too, where the trace wraps), so every step is a width change. The viewport's top stays at
/// one content offset, half the scrollable height at the starting width, clamped to each width's
/// scrollable height (as a scroll view keeps its `contentOffset` through a rotation and clamps it
/// to the new content). The items keep their sizes: a height that depends on the width is
/// self-sizing, not a bounds change.
///
/// Verified before timing at every step (above 300,000 items the first, middle and last), on the
/// state the timed path leaves: the answer by `LayoutContract`'s rules for the step's bounds, and
/// every element and the content size equal to those of a fresh layout of the kind built at the
/// new width (its factory with the new bounds at offset 0, prepared, then moved to the step's
/// offset by the same bounds change; check `resize-equals-fresh`); when the kind declares
/// `sameGeometryAs`, every element against the reference geometry at the new width with the
/// built-in pinning at that offset. A layout whose `shouldInvalidate` says no to a width change,
/// or that keeps frames of the old width, fails at the first step that moves an element, naming it.
package struct LayoutResizeWorkload: GenericLayoutWorkload {
    package typealias Mode = LayoutStrategyMode
    package enum Operation: String, WorkloadOperation {
        /// One width change and the viewport query.
        case resizeStep = "resize-step"

        package var timed: String {
            "one width change of the trace, in order, wrapping at its end: the new bounds (the next width, the content offset kept "
                + "and clamped), `shouldInvalidate(forBoundsChange:)` and, when it says yes, `invalidationContext(forBoundsChange:)`, "
                + "`invalidate(with:)` and `prepare()`; then the viewport's `elements(in:into:)`; a sample is a batch of consecutive steps, divided"
        }
        package var untimed: String {
            "the layout's first prepare, a fresh layout at each width of the trace (for its content height), and the verification pass over the whole trace"
        }
    }

    /// The width traces `trace` names.
    package enum Trace: String, CaseIterable, Sendable {
        /// The viewport turned and back: W × H, then H × W, then W × H again (390 × 844 ↔ 844 × 390).
        case rotation
        /// An iPad window resized through Split View, Slide Over and Stage Manager widths, at the
        /// viewport's height: `splitViewWidths`.
        case splitView = "split-view"
    }

    /// The widths of `split-view`, in the order the trace visits them: two thirds and half of a
    /// 1024-pt screen, Slide Over, a compact window, an iPad mini's full width, the full 1024 pt.
    package static let splitViewWidths: [Double] = [694, 507, 320, 375, 768, 1024]

    package static let generic = GenericWorkload.resize
    package static let about =
        "any registered layout kind: a trace of viewport widths (a rotation, iPad split-view widths), each a bounds change through shouldInvalidate, invalidationContext, invalidate and prepare, then the viewport query"

    package static let maxWidths = 64
    package static let traceKey = WorkloadKey(
        "trace", choosing: Trace.rotation,
        about: "the widths the viewport takes in turn: `rotation` (the viewport turned, its width and height swapped, and back) "
            + "or `split-view` (694, 507, 320, 375, 768 and 1024 pt at the viewport's height: an iPad's Split View, Slide Over and Stage Manager widths)")
    package static let widthsKey = WorkloadKey(
        "widths", .numbers, default: .described("the widths of `trace`"), bound: .positiveSize, maxCount: maxWidths,
        about: "instead of `trace`: the widths the viewport takes in turn, at its height; each differs from the one before it "
            + "(the first from the viewport's, the last from the first)")
    package static let keys = [traceKey, widthsKey]

    package var trace: Trace
    /// `widths` as written (nil when the trace is `trace`'s).
    package var widths: [Double]?

    package init(spec: JSONReader) throws(ScenarioError) {
        let given = spec.has(Self.traceKey.name)
        trace = try spec.choice(Self.traceKey, default: Trace.rotation)
        let widthsKey = Self.widthsKey
        if let nodes = try spec.optionalArray(widthsKey.name) {
            if given { throw spec.error(at: widthsKey.name, "give either trace or widths, not both") }
            guard !nodes.isEmpty, nodes.count <= Self.maxWidths else {
                throw spec.error(at: widthsKey.name, "expected 1 to \(Self.maxWidths) widths, got \(nodes.count)")
            }
            var list: [Double] = []
            for node in nodes { list.append(try node.double(widthsKey.bound)) }
            widths = list
        }
        try spec.finish()
    }

    package var operations: [Operation] { [.resizeStep] }
    package var footprint: WorkloadFootprint { WorkloadFootprint(keptAnswerFrames: 1) }

    /// The viewport sizes of the trace, in order, for a scenario whose viewport is `viewport`.
    package func sizes(viewport: Size) -> [Size] {
        if let widths { return widths.map { Size(width: $0, height: viewport.height) } }
        switch trace {
        case .rotation: return [Size(width: viewport.height, height: viewport.width), viewport]
        case .splitView: return Self.splitViewWidths.map { Size(width: $0, height: viewport.height) }
        }
    }

    /// Refuses a step that does not change the width, and for a built-in kind a width its
    /// section styles do not fit (horizontal insets, columns and spacing), naming the width.
    package func validate(_ scenario: Scenario) throws(ScenarioError) {
        try validateKind(scenario)
        let sizes = sizes(viewport: scenario.viewportSize)
        // The field of step `i`: its entry of `widths`, or `trace`.
        func refuse(_ i: Int, _ message: String) -> ScenarioError {
            let workload = ScenarioWorkload.path
            let path = widths == nil
                ? JSONPath.appending(workload, key: Self.traceKey.name)
                : JSONPath.appending(JSONPath.appending(workload, key: Self.widthsKey.name), index: i)
            return ScenarioError(file: scenario.workload.file, path: path, message: message)
        }
        for (i, size) in sizes.enumerated() {
            let before = i == 0 ? scenario.viewportSize.width : sizes[i - 1].width
            if size.width == before {
                let what = i == 0 ? "the viewport's width, where the layout starts" : "the width before it"
                throw refuse(i, "width \(format(size.width)) (step \(i)) equals \(what): every step must change the width")
            }
        }
        if let first = sizes.first, let last = sizes.last, first.width == last.width {
            throw refuse(
                sizes.count - 1, "the last width \(format(last.width)) equals the first, where the trace wraps: every step must change the width")
        }
        guard !scenario.isRegisteredLayout else { return }
        for (i, size) in sizes.enumerated() {
            for style in scenario.layout.styles {
                do {
                    try style.validate(contentWidth: size.width, field: "layout")
                } catch {
                    throw refuse(i, "the layout does not fit width \(format(size.width)) (step \(i)): \(error)")
                }
            }
        }
    }

    package func makeFixture(scenario: Scenario, items: Int) throws -> LayoutResizeFixture {
        try LayoutResizeFixture(build: LayoutBuild(scenario: scenario, items: items), sizes: sizes(viewport: scenario.viewportSize))
    }
}
