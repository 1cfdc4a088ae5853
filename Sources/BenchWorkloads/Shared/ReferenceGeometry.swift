import LayoutEngine
import LayoutReference

/// Verification against the independent reference geometry (`LayoutReference`, a plain
/// implementation of docs/engine-semantics.md that shares no code with the engine's fast paths), and how much of
/// it a large layout gets.
///
/// - `prepare`: the frames of every mode (after the fresh prepare, or after `relayout`'s
///   invalidate-and-prepare) against the reference.
/// - `query`: the prepared layout's frames against the reference, then `linear`'s answer on the
///   trace's frames against the reference's answer as a set; every exact mode must then return
///   `linear`'s answer on every frame (so it equals the reference's where that was checked).
/// - `append`, `edit`: `full` and `incremental` against the reference after the checked changes
///   (and `incremental` against the engine's full recompute, which `full` is, after every change); `stable-lanes` against the
///   reference while only appends have happened (its own placement differs after edits) and
///   against `StableLanesReference` after every change.
///
/// Up to `ReferenceCoverage.wholeLayoutItemLimit` (300,000) items everything is checked: every
/// element, every trace frame, every change. Above, a deterministic sample: the reference's own
/// sample of sections and items (`ReferenceCoverage.sample`), every `queryFrameStride`-th trace
/// frame, and the first, middle and last change of an update trace.
enum ReferenceGeometry {
    /// The reference layout of `data`.
    static func layout(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws -> ReferenceLayout {
        try ReferenceLayout(data: data, styles: styles, viewportWidth: bounds.width)
    }

    /// The first difference of `frames` from the reference layout of `data`, or nil.
    static func firstMismatch(of frames: LayoutFrames, bounds: Rect, styles: [SectionStyle], data: LayoutData) throws -> String? {
        let reference = try layout(bounds: bounds, styles: styles, data: data)
        return ReferenceCheck.firstMismatch(of: frames, against: reference).map { "against the reference layout: \($0)" }
    }

    /// The reference layout of one data set, built on first use and kept for a whole group: every
    /// trace of `append` and `edit` starts from the same data, and every mode is checked against
    /// its layout before the first change, so one layout serves them all instead of one per mode
    /// and trace. Other data is laid out afresh, as `firstMismatch(of:bounds:styles:data:)` does.
    final class Kept {
        let bounds: Rect
        let styles: [SectionStyle]
        let data: LayoutData
        private var layout: ReferenceLayout?

        init(bounds: Rect, styles: [SectionStyle], data: LayoutData) {
            self.bounds = bounds
            self.styles = styles
            self.data = data
        }

        /// `ReferenceGeometry.firstMismatch(of:bounds:styles:data:)` with this group's bounds and styles.
        func firstMismatch(of frames: LayoutFrames, data: LayoutData) throws -> String? {
            guard data == self.data else { return try ReferenceGeometry.firstMismatch(of: frames, bounds: bounds, styles: styles, data: data) }
            if layout == nil { layout = try ReferenceGeometry.layout(bounds: bounds, styles: styles, data: data) }
            return ReferenceCheck.firstMismatch(of: frames, against: layout!).map { "against the reference layout: \($0)" }
        }
    }

    static func isWhole(items: Int) -> Bool { ReferenceCoverage.automatic.isWhole(itemCount: items) }

    /// Above the whole-layout limit, one trace frame in this many is checked against the reference.
    static let queryFrameStride = 10

    /// The trace frames whose answer is checked against the reference.
    static func checkedQueryFrames(count: Int, items: Int) -> StrideTo<Int> {
        stride(from: 0, to: count, by: isWhole(items: items) ? 1 : queryFrameStride)
    }

    /// Whether the change at `step` of `count` is followed by a check against the reference.
    static func checksChange(step: Int, count: Int, items: Int) -> Bool {
        isWhole(items: items) || step == 0 || step == count / 2 || step == count - 1
    }
}
