import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchScenarios

/// The texts, estimates and recorded traces of the `offsets` workload at one row count.
package final class OffsetsFixture: WorkloadFixture {
    package typealias Mode = OffsetsWorkload.Mode
    package typealias Operation = OffsetsWorkload.Operation
    let scenario: Scenario
    let items: Int
    let workload: OffsetsWorkload
    /// The data's texts, then the texts of rows inserted later.
    let texts: ItemTexts
    let extraTexts: ItemTexts
    let cell: TemplateCell
    let cellWidth: Double
    /// The cell's width once the device is rotated (viewport width and height swapped), and every
    /// text's height there (only when `rotate` is timed).
    let rotatedCellWidth: Double
    let rotatedHeights: [Double]
    /// Per text: its row's estimate and measured height.
    let estimates: [Double]
    let measuredHeights: [Double]
    /// Per operation, its trace; plus the mixed session every mode is verified on.
    var traces: [Operation: OffsetsTrace] = [:]
    let session: OffsetsTrace
    /// The session's query offsets (what `row-at-offset` replays).
    let queryOffsets: [Double]

    init(scenario: Scenario, items: Int, workload: OffsetsWorkload) throws {
        self.scenario = scenario
        self.items = items
        self.workload = workload
        let generated = try scenario.makeItems(items: items)
        guard let texts = generated.texts, let cell = generated.cell else {
            throw ScenarioError(file: scenario.file, path: "data.generate.heights",
                                message: "the offsets workload measures rows from their text; expected \"distribution\": \"text\"")
        }
        let style = scenario.layout.section(0).style
        guard case .list = style.kind, scenario.layout.sections.count == 1 else {
            throw ScenarioError(file: scenario.file, path: "layout.kind",
                                message: "the offsets workload needs a list (one kind of section), got \(scenario.layout.sections.count) section kinds")
        }
        self.texts = texts
        self.cell = cell
        cellWidth = Scenario.measurementWidth(style: style, contentWidth: scenario.viewportSize.width, itemWidth: 0, spansAllColumns: false)
        // Texts for inserted rows: enough for every insert of every trace.
        let extraCount = workload.steps * (1 + workload.page) + workload.frames + 3 * workload.page
        var random = SplitMix64(seed: UInt64(workload.seed), stream: 3)
        var extra = ItemTexts()
        for _ in 0..<extraCount { extra.appendGenerated(words: random.nextInt(in: 3...30), using: &random) }
        extraTexts = extra
        var measured = generated.data.heights
        measured.reserveCapacity(items + extraCount)
        for i in 0..<extraCount { measured.append(cell.height(of: extra[i], width: cellWidth)) }
        measuredHeights = measured
        var identifierRNG = SplitMix64(seed: UInt64(workload.seed), stream: 5)
        let choices = workload.estimates
        let rowEstimates = (0..<(items + extraCount)).map { _ in choices[identifierRNG.next(below: choices.count)] }
        estimates = rowEstimates

        rotatedCellWidth = Scenario.measurementWidth(
            style: style, contentWidth: scenario.viewportSize.height, itemWidth: 0, spansAllColumns: false)
        var rotated: [Double] = []
        if workload.operations.contains(.rotate) {
            rotated.reserveCapacity(measured.count)
            for i in 0..<measured.count {
                rotated.append(cell.height(of: i < texts.count ? texts[i] : extra[i - texts.count], width: rotatedCellWidth))
            }
        }
        rotatedHeights = rotated
        let viewport = scenario.viewportSize
        func simulator(_ stream: UInt64) throws -> OffsetsSimulator {
            try OffsetsSimulator(rowCount: items, viewport: viewport, measuredHeights: measured, rotatedHeights: rotated,
                                 estimates: rowEstimates, anchor: workload.anchor, seed: UInt64(workload.seed) &+ stream)
        }
        var full = try simulator(1)
        try full.session(frames: workload.frames, edits: true, page: workload.page)
        session = full.finish()
        queryOffsets = session.events.compactMap { if case .query = $0.kind { return $0.scroll } else { return nil } }
        // The scroll-only pass is as long as the session and only `update`, `measure-and-update`
        // and `row-at-offset` replay it (a storm scenario times none of them): recorded only then.
        if workload.operations.contains(where: { $0 == .update || $0 == .measureAndUpdate || $0 == .rowAtOffset }) {
            var scrollOnly = try simulator(2)
            try scrollOnly.session(frames: workload.frames, edits: false, page: workload.page)
            let updates = scrollOnly.finish()
            traces[.update] = updates
            traces[.measureAndUpdate] = updates
            // row-at-offset: the session's query offsets on the list as the scroll-only pass leaves it.
            var queries = scrollOnly
            queries.trace = OffsetsTrace()
            let rows = queries.rows
            for y in queryOffsets {
                let row = try rows.row(at: y)
                queries.trace.events.append(OffsetsEvent(
                    kind: .query, scroll: y, correction: 0, count: rows.count, contentHeight: rows.contentHeight,
                    shownContentHeight: rows.contentHeight, screenMove: 0, row: row, rowOffset: rows.offset(of: row)))
            }
            traces[.rowAtOffset] = queries.finish()
        }
        if workload.operations.contains(.insert) {
            var s = try simulator(3)
            for _ in 0..<workload.steps { try s.insert(count: 1, at: s.middleRow()) }
            traces[.insert] = s.finish()
        }
        if workload.operations.contains(.delete) {
            var s = try simulator(4)
            for _ in 0..<Swift.min(workload.steps, items / 2) { try s.remove(count: 1, at: s.middleRow()) }
            traces[.delete] = s.finish()
        }
        if workload.operations.contains(.loadOlder) {
            var s = try simulator(5)
            s.scroll = Swift.min(300, s.rows.contentHeight)
            for _ in 0..<workload.steps { try s.insert(count: workload.page, at: 0) }
            traces[.loadOlder] = s.finish()
        }
        if workload.operations.contains(.jumpBack) {
            var s = try simulator(6)
            try s.jumpAndBack(frames: workload.frames)
            traces[.jumpBack] = s.finish()
        }
        if workload.operations.contains(.rotate) {
            var s = try simulator(7)
            try s.rotation(frames: workload.frames)
            traces[.rotate] = s.finish()
        }
        if workload.operations.contains(.resizeStorm) {
            var s = try simulator(8)
            try s.storm(workload.storm, row: workload.stormRow, resizes: workload.stormResizes)
            traces[.resizeStorm] = s.finish()
        }
    }

    /// The all-estimated heights every trace starts from.
    var initialHeights: [Double] { Array(estimates[0..<items]) }

    func text(_ index: Int) -> ArraySlice<UInt8> {
        index < texts.count ? texts[index] : extraTexts[index - texts.count]
    }

    package func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        let estimate = workload.estimates[0]
        switch mode {
        case .rebuild: return try measurement(mode: mode, verify: verify) { try RebuildRowOffsets(heights: $0) }
        case .suffix: return try measurement(mode: mode, verify: verify) { try SuffixRowOffsets(heights: $0) }
        case .fenwick: return try measurement(mode: mode, verify: verify) { try FenwickRowOffsets(heights: $0, estimate: estimate) }
        case .btree: return try measurement(mode: mode, verify: verify) { try CountedTreeRowOffsets(heights: $0) }
        }
    }

    /// The anchoring rule of the scenario.
    var anchor: ScrollAnchorMode { workload.anchor }

    /// The structure of `mode` after the verified session (its heights), for `dump` and `render`.
    func structureAfterSession(mode: Mode) throws -> any RowOffsets {
        var structure = try mode.make(heights: initialHeights, estimate: workload.estimates[0])
        for event in session.events { if let change = event.change { try structure.apply(change) } }
        return structure
    }

    /// The list as the mode holds it after the session: one row per height, laid out as the scenario's list.
    package func snapshot(mode: Mode) throws -> LayoutSnapshot {
        let structure = try structureAfterSession(mode: mode)
        let heights = (0..<structure.count).map { structure.height(of: $0) }
        var layout = try SectionedLayout(
            bounds: scenario.viewport, styles: scenario.makeStyles(),
            data: LayoutData(widths: Array(repeating: 0, count: heights.count), heights: heights, counts: [heights.count]),
            queryMode: .binary)
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }

    private func measurement<S: RowOffsets>(mode: Mode, verify: Bool, make: @escaping ([Double]) throws -> S) throws -> ModeMeasurement<Operation> {
        let initial = initialHeights
        var totalCorrection = 0.0
        func failure(_ detail: String) -> VerificationError {
            VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items, detail: detail)
        }
        if verify {
            var structure = try make(initial)
            if let problem = try Self.replay(session, on: &structure, anchor: anchor, totalCorrection: &totalCorrection) {
                throw failure("session: \(problem)")
            }
        }
        var operations: [TimedOperation<Operation>] = []
        var bytesPerRow = 0.0
        // `update` and `measure-and-update` replay the same scroll-only trace: verified once.
        var verifiedUpdates = false
        for operation in workload.operations {
            guard let trace = traces[operation] else { continue }
            var structure = try make(initial)
            bytesPerRow = Double(structure.storageBytes) / Double(Swift.max(1, items))
            if operation == .rowAtOffset, let updates = traces[.update] {
                // The queries run on the list as the scroll-only pass leaves it: built from its
                // heights (replaying it costs O(n) per change in the O(n) modes, in every
                // repetition); the replay below checks every answer on this structure.
                structure = try make(updates.finalHeights)
            }
            let isUpdateTrace = operation == .update || operation == .measureAndUpdate
            if verify && !(isUpdateTrace && verifiedUpdates) {
                var replayed = operation == .rowAtOffset ? structure : try make(initial), ignored = 0.0
                if let problem = try Self.replay(trace, on: &replayed, anchor: anchor, totalCorrection: &ignored) {
                    throw failure("\(operation.rawValue): \(problem)")
                }
                if isUpdateTrace { verifiedUpdates = true }
            }
            if let start = trace.timedStartHeights { structure = try make(start) }
            switch operation {
            case .update:
                operations.append(TimedOperation(operation, .batchable(UpdateOffsetsOperation(structure: structure, trace: trace))))
            case .measureAndUpdate, .jumpBack:
                operations.append(TimedOperation(operation, .batchable(MeasureOffsetsOperation(
                    structure: structure, trace: trace, fixture: self, width: cellWidth))))
            case .rotate:
                operations.append(TimedOperation(operation, .batchable(MeasureOffsetsOperation(
                    structure: structure, trace: trace, fixture: self, width: rotatedCellWidth))))
            case .resizeStorm:
                operations.append(TimedOperation(operation, .batchable(ResizeOffsetsOperation(structure: structure, trace: trace, anchor: anchor))))
            case .rowAtOffset:
                operations.append(TimedOperation(operation, .batchable(RowAtOffsetOperation(structure: structure, offsets: queryOffsets))))
            case .insert, .delete, .loadOlder:
                operations.append(TimedOperation(operation, .consuming(try EditOffsetsOperation(initial: initial, make: make, trace: trace, anchor: anchor))))
            }
        }
        let first = workload.operations[0]
        var observations = [Observation(first, .bytesPerRow, [bytesPerRow])]
        if verify {
            observations.append(Observation(first, .scrollCorrection, [totalCorrection]))
            // What the rule leaves on screen, per operation that anchors: counted on the reference's
            // trace, which every structure has just been held to.
            for operation in workload.operations where operation != .update && operation != .rowAtOffset {
                guard let trace = traces[operation] else { continue }
                observations.append(Observation(operation, .anchorJump, [trace.anchorJump]))
                observations.append(Observation(operation, .sizeChurn, [trace.sizeChurn]))
            }
        }
        return ModeMeasurement(operations: operations, observations: observations)
    }

    /// Applies a trace to `structure`, comparing every answer with the reference's; at the end,
    /// every offset. Returns the first difference, or nil.
    static func replay<S: RowOffsets>(_ trace: OffsetsTrace, on structure: inout S, anchor: ScrollAnchorMode,
                                      totalCorrection: inout Double) throws -> String? {
        for (index, event) in trace.events.enumerated() {
            var correction = 0.0
            var row = event.row
            if let change = event.change {
                correction = try structure.apply(change, anchoredAt: event.scroll, mode: anchor, context: event.context)
                totalCorrection += correction
            } else {
                row = try structure.row(at: event.scroll)
            }
            let step = "step \(index) (\(event.kind))"
            if structure.count != event.count { return "\(step): \(structure.count) rows, expected \(event.count)" }
            if !ReferenceTolerance.equal(correction, event.correction) {
                return "\(step): \(anchor.rawValue) scroll correction \(correction), the reference's rule says \(event.correction)"
            }
            if !ReferenceTolerance.equal(structure.contentHeight, event.contentHeight) {
                return "\(step): content height \(structure.contentHeight), expected \(event.contentHeight)"
            }
            if anchor == .flutter {
                let shown = structure.flutterEstimatedContentHeight(laidOut: event.laidOut)
                if !ReferenceTolerance.equal(shown, event.shownContentHeight) {
                    return "\(step): Flutter's estimated content height \(shown), the reference says \(event.shownContentHeight)"
                }
            }
            if row != event.row { return "\(step): row at offset \(event.scroll) is \(row), expected \(event.row)" }
            if !ReferenceTolerance.equal(structure.offset(of: row), event.rowOffset) {
                return "\(step): row \(row) starts at \(structure.offset(of: row)), expected \(event.rowOffset)"
            }
        }
        for (row, expected) in trace.finalOffsets.enumerated() where !ReferenceTolerance.equal(structure.offset(of: row), expected) {
            return "after the trace: row \(row) starts at \(structure.offset(of: row)), expected \(expected)"
        }
        return nil
    }
}
