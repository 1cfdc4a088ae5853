import LayoutEngine
import LayoutReference
import BenchPlatform
import BenchResults
import BenchScenarios
import TextShaping

/// `cell-measure`: one fitting-height measurement of a row by its constraint template per
/// operation, row after row of the data (docs/modes.md; docs/scenario-format.md, constraint templates). The modes are the measuring strategies:
/// a fresh solver per measurement, FDTemplateLayoutCell's add-a-width-constraint / solve /
/// remove on one long-lived solver per template, the width as an edit variable of one
/// long-lived solver per template, and the hand-written closed form (built-in row kinds only).
///
/// The trace is every row at `widths[0]`, then every row at the next width (a rotation), and so
/// on; `rotateEvery` changes the width after that many measurements instead. A row's cell width
/// is its list row's width minus its template's accessory.
///
/// Verification (first repetition): every mode's fitting height equals the two-pass answer of
/// `TemplateReference` (the lexicographic LP of `LexicographicLPReference`) within 1e-6 pt at the
/// checked measurements — every one when the trace has at most `verifyMeasurements`, otherwise
/// that many spread evenly along it (the long-lived modes still run the whole trace, in order,
/// so that their state is the timed one) — and `frame` equals the constraint form
/// (`edit-width`) at every measurement of the trace. `constraints` and `pivots` are observed at
/// the checked measurements.
public struct CellMeasureWorkload: Workload {
    public enum Mode: String, WorkloadMode {
        case freshEngine = "fresh-engine"
        case fdAddRemove = "fd-add-remove"
        case editWidth = "edit-width"
        case frame
        /// `fd-add-remove` and `edit-width` with a text cache: shaped runs by (text, font) and
        /// line breaks by width, as text engines keep them (labels with a font only).
        case fdAddRemoveTextCache = "fd-add-remove-text-cache"
        case editWidthTextCache = "edit-width-text-cache"
        /// `fd-add-remove` and `edit-width` with each pass's label constants changed as one
        /// batch, then one dual simplex; with and without the text cache.
        case fdAddRemoveBatched = "fd-add-remove-batched"
        case editWidthBatched = "edit-width-batched"
        case fdAddRemoveBatchedTextCache = "fd-add-remove-batched-text-cache"
        case editWidthBatchedTextCache = "edit-width-batched-text-cache"

        public var about: String {
            switch self {
            case .freshEngine: return "a new solver with all of the template's constraints per measurement, both passes solved"
            case .fdAddRemove: return "one long-lived solver per template; per measurement a required width constraint is added, the cell solved and read, the constraint removed"
            case .editWidth: return "one long-lived solver per template with the width as an edit variable: suggest the width, re-optimise by the dual simplex, read"
            case .frame: return "the template's closed form written by hand, no solver (built-in row kinds only)"
            case .fdAddRemoveTextCache: return "fd-add-remove with the labels' text cached: shaped runs by (text, font), line breaks by width (labels with a font only)"
            case .editWidthTextCache: return "edit-width with the labels' text cached: shaped runs by (text, font), line breaks by width (labels with a font only)"
            case .fdAddRemoveBatched: return "fd-add-remove with each pass's changed label constants staged, then one dual simplex per pass"
            case .editWidthBatched: return "edit-width with each pass's changed label constants (and pass 1's width) staged, then one dual simplex per pass"
            case .fdAddRemoveBatchedTextCache: return "fd-add-remove-batched with the labels' text cached (labels with a font only)"
            case .editWidthBatchedTextCache: return "edit-width-batched with the labels' text cached (labels with a font only)"
            }
        }

        public var reproduces: String {
            switch self {
            case .freshEngine: return "a prototype cell instantiated from its XIB for every measurement"
            case .fdAddRemove: return "FDTemplateLayoutCell's systemLayoutSizeFittingSize: with a temporary width constraint"
            case .editWidth: return "Cassowary's edit variables (kiwi, Auto Layout's engine kept warm)"
            case .frame: return "sizeThatFits / FD's fd_enforceFrameLayout / lpd-tableview-kit's height in the view model"
            case .fdAddRemoveTextCache, .editWidthTextCache: return "a text engine's caches of shaped runs and line breaks (Core Text, TextKit, Texture's text cache) under a warm solver"
            case .fdAddRemoveBatched, .editWidthBatched, .fdAddRemoveBatchedTextCache, .editWidthBatchedTextCache:
                return "none: a pass's intrinsic-size changes applied together, then one re-solve"
            }
        }

