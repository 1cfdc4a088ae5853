import LayoutEngine

/// A sequence of data changes replayed by the `append` and `edit` workloads, one change per
/// timed operation, from the same initial data every time it restarts.
struct UpdateTrace {
    var initial: LayoutData
    var changes: [LayoutChange]
}

/// Verifies an update mode against its reference on a trace, then times one change per run.
final class UpdateOperation: MeasuredOperation {
    let operation: String
    let maximumBatch = 1
    private let mode: WaterfallUpdateMode
    private let bounds: Rect
    private let styles: [SectionStyle]
    private let trace: UpdateTrace
    private var updater: (any LayoutUpdater)?
    private var step = 0

    init(operation: String, mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace) {
        self.operation = operation
        self.mode = mode
        self.bounds = bounds
        self.styles = styles
        self.trace = trace
    }

    /// Applies the whole trace to the mode and to its reference, comparing frames after every step.
    static func verify(
        mode: WaterfallUpdateMode, bounds: Rect, styles: [SectionStyle], trace: UpdateTrace
    ) throws -> String? {
        try verify(
            updater: mode.makeUpdater(bounds: bounds, styles: styles, data: trace.initial),
            reference: mode.makeReference(bounds: bounds, styles: styles, data: trace.initial),
            trace: trace)
    }

    /// Applies the trace to both and returns the first difference of frames, or nil.
    static func verify(updater: any LayoutUpdater, reference: any LayoutUpdater, trace: UpdateTrace) throws -> String? {
        var updater = updater, reference = reference
        if let problem = updater.frames.firstDifference(from: reference.frames) { return "before any change: \(problem)" }
        for (step, change) in trace.changes.enumerated() {
            try updater.apply(change)
            try reference.apply(change)
            if let problem = updater.frames.firstDifference(from: reference.frames) {
                return "after change \(step) (\(change.shortDescription)): \(problem)"
            }
        }
        return nil
    }

    func prepareForRun(count: Int) throws {
        if updater == nil || step == trace.changes.count {
            updater = nil
            updater = try mode.makeUpdater(bounds: bounds, styles: styles, data: trace.initial)
            step = 0
        }
    }

    func run(count: Int) -> Int {
        do {
            try updater!.apply(trace.changes[step])
        } catch {
            fatalError("a change failed after verification: \(error)")
        }
        step += 1
        return updater!.frames.itemCount
    }
}

extension LayoutChange {
    /// A short description for verification messages.
    var shortDescription: String {
        switch self {
        case .appendItems(let section, let items): return "append \(items.count) items to section \(section)"
        case .insertItems(let section, let at, let items): return "insert \(items.count) items at [\(section), \(at)]"
        case .removeItems(let section, let at, let count): return "remove \(count) items at [\(section), \(at)]"
        case .setHeight(let section, let item, let height): return "height of [\(section), \(item)] to \(height)"
        case .insertSection(let at, let items): return "insert section \(at) with \(items.count) items"
        case .removeSection(let at): return "remove section \(at)"
        }
    }
}

/// The modes of the append and edit workloads.
enum UpdateModes {
    static var modes: [(name: String, summary: String)] {
        WaterfallUpdateMode.allCases.map { ($0.rawValue, $0.summary) }
    }
}
