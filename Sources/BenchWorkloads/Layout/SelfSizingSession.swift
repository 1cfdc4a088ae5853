import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

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