        public var accuracyMetric: Metric? { nil }

        /// The rows' template index; the solvers are per template, not per row.
        public var bytesPerItem: Double { 16 }

        var strategy: TemplateSolveStrategy? {
            switch self {
            case .freshEngine: return .freshEngine
            case .fdAddRemove, .fdAddRemoveTextCache: return .addRemove
            case .editWidth, .editWidthTextCache: return .editWidth
            case .fdAddRemoveBatched, .fdAddRemoveBatchedTextCache: return .addRemoveBatched
            case .editWidthBatched, .editWidthBatchedTextCache: return .editWidthBatched
            case .frame: return nil
            }
        }

        /// Whether the mode's text measurer keeps a cache.
        var cachesText: Bool {
            switch self {
            case .fdAddRemoveTextCache, .editWidthTextCache, .fdAddRemoveBatchedTextCache, .editWidthBatchedTextCache: return true
            case .freshEngine, .fdAddRemove, .editWidth, .frame, .fdAddRemoveBatched, .editWidthBatched: return false
            }
        }
    }

    public enum Operation: String, WorkloadOperation {
        /// One row's fitting height.
        case measure

        public var timed: String {
            "one row's fitting height by its template at the trace's width, row after row, wrapping at the end of the trace "
                + "(every row at `widths[0]`, then at the next width, or a new width every `rotateEvery` measurements); "
                + "a sample is a batch of consecutive measurements, divided"
        }
        public var untimed: String {
            "the rows, their texts and template index, built once; each mode's measurer per template (the long-lived solver "
                + "of `fd-add-remove` and `edit-width`, the closed form of `frame`), built before the first sample"
        }
    }

    public static let kind = "cell-measure"
    public static let about = "one fitting-height measurement of a row by its constraint template, row after row, widths rotating"

    /// Row widths the trace rotates through (default: the viewport's width).
    public var widths: [Double]?
    /// Measurements between width changes (default: every row once).
    public var rotateEvery: Int?
    /// Measurements checked against the LP reference (all when the trace is no longer).
    public var verifyMeasurements: Int
    public var operations: [Operation]

    public static let maxWidths = 64

    public static let widthsKey = WorkloadKey(
        "widths", .numbers, default: .described("the viewport's width"), bound: .positiveSize, maxCount: maxWidths,
        about: "the row widths the trace rotates through")
    public static let rotateEveryKey = WorkloadKey(
        "rotateEvery", .integer, default: .described("the item count: every row once"), bound: .between(1, Double(ScenarioLimits.maxItems)),
        about: "measurements between width changes")
    public static let verifyMeasurementsKey = WorkloadKey(
        "verifyMeasurements", .integer, default: .integer(1000), bound: .between(1, 1_000_000),
        about: "measurements checked against the LP reference, spread evenly along the trace (all when it is no longer)")
    public static let keys = [widthsKey, rotateEveryKey, verifyMeasurementsKey, WorkloadKey.operations]

    public init(spec: JSONReader) throws(ScenarioError) {
        let widthsKey = Self.widthsKey
        if let nodes = try spec.optionalArray(widthsKey.name) {
            guard !nodes.isEmpty, nodes.count <= Self.maxWidths else {
                throw spec.error(at: widthsKey.name, "expected 1 to \(Self.maxWidths) widths, got \(nodes.count)")
            }
            var list: [Double] = []
            for node in nodes { list.append(try node.double(widthsKey.bound)) }
            widths = list
        }
        rotateEvery = try spec.optionalInt(Self.rotateEveryKey)
        verifyMeasurements = try spec.int(Self.verifyMeasurementsKey)
        operations = try spec.operationList(WorkloadKey.operations.name, of: Operation.self)
        try spec.finish()
    }

