import LayoutEngine

extension PrepareWorkload {
    package enum Operation: String, WorkloadOperation {
        /// One whole `prepare()`.
        case prepare

        package var timed: String {
            "one `prepare()`: `default` on a new layout object, `relayout` on one invalidated with `.everything`"
        }
        package var untimed: String { "creating or invalidating the layout, freeing the previous one" }
    }
}

/// Prepares a layout: a fresh one (created, and the previous one freed, outside the timing), or
/// the same one after invalidating everything.
final class PrepareOperation: ConsumingOperation {
    private let bounds: Rect
    private let styles: [SectionStyle]
    private let data: LayoutData
    private let reusesStorage: Bool
    private var layout: SectionedLayout?

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData, reusesStorage: Bool) {
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.reusesStorage = reusesStorage
    }

    /// One prepare is the whole trace.
    let traceLength = 1

    func rewind() {}

    func prepareNext() throws {
        if reusesStorage, var reused = layout {
            layout = nil  // keep the storage uniquely referenced
            reused.invalidate(with: .everything)
            layout = reused
            return
        }
        layout = nil
        var fresh = try SectionedLayout(bounds: bounds, styles: styles, data: data)
        if reusesStorage {
            try fresh.prepare()
            fresh.invalidate(with: .everything)
        }
        layout = fresh
    }

    func runNext() throws -> Int {
        // Moved out of the optional and back: `layout!.prepare()` copied the layout's fields
        // (and destroyed the copy) inside the timed region.
        guard var current = layout.take() else { throw OperationMisuse.notPrepared }
        defer { layout = current }
        try current.prepare()
        return Int(truncatingIfNeeded: current.contentSize.height.bitPattern)
    }
}
