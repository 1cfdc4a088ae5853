/// The `full` update mode: every change recomputes every frame from scratch, as
/// CHTCollectionViewWaterfallLayout's `prepareLayout` does on each invalidation (O(n·columns)).
/// It is also the reference that the `incremental` mode must match exactly.
public struct FullRecomputeUpdater: LayoutUpdater {
    public let bounds: Rect
    public let styles: [SectionStyle]
    public private(set) var data: LayoutData
    public private(set) var frames: LayoutFrames

    public init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        try UpdaterSupport.validate(bounds: bounds, styles: styles)
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.frames = SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data)
        frames._checkInvariants()
    }

    public mutating func apply(_ change: LayoutChange) throws(LayoutError) {
        try change.apply(to: &data)
        // Lay out into the existing frames so the arrays are reused in place, not reallocated.
        SectionedLayout.computeFrames(bounds: bounds, styles: styles, data: data, into: &frames)
        frames._checkInvariants()
    }
}