    /// The rows must name templates; `frame` needs built-in row kinds; every template must be
    /// satisfiable at every width of the trace.
    public func validate(_ scenario: Scenario) throws(ScenarioError) {
        let names: [String]
        switch scenario.data {
        case .generated(let generator):
            guard case .template(let weights, _, _) = generator.heights else {
                throw ScenarioError(file: scenario.file, path: "data.generate.heights.distribution",
                                    message: "the cell-measure workload measures rows by their constraint templates: expected \"template\"")
            }
            names = weights.map(\.name)
        case .explicit(let items):
            guard !items.templateKinds.isEmpty else {
                throw ScenarioError(file: scenario.file, path: "data",
                                    message: "the cell-measure workload measures rows by their constraint templates: give every item a \"template\"")
            }
            names = items.templateNames
        }
        let templates = names.compactMap { scenario.template(named: $0) }
        if let index = scenario.modes.firstIndex(of: Mode.frame.rawValue), let custom = templates.first(where: { $0.builtIn == nil }) {
            throw scenario.modeError(index, "frame is the closed form of the built-in row kinds (\(TemplateParsing.builtInNames)) only; template \(JSONValue.quoted(custom.name)) has none")
        }
        for mode in Mode.allCases where mode.cachesText {
            if let index = scenario.modes.firstIndex(of: mode.rawValue), !templates.contains(where: TemplateMeasurer.needsText) {
                throw scenario.modeError(index, "\(mode.rawValue) caches the text of labels with a font; no label of these templates names one (docs/text.md)")
            }
        }
        let frame = scenario.modes.contains(Mode.frame.rawValue)
        for template in templates {
            for (i, width) in rowWidths(scenario).enumerated() {
                try Self.checkSatisfiable(template, rowWidth: width, scenario: scenario)
                // The closed form clamps a label's width to 1 pt where the constraint form lets
                // it go negative: they agree only where the content is wider than its paddings.
                if frame, let kind = template.builtIn, width - template.accessoryWidth < Self.frameMinimumCellWidth(kind) {
                    throw ScenarioError(
                        file: scenario.file, path: widths == nil ? "viewport.width" : "workload.widths[\(i)]",
                        message: "frame measures \(JSONValue.quoted(template.name)) rows only where their content is wider than its paddings: "
                            + "a row width of at least \(format(Self.frameMinimumCellWidth(kind) + template.accessoryWidth)) (after the layout's insets), got \(format(width))")
                }
            }
        }
    }

    /// The narrowest cell at which a built-in row's closed form equals its constraint form: its
    /// horizontal padding plus the closed form's 1 pt minimum label width.
    static func frameMinimumCellWidth(_ kind: BuiltInRowKind) -> Double {
        let padding = kind.rowTemplate.title.padding
        return padding.left + padding.right + 1
    }

    /// A fresh solver adds the constraints one by one at the row's cell width (empty texts): the
    /// first that makes the required ones conflict is named. The height it gives must be within
    /// `Scenario.templateHeightLimit`.
    static func checkSatisfiable(_ template: CellTemplate, rowWidth: Double, scenario: Scenario) throws(ScenarioError) {
        let height: Double
        let text = try scenario.textMeasurer(for: [template], caching: false)
        do {
            var measurer = try TemplateMeasurer(template: template, strategy: .freshEngine, text: text)
            height = CellTemplate.rowHeight(fitting: try measurer.fittingHeight(text: [], detail: [], width: rowWidth - template.accessoryWidth))
        } catch {
            var path = "data.templates." + template.name
            if case .unsatisfiable(.constraint(let index)?, _) = error { path += "constraints[\(index)]".withDot }
            throw ScenarioError(file: scenario.file, path: path, message: TemplateErrors.describe(error, template: template))
        }
        if !scenario.templateHeightLimit.admits(height) {
            throw scenario.templateHeightLimit.error(
                file: scenario.file, template: template, rowHeight: height, rowWidth: rowWidth, item: nil, emptyTexts: true)
        }
    }

    /// The list rows' widths: each trace width minus the first section's horizontal insets.
    public func rowWidths(_ scenario: Scenario) -> [Double] {
        let insets = scenario.layout.section(0).style.insets.horizontal
        return (widths ?? [scenario.viewportSize.width]).map { $0 - insets }
    }

