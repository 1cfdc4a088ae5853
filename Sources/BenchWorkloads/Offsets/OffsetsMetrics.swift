import BenchResults

/// The metrics of the row-offsets structures and of what estimated heights do to the viewport.
extension Metric {
    package static let bytesPerRow = Metric("bytes_per_row", unit: "bytes", .lowerIsBetter, .exact,
                                           about: "bytes the offsets structure holds per row")
    /// Signed: a change above the viewport moves the content up or down.
    package static let scrollCorrection = Metric("scroll_correction", unit: "pt", .lowerIsBetter, .exact, lowest: Metric.anyValue,
                                                about: "how far the content under the viewport moved when estimates were replaced")
    package static let anchorJump = Metric(
        "anchor_jump", unit: "pt", .lowerIsBetter, .exact,
        about: "how far the row at the top of the viewport moved on screen, summed over the trace's changes (a frame's measurements count as one); 0 when anchored exactly")
    package static let sizeChurn = Metric(
        "size_churn", unit: "pt", .lowerIsBetter, .exact,
        about: "how much the content height the scroll bar shows changed, summed over the trace's changes (a frame's measurements count as one)")
}

extension OffsetsWorkload {
    package static let metrics: [Metric] = [.bytesPerRow, .scrollCorrection, .anchorJump, .sizeChurn]
}
