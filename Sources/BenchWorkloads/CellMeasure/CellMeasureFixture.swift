import LayoutEngine
import LayoutReference
import BenchPlatform
import BenchResults
import BenchScenarios
import TextShaping

/// The rows, their templates and the trace at one item count, shared by every mode.
package final class CellMeasureFixture: WorkloadFixture {
    package typealias Mode = CellMeasureWorkload.Mode
    package typealias Operation = CellMeasureWorkload.Operation

    let workload: CellMeasureWorkload
    let scenario: Scenario
    let items: Int
    let rows: TemplatedRows
    let texts: ItemTexts
    let data: LayoutData
    /// Cell widths: `cellWidths[w * templates + t]` for trace width `w` and template `t`.
    let cellWidths: [Double]
    let rowWidths: [Double]
    let rotateEvery: Int
    let traceLength: Int
    /// The trace positions checked against the reference, in order, and their answers (computed
    /// on first use).
    let checked: [Int]
    private var referenceAnswers: [Double]?
    /// The text measurer of the reference (no cache), when a label names a font.
    private var referenceText: (any LabelTextMeasuring)?

    init(workload: CellMeasureWorkload, scenario: Scenario, items: Int, rows: TemplatedRows, texts: ItemTexts, data: LayoutData) {
        self.workload = workload
        self.scenario = scenario
        self.items = items
        self.rows = rows
        self.texts = texts
        self.data = data
        rowWidths = workload.rowWidths(scenario)
        var cells: [Double] = []
        for width in rowWidths { for template in rows.templates { cells.append(width - template.accessoryWidth) } }
        cellWidths = cells
        rotateEvery = workload.rotateEvery ?? max(1, rows.kinds.count)
        let length = max(1, rows.kinds.count) * rowWidths.count
        traceLength = length
        let limit = workload.verifyMeasurements
        if length <= limit {
            checked = Array(0..<length)
        } else {
            checked = (0..<limit).map { $0 * length / limit }
        }
    }

    /// Position `k` of the trace: its row and the cell width it is measured at.
    @inline(__always)
    func position(_ k: Int) -> (row: Int, width: Double) {
        let n = rows.kinds.count
        let row = k % n
        let w = (k / rotateEvery) % rowWidths.count
        return (row, cellWidths[w * rows.templates.count + rows.kinds[row]])
    }

    /// The LP reference's fitting height at every checked position.
    func reference() throws -> [Double] {
        if let referenceAnswers { return referenceAnswers }
        var answers: [Double] = []
        if referenceText == nil { referenceText = try scenario.textMeasurer(for: rows.templates, caching: false) }
        for k in checked {
            let (row, width) = position(k)
            let template = rows.templates[rows.kinds[row]]
            switch TemplateReference.fittingHeight(template, text: Array(texts[row]), detail: Array(rows.details[row]), width: width,
                                                   textMeasurer: referenceText) {
            case .fitting(let h): answers.append(h)
            case .unsatisfiable:
                throw VerificationError(scenario: scenario.name, mode: "reference", items: items,
                                        detail: "template \(template.name) is unsatisfiable at width \(width) for row \(row)")
            case .numericalFailure(let why):
                throw VerificationError(scenario: scenario.name, mode: "reference", items: items, detail: "the LP reference failed: \(why)")
            }
        }
        referenceAnswers = answers
        return answers
    }

    package func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
        var observations: [Observation<Operation>] = []
        if verify { observations = try self.verify(mode) }
        observations += try split(mode)
        let operation = try CellMeasureOperation(fixture: self, mode: mode)
        return ModeMeasurement(operations: [TimedOperation(.measure, .batchable(operation))], observations: observations)
    }

    static let tolerance = 1e-6

    /// Measurements of the split pass (the first ones of the trace).
    static let splitMeasurements = 4000

    /// Where a measurement's time goes, for labels with a font (docs/text.md): the first
    /// `splitMeasurements` of the trace measured once untimed (the text cache warms as the timed
    /// samples find it), then again with the text measurer's clock around shaping and around
    /// breaking and filling lines; the solve is the rest of the pass's time. Totals divided by
    /// the measurements: a clock read per measurement would weigh on the solve's 1-10 µs.
    /// Without the RealText trait no label has a font (refused at load): nothing to split.
    private func split(_ mode: Mode) throws -> [Observation<Operation>] {
        #if RealText
        guard mode != .frame else { return [] }
        let operation = try CellMeasureOperation(fixture: self, mode: mode)
        guard let text = operation.text as? ShapedTextMeasurer else { return [] }
        let count = min(traceLength, Self.splitMeasurements)
        for k in 0..<count { _ = try operation.measure(at: k) }
        text.resetCounters()
        text.timing = true
        defer { text.timing = false }
        let start = MonotonicClock.now()
        for k in 0..<count { _ = try operation.measure(at: k) }
        let total = Double(MonotonicClock.now() - start) / Double(count)
        let shaping = Double(text.counters.shapingNanoseconds) / Double(count)
        let breaking = Double(text.counters.breakingNanoseconds) / Double(count)
        return [Observation(.measure, .shapingTime, [shaping]), Observation(.measure, .breakingTime, [breaking]),
                Observation(.measure, .solveTime, [max(0, total - shaping - breaking)])]
        #else
        return []
        #endif
    }

    private func verify(_ mode: Mode) throws -> [Observation<Operation>] {
        let expected = try reference()
        let check = try CellMeasureOperation(fixture: self, mode: mode)
        var constraints: [Double] = [], pivots: [Double] = []
        func fail(_ k: Int, _ got: Double, _ want: Double, _ what: String) -> VerificationError {
            let (row, width) = position(k)
            return VerificationError(scenario: scenario.name, mode: mode.rawValue, items: items,
                                     detail: "measurement \(k) (row \(row), template \(rows.templates[rows.kinds[row]].name), width \(width)): fitting height \(got), \(what) \(want)")
        }
        switch mode {
        case .freshEngine:
            for (i, k) in checked.enumerated() {
                let h = try check.measure(at: k)
                if abs(h - expected[i]) > Self.tolerance { throw fail(k, h, expected[i], "the LP reference gives") }
                constraints.append(Double(check.lastConstraintCount))
                pivots.append(Double(check.lastPivots))
            }
        case .fdAddRemove, .editWidth, .fdAddRemoveTextCache, .editWidthTextCache,
             .fdAddRemoveBatched, .editWidthBatched, .fdAddRemoveBatchedTextCache, .editWidthBatchedTextCache:
            var next = 0
            for k in 0..<traceLength {
                let h = try check.measure(at: k)
                if next < checked.count, checked[next] == k {
                    if abs(h - expected[next]) > Self.tolerance { throw fail(k, h, expected[next], "the LP reference gives") }
                    constraints.append(Double(check.lastConstraintCount))
                    pivots.append(Double(check.lastPivots))
                    next += 1
                }
            }
        case .frame:
            // The closed form against the reference at the checked positions, and against the
            // constraint form (a warm edit-width solver) at every position.
            let constraintForm = try CellMeasureOperation(fixture: self, mode: .editWidth)
            var next = 0
            for k in 0..<traceLength {
                let h = try check.measure(at: k)
                let solved = try constraintForm.measure(at: k)
                if abs(h - solved) > Self.tolerance { throw fail(k, h, solved, "its constraint form gives") }
                if next < checked.count, checked[next] == k {
                    if abs(h - expected[next]) > Self.tolerance { throw fail(k, h, expected[next], "the LP reference gives") }
                    constraints.append(0)
                    pivots.append(0)
                    next += 1
                }
            }
        }
        return [Observation(.measure, .constraints, constraints), Observation(.measure, .pivots, pivots)]
    }

    /// The rows laid out as the scenario's list with their measured heights.
    package func snapshot(mode: Mode) throws -> LayoutSnapshot {
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: scenario.makeStyles(), data: data)
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }
}
