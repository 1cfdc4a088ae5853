import LayoutEngine

/// A laid-out scenario to look at: what `layout-bench dump` prints and `render` draws.
///
/// Each workload's fixture says what its modes look like (`WorkloadFixture.snapshot(mode:)`):
/// for `prepare` and `query` the prepared layout (queried with the chosen query mode), for
/// `append` and `edit` the layout the update mode produced after the workload's whole trace.
/// Headers and footers whose `styles` pin them are shown where they are at a scroll offset
/// (docs/engine-semantics.md); without styles nothing pins.
///
/// Pinning is the layout's, whatever the workload: a snapshot taken from a plan carries the
/// scenario's styles and pinOffset unless its fixture laid the frames out with styles of its own
/// (the `sticky-scroll` baseline, which pins nothing by design).
public struct LayoutSnapshot {
    public var frames: LayoutFrames
    public var queryMode: RectQueryMode
    public var viewport: Rect
    /// The styles the frames were laid out with (their pins say what moves with the offset).
    public var styles: [SectionStyle]
    public var pinOffset: Double
    /// A registered layout that keeps no `LayoutFrames` (every `layout-*` workload): its content
    /// height, and the layout scrolled to an offset — its elements there, and its own rect query.
    var registered: (contentHeight: Double, at: (Double) -> (elements: [LayoutAttributes], query: (Rect) -> [LayoutAttributes]))?

    public init(
        frames: LayoutFrames, queryMode: RectQueryMode, viewport: Rect, styles: [SectionStyle] = [], pinOffset: Double = 0
    ) {
        self.frames = frames
        self.queryMode = queryMode
        self.viewport = viewport
        self.styles = styles
        self.pinOffset = pinOffset
    }

    /// A registered layout as it answers at a scroll offset: `elements` gives every element of a
    /// copy of the layout scrolled there, as UIKit scrolls it (`LayoutBoundsChange`), so a layout
    /// that pins its headers shows them pinned; the query is that copy's `elements(in:into:)`.
    init(layout: any CollectionLayout, viewport: Rect, elements: @escaping (any CollectionLayout, Rect) -> [LayoutAttributes]) {
        self.init(frames: LayoutFrames(), queryMode: .linear, viewport: viewport)
        registered = (layout.contentSize.height, { offset in
            var scrolled = layout
            let bounds = Rect(x: viewport.x, y: viewport.y + offset, width: viewport.width, height: viewport.height)
            // A layout whose prepare() throws here shows as it was at offset 0.
            if (try? LayoutBoundsChange.apply(to: &scrolled, bounds: bounds)) == nil { scrolled = layout }
            return (elements(scrolled, bounds), { [scrolled] rect in
                var results: [LayoutAttributes] = []
                scrolled.elements(in: rect, into: &results)
                return results
            })
        })
        styles = [SectionStyle()]  // nothing pins beyond what the layout itself reports
    }

    /// The height of the content.
    public var contentHeight: Double { registered?.contentHeight ?? frames.contentHeight }

    /// The snapshot of one of the plan's modes at `items` items, from its workload.
    public init(plan: BenchmarkPlan, mode: any WorkloadMode, items: Int) throws {
        self = try plan.workload.makeGroup(scenario: plan.scenario, items: items).snapshot(mode: mode)
        if styles.isEmpty {
            styles = plan.scenario.makeStyles()
            pinOffset = plan.scenario.layout.pinOffset
        }
    }

    /// Elements whose frame intersects `rect` by the snapshot's query mode, or every element, with
    /// the headers and footers that pin where they are at scroll offset `offset`.
    public func elements(in rect: Rect?, offset: Double = 0) -> [LayoutAttributes] {
        if let registered {
            let scrolled = registered.at(offset)
            return (rect.map(scrolled.query) ?? scrolled.elements).sorted { $0.id < $1.id }
        }
        var pinned = PinnedElements()
        if !styles.isEmpty {
            pinned.configure(frames: frames, styles: styles)
            pinned.update(mode: .cached, frames: frames, visibleTop: offset + pinOffset, visibleBottom: offset + viewport.height)
        }
        guard let rect else {
            let all = frames.allElements()
            return pinned.isEmpty ? all : all.map { pinned.attributes(of: $0.id, frames: frames) ?? $0 }
        }
        var results: [LayoutAttributes] = []
        queryMode.makeIndex(frames: frames).elements(in: rect, frames: frames, into: &results)
        if !pinned.isEmpty { pinned.applyPinnedFrames(in: rect, frames: frames, to: &results) }
        return results.sorted { $0.id < $1.id }
    }
}