    public var footprint: WorkloadFootprint { .none }

    public func makeFixture(scenario: Scenario, items: Int) throws -> CellMeasureFixture {
        let generated = try scenario.makeItems(items: items)
        guard let templated = generated.templated, let texts = generated.texts else {
            throw ScenarioError(file: scenario.file, path: "data.generate.heights.distribution",
                                message: "the cell-measure workload measures rows by their constraint templates: expected \"template\"")
        }
        return CellMeasureFixture(workload: self, scenario: scenario, items: items, rows: templated, texts: texts, data: generated.data)
    }
}

private extension String {
    var withDot: String { "." + self }
}

/// The rows, their templates and the trace at one item count, shared by every mode.
public final class CellMeasureFixture: WorkloadFixture {
    public typealias Mode = CellMeasureWorkload.Mode
    public typealias Operation = CellMeasureWorkload.Operation

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

    public func makeMeasurement(mode: Mode, verify: Bool) throws -> ModeMeasurement<Operation> {
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
    public func snapshot(mode: Mode) throws -> LayoutSnapshot {
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: scenario.makeStyles(), data: data)
        try layout.prepare()
        return LayoutSnapshot(frames: layout.frames, queryMode: .binary, viewport: scenario.viewport)
    }
}

/// One mode's measurements along the trace: one solver (or closed form) per template.
final class CellMeasureOperation: BatchableOperation {
    private let fixture: CellMeasureFixture
    private let mode: CellMeasureWorkload.Mode
    private var measurers: [TemplateMeasurer] = []
    private var closedForms: [RowTemplate] = []
    private var step = 0
    /// The text measurer of labels with a font (nil without).
    private(set) var text: (any LabelTextMeasuring)?

    init(fixture: CellMeasureFixture, mode: CellMeasureWorkload.Mode) throws {
        self.fixture = fixture
        self.mode = mode
        if let strategy = mode.strategy {
            // One text measurer for the mode's templates (its own cache, shared by none other).
            text = try fixture.scenario.textMeasurer(for: fixture.rows.templates, caching: mode.cachesText)
            for template in fixture.rows.templates {
                do {
                    measurers.append(try TemplateMeasurer(template: template, strategy: strategy, text: text))
                } catch {
                    throw ScenarioError(file: fixture.scenario.file, path: "data.templates." + template.name,
                                        message: TemplateErrors.describe(error, template: template))
                }
            }
        } else {
            for template in fixture.rows.templates {
                guard let kind = template.builtIn else {
                    throw ScenarioError(file: fixture.scenario.file, path: "modes",
                                        message: "frame needs built-in row kinds; template \(JSONValue.quoted(template.name)) has no closed form")
                }
                closedForms.append(kind.rowTemplate)
            }
        }
    }

    var traceLength: Int { fixture.traceLength }
    var lastPivots = 0
    var lastConstraintCount = 0

    func rewind() { step = 0 }

    /// The fitting height at trace position `k`.
    @inline(__always)
    func measure(at k: Int) throws -> Double {
        let (row, width) = fixture.position(k)
        let kind = fixture.rows.kinds[row]
        if mode == .frame {
            // The closed form takes the row's width (it subtracts its accessory itself).
            let template = fixture.rows.templates[kind]
            return closedForms[kind].fittingHeight(text: fixture.texts[row], detail: fixture.rows.details[row], width: width + template.accessoryWidth)
        }
        do {
            let h = try measurers[kind].fittingHeight(text: fixture.texts[row], detail: fixture.rows.details[row], width: width)
            lastPivots = measurers[kind].lastPivots
            lastConstraintCount = measurers[kind].lastConstraintCount
            return h
        } catch {
            throw VerificationError(scenario: fixture.scenario.name, mode: mode.rawValue, items: fixture.items,
                                    detail: "measurement \(k) (row \(row)): " + TemplateErrors.describe(error, template: fixture.rows.templates[kind]))
        }
    }

    func run(count: Int) throws -> Int {
        var total = 0.0
        for _ in 0..<count {
            total += try measure(at: step)
            step += 1
            if step == fixture.traceLength { step = 0 }
        }
        return Int(truncatingIfNeeded: total.bitPattern)
    }
}
