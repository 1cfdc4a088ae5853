import LayoutEngine

/// The scroll offsets a user produces, one per frame: what the `query` workload replays.
///
/// Deterministic for a content height, viewport and frame count. The trace has five parts in
/// proportion to `frames`: a slow drag from the top (a few points per frame), a fling that starts
/// fast and decays, a scrubber drag through the whole content down to the bottom, a jump back to the
/// top, and a last slow drag and fling. So it visits every region of the content and both the
/// small steps of real scrolling (warm caches) and the long jumps of a scrubber (cold ones).
package struct ScrollTrace: Hashable, Sendable {
    package var offsets: [Double]

    package init(contentHeight: Double, viewportHeight: Double, frames: Int) {
        let maxOffset = Swift.max(0, contentHeight - viewportHeight)
        var offsets: [Double] = []
        offsets.reserveCapacity(frames)
        var y = 0.0
        func emit(_ value: Double) {
            y = Swift.min(Swift.max(0, value), maxOffset)
            if offsets.count < frames { offsets.append(y) }
        }
        let drag = Swift.max(1, frames / 5)
        let fling = Swift.max(1, frames / 5)
        let scrub = Swift.max(1, frames - 2 * drag - 2 * fling - 1)
        // A slow drag: 4 pt per frame.
        for _ in 0..<drag { emit(y + 4) }
        // A fling: 120 pt per frame, decaying by 5 % a frame (UIScrollView's normal deceleration).
        var velocity = 120.0
        for _ in 0..<fling { emit(y + velocity); velocity *= 0.95 }
        // A scrubber drag through the rest of the content, evenly spaced.
        let start = y
        for step in 1...scrub { emit(step == scrub ? maxOffset : start + (maxOffset - start) * Double(step) / Double(scrub)) }
        // Jump to the top (status-bar tap).
        emit(0)
        // Drag and fling again.
        for _ in 0..<drag { emit(y + 4) }
        velocity = 120
        while offsets.count < frames { emit(y + velocity); velocity *= 0.95 }
        self.offsets = offsets
    }

    /// The viewport rect at frame i.
    @inlinable
    package func rect(at frame: Int, viewport: Rect) -> Rect {
        Rect(x: viewport.minX, y: offsets[frame], width: viewport.width, height: viewport.height)
    }

    /// The visible rect of every frame, in order.
    package func rects(viewport: Rect) -> [Rect] {
        offsets.indices.map { rect(at: $0, viewport: viewport) }
    }
}
