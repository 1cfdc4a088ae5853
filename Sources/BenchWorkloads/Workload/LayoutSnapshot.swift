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
package struct LayoutSnapshot {
    package var frames: LayoutFrames
    package var queryMode: RectQueryMode
    package var viewport: Rect
    /// The styles the frames were laid out with (their pins say what moves with the offset).
    package var styles: [SectionStyle]
    package var pinOffset: Double
    /// A registered layout that keeps no `LayoutFrames` (every `layout-*` workload): its content
    /// height, and the layout scrolled to an offset — its elements there, and its own rect query.
    var registered: (contentHeight: Double, at: (Double) -> (elements: [LayoutAttributes], query: (Rect) -> [LayoutAttributes]))?

    package init(
        frames: LayoutFrames, queryMode: RectQueryMode, viewport: Rect, styles: [SectionStyle] = [], pinOffset: Double = 0
    ) {
        self.frames = frames
        self.queryMode = queryMode
        self.viewport = viewport
        self.styles = styles
        self.pinOffset = pinOffset
    }

    /// The height of the content.
    package var contentHeight: Double { registered?.contentHeight ?? frames.contentHeight }

    /// Elements whose frame intersects `rect` by the snapshot's query mode, or every element, with
    /// the headers and footers that pin where they are at scroll offset `offset`.
    package func elements(in rect: Rect?, offset: Double = 0) -> [LayoutAttributes] {
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
        queryMode.make(frames: frames).elements(in: rect, frames: frames, into: &results)
        if !pinned.isEmpty { pinned.applyPinnedFrames(in: rect, frames: frames, to: &results) }
        return results.sorted { $0.id < $1.id }
    }
}
