import LayoutEngine

/// What an update mode's frames must equal after every change of a trace: the full recompute for
/// `full` and `incremental` (the same placement, computed from scratch), and the independent
/// `StableLanesReference` for `stable-lanes` (a placement of its own).
public protocol UpdateExpectation {
    /// The data after the changes so far.
    var data: LayoutData { get }
    /// Follows one change; throws what the update modes throw for it.
    mutating func apply(_ change: LayoutChange) throws(LayoutError)
    /// How `frames` differ from the expected frames, or nil.
    func firstDifference(of frames: LayoutFrames) -> String?
}

extension FullRecomputeUpdater: UpdateExpectation {
    public func firstDifference(of frames: LayoutFrames) -> String? {
        frames.firstDifference(from: self.frames)
    }
}

extension WaterfallUpdateMode {
    /// What this mode's frames must equal after every change.
    public func makeExpectation(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError)
        -> any UpdateExpectation
    {
        switch self {
        case .full, .incremental: return try FullRecomputeUpdater(bounds: bounds, styles: styles, data: data)
        case .stableLanes: return try StableLanesReference(bounds: bounds, styles: styles, data: data)
        case .lockLanes: return try LockLanesReference(bounds: bounds, styles: styles, data: data)
        }
    }
}
