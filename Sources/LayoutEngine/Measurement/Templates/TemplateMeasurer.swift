/// How a constraint template is measured (the `cell-measure` modes that solve).
public enum TemplateSolveStrategy: String, CaseIterable, Hashable, Sendable {
    /// A new solver with all of the template's constraints per measurement (a prototype cell
    /// instantiated from its XIB every time).
    case freshEngine = "fresh-engine"
    /// FDTemplateLayoutCell: one long-lived solver; per measurement a required
    /// `contentView.width == W` is added, the cell solved and read, the constraint removed.
    case addRemove = "fd-add-remove"
    /// The width as a required edit variable of one long-lived solver: suggest, re-optimise, read.
    case editWidth = "edit-width"
    /// `fd-add-remove` with each pass's label constants changed as one batch: staged, then one
    /// dual simplex (`ConstraintSolver.stageConstant`, `reoptimize`).
    case addRemoveBatched = "fd-add-remove-batched"
    /// `edit-width` with each pass's label constants (and pass 1's width) changed as one batch:
    /// staged, then one dual simplex.
    case editWidthBatched = "edit-width-batched"

    /// Whether the strategy keeps one long-lived solver (all but `fresh-engine`).
    public var isLongLived: Bool { self != .freshEngine }
    /// Whether the width is an edit variable (else a required constraint added per measurement).
    public var editsWidth: Bool { self == .editWidth || self == .editWidthBatched }
    /// Whether a pass's label constants are changed as one batch with one dual simplex.
    public var isBatched: Bool { self == .addRemoveBatched || self == .editWidthBatched }
}

/// What one measurement set and read (`TemplateMeasurer.recordedMeasurement`).
public struct TemplatePasses: Sendable {
    /// The label values of pass 1 and pass 2, 4 per label (width `>=`, width `<=`, height `>=`,
    /// height `<=`).
    public var passOne: [Double]
    public var passTwo: [Double]
    /// Each label's width after pass 1.
    public var labelWidths: [Double]
    /// The fitting height.
    public var height: Double

    public init(passOne: [Double], labelWidths: [Double], passTwo: [Double], height: Double) {
        self.passOne = passOne
        self.passTwo = passTwo
        self.labelWidths = labelWidths
        self.height = height
    }
}

/// Why a measurement failed.
public enum TemplateMeasurementError: Error, Equatable, Sendable {
    /// The required constraints cannot all hold at `width`; `source` is the row whose addition
    /// made them conflict when known (a fresh solver adds them one by one), nil otherwise.
    case unsatisfiable(source: TemplateSystem.Source?, width: Double)
    /// The solver stopped at its pivot bound.
    case pivotLimitReached(width: Double)
    /// Another solver refusal (a non-finite width).
    case solver(ConstraintSolverError, width: Double)
    /// The label `views[view]` names a font the text measurer cannot give (or no text measurer
    /// was given).
    case text(view: Int, message: String)
}

/// Measures rows with one constraint template the way UIKit's `systemLayoutSizeFitting` does
/// (docs/scenario-format.md, constraint templates): at cell width W, pass 1 with every label one line tall, each label's lines counted
/// at the width pass 1 gave it, pass 2 with those heights; the fitting height is the content
/// view's height after pass 2.
///
/// A label's intrinsic width (its text on one line) and heights are constraint constants: the
/// long-lived strategies change them with `updateConstant` when the row changes, and only the
/// ones that change: one dual simplex per change, or (the batched strategies) every change of a
/// pass staged and one dual simplex for the pass. Once warm, the long-lived strategies allocate
/// nothing per measurement (the width terms are built once; the solver reuses its slots). A value type: a copy is an
/// independent measurer (its solver's arrays are copied on first write), hence `Sendable`.
public struct TemplateMeasurer: UnsharedCopying, @unchecked Sendable {
    public let strategy: TemplateSolveStrategy
    public let system: TemplateSystem
    private var solver: ConstraintSolver
    private var handles: [ConstraintHandle] = []
    /// The constant each label row holds now.
    private var labelConstants: [Double] = []
    /// `labelConstants` before the batch being staged (the batched strategies), to restore when
    /// the solver undoes it.
    private var batchBackup: [Double] = []
    private let widthTerms: [LinearTerm]
    private let widthVariable = SolverVariable(index: TemplateSystem.widthVariable)
    private let heightVariable = SolverVariable(index: TemplateSystem.heightVariable)
    /// Per label: its lines after pass 2 of the last measurement (scratch).
    private var passTwoHeights: [Double] = []
    /// The text engine of labels with a font, and per label its font handle (-1: the table model).
    public let textMeasurer: (any LabelTextMeasuring)?
    private let fonts: [Int]

    /// Pivots of the last measurement.
    public private(set) var lastPivots = 0
    /// Constraints in the solver during the last measurement (the width constraint or edit
    /// variable included).
    public private(set) var lastConstraintCount = 0

    /// `text` measures the labels that name a font; it must be given when one does.
    public init(system: TemplateSystem, strategy: TemplateSolveStrategy, text: (any LabelTextMeasuring)? = nil) throws(TemplateMeasurementError) {
        self.system = system
        self.strategy = strategy
        textMeasurer = text
        var fonts: [Int] = []
        for rows in system.labels {
            guard let font = rows.label.font else { fonts.append(-1); continue }
            guard let text else { throw .text(view: rows.view, message: "the label names a font and there is no text measurer") }
            do { fonts.append(try text.resolve(font)) } catch { throw .text(view: rows.view, message: error.message) }
        }
        self.fonts = fonts
        solver = ConstraintSolver()
        widthTerms = [LinearTerm(SolverVariable(index: TemplateSystem.widthVariable), 1)]
        labelConstants = Array(repeating: 0, count: 4 * system.labels.count)
        batchBackup = labelConstants
        passTwoHeights = Array(repeating: 0, count: system.labels.count)
        if strategy.isLongLived {
            solver = try Self.build(system, width: nil, handles: &handles)
            if strategy.editsWidth {
                do {
                    try solver.addEditVariable(widthVariable, priority: 1000)
                } catch { throw Self.wrap(error, width: 0) }
            }
        }
    }

    public init(template: CellTemplate, strategy: TemplateSolveStrategy, text: (any LabelTextMeasuring)? = nil) throws(TemplateMeasurementError) {
        try self.init(system: TemplateSystem(template), strategy: strategy, text: text)
    }

    /// A copy whose solver and scratch are its own (`UnsharedCopying`); the text measurer, an
    /// object, stays shared, as it is between any two copies.
    @usableFromInline package func unsharedCopy() -> TemplateMeasurer {
        var copy = self
        copy.solver = solver.unsharedCopy()
        copy.handles = handles.unsharedCopy()
        copy.labelConstants = labelConstants.unsharedCopy()
        copy.batchBackup = batchBackup.unsharedCopy()
        copy.passTwoHeights = passTwoHeights.unsharedCopy()
        return copy
    }

    /// Whether any label names a font (and so needs a text measurer).
    public static func needsText(_ template: CellTemplate) -> Bool {
        template.views.contains { if case .label(let label) = $0.content { return label.font != nil } else { return false } }
    }

    static func wrap(_ error: ConstraintSolverError, width: Double, source: TemplateSystem.Source? = nil) -> TemplateMeasurementError {
        switch error {
        case .unsatisfiableRequired: return .unsatisfiable(source: source, width: width)
        case .pivotLimitReached: return .pivotLimitReached(width: width)
        default: return .solver(error, width: width)
        }
    }

    /// A solver with every row of `system` (label rows at 0), and with `width` first when given.
    static func build(_ system: TemplateSystem, width: Double?, handles: inout [ConstraintHandle]) throws(TemplateMeasurementError) -> ConstraintSolver {
        var solver = ConstraintSolver()
        handles.removeAll(keepingCapacity: true)
        for _ in 0..<system.variableCount { _ = solver.makeVariable() }
        if let width {
            do {
                _ = try solver.addConstraint([LinearTerm(SolverVariable(index: TemplateSystem.widthVariable), 1)], constant: -width,
                                             relation: .equal, priority: 1000)
            } catch { throw wrap(error, width: width, source: .width) }
        }
        for row in system.rows {
            do {
                let handle = try solver.addConstraint(row.terms, constant: row.constant, relation: row.relation, priority: row.priority)
                handles.append(handle)
            } catch { throw wrap(error, width: width ?? 0, source: row.source) }
        }
        return solver
    }

    /// The fitting height of a row showing `text` and `detail` at cell width `width` (the
    /// content view's height after pass 2; no separator, no fallback).
    public mutating func fittingHeight(text: ArraySlice<UInt8>, detail: ArraySlice<UInt8>, width: Double) throws(TemplateMeasurementError) -> Double {
        try layoutbenchCellMeasurement(&self, text, detail, width)
    }

    /// The same for a row's content (its strings' UTF-8 views, read in place).
    public mutating func fittingHeight(of content: RowContent, width: Double) throws(TemplateMeasurementError) -> Double {
        try layoutbenchCellMeasurementOfContent(&self, content, width)
    }

    mutating func measure<Text: Collection<UInt8>, Detail: Collection<UInt8>>(
        text: Text, detail: Detail, width: Double
    ) throws(TemplateMeasurementError) -> Double {
        let pivotsBefore = solver.pivotCount
        switch strategy {
        case .freshEngine:
            solver = try Self.build(system, width: width, handles: &handles)
            for i in labelConstants.indices { labelConstants[i] = 0 }
            try configure(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
            try passTwo(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
            lastPivots = solver.pivotCount
            lastConstraintCount = solver.constraintCount
            return solver.value(of: heightVariable)
        case .addRemove, .addRemoveBatched:
            if strategy.isBatched {
                try configureBatched(text: text, detail: detail, width: width)
            } else {
                try configure(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
            }
            let handle: ConstraintHandle
            do {
                handle = try solver.addConstraint(widthTerms, constant: -width, relation: .equal, priority: 1000)
            } catch { throw Self.wrap(error, width: width, source: .width) }
            lastConstraintCount = solver.constraintCount
            do {
                if strategy.isBatched {
                    try passTwoBatched(text: text, detail: detail, width: width)
                } else {
                    try passTwo(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
                }
            } catch {
                try? solver.removeConstraint(handle)
                throw error
            }
            let height = solver.value(of: heightVariable)
            do { try solver.removeConstraint(handle) } catch { throw Self.wrap(error, width: width) }
            lastPivots = solver.pivotCount - pivotsBefore
            return height
        case .editWidth:
            try configure(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
            do { try solver.suggestValue(widthVariable, width) } catch { throw Self.wrap(error, width: width, source: .width) }
            try passTwo(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
            lastPivots = solver.pivotCount - pivotsBefore
            lastConstraintCount = solver.constraintCount + solver.editVariableCount
            return solver.value(of: heightVariable)
        case .editWidthBatched:
            try configureBatched(text: text, detail: detail, width: width)
            try passTwoBatched(text: text, detail: detail, width: width)
            lastPivots = solver.pivotCount - pivotsBefore
            lastConstraintCount = solver.constraintCount + solver.editVariableCount
            return solver.value(of: heightVariable)
        }
    }

    /// Measures as `fittingHeight` does (`edit-width` only) and returns what the measurement set
    /// and read: the label values of each pass, 4 per label of `system.labels` (width `>=`,
    /// width `<=`, height `>=`, height `<=`; a row's constant is the value negated), the label
    /// widths pass 1 gave, and the fitting height. For scripts/kiwi-bench, which replays the
    /// passes on kiwi; not a hot path (it allocates the arrays it returns).
    public mutating func recordedMeasurement(text: [UInt8], detail: [UInt8], width: Double) throws(TemplateMeasurementError) -> TemplatePasses {
        precondition(strategy == .editWidth, "recordedMeasurement measures with edit-width")
        try configure(text: text[...], detail: detail[...], width: width, update: ReoptimizeEach.self)
        let passOne = labelConstants
        do { try solver.suggestValue(widthVariable, width) } catch { throw Self.wrap(error, width: width, source: .width) }
        let labelWidths = system.labels.map { solver.value(of: SolverVariable(index: $0.widthVariable)) }
        try passTwo(text: text[...], detail: detail[...], width: width, update: ReoptimizeEach.self)
        return TemplatePasses(passOne: passOne, labelWidths: labelWidths, passTwo: labelConstants, height: solver.value(of: heightVariable))
    }

    /// Pass 1 as one batch: every changed label constant (and, for `edit-width-batched`, the
    /// width) staged, then one dual simplex. Should the batch fail (only required constraints
    /// can make it), the solver has undone it; the pass is then replayed one constant at a time
    /// from the state before it, which reports the failure as the per-constant strategy does
    /// (the row whose constant conflicts, or the width).
    private mutating func configureBatched<Text: Collection<UInt8>, Detail: Collection<UInt8>>(text: Text, detail: Detail, width: Double) throws(TemplateMeasurementError) {
        backUpLabelConstants()
        do throws(TemplateMeasurementError) {
            try configure(text: text, detail: detail, width: width, update: Staged.self)
            if strategy.editsWidth {
                do { try solver.stageValue(widthVariable, width) } catch { throw Self.wrap(error, width: width, source: .width) }
            }
            do { try solver.reoptimize() } catch { throw Self.wrap(error, width: width) }
        } catch {
            try recoverBatch(error, width: width)
            try configure(text: text, detail: detail, width: width, update: ReoptimizeEach.self)
            if strategy.editsWidth {
                do { try solver.suggestValue(widthVariable, width) } catch { throw Self.wrap(error, width: width, source: .width) }
            }
        }
    }

    /// Pass 2 as one batch (see `configureBatched`).
    private mutating func passTwoBatched<Text: Collection<UInt8>, Detail: Collection<UInt8>>(text: Text, detail: Detail, width: Double) throws(TemplateMeasurementError) {
        backUpLabelConstants()
        do throws(TemplateMeasurementError) {
            try passTwo(text: text, detail: detail, width: width, update: Staged.self)
            do { try solver.reoptimize() } catch { throw Self.wrap(error, width: width) }
        } catch {
            try recoverBatch(error, width: width)
            // `passTwoHeights` still holds the heights read from pass 1's solution.
            try setPassTwoHeights(width: width, update: ReoptimizeEach.self)
        }
    }

    private mutating func backUpLabelConstants() {
        for i in 0..<labelConstants.count { batchBackup[i] = labelConstants[i] }
    }

    /// After a failed batch: the solver's staged changes undone (if `reoptimize` has not done it)
    /// and `labelConstants` as before the batch. A pivot limit is final.
    private mutating func recoverBatch(_ error: TemplateMeasurementError, width: Double) throws(TemplateMeasurementError) {
        if case .pivotLimitReached = error {
            throw error
        }
        do { try solver.discardStaged() } catch { throw Self.wrap(error, width: width) }
        for i in 0..<labelConstants.count { labelConstants[i] = batchBackup[i] }
    }

    /// Pass 1's constants: each label's intrinsic width, and one line of height (none for an
    /// empty text), changed as `update` says. The passes read a label's fields in place
    /// (`system.labels[l].…`): a `LabelRows` holds a font name, so a copy of one costs a retain
    /// and a release per label and pass.
    private mutating func configure<Text: Collection<UInt8>, Detail: Collection<UInt8>, Update: ConstantUpdate>(text: Text, detail: Detail, width: Double, update: Update.Type) throws(TemplateMeasurementError) {
        for l in system.labels.indices {
            let intrinsicWidth: Double, empty: Bool
            if system.labels[l].label.source == .text {
                intrinsicWidth = fonts[l] < 0 ? system.labels[l].label.intrinsicWidth(of: text) : Self.shapedWidth(text, textMeasurer!, font: fonts[l])
                empty = text.isEmpty
            } else {
                intrinsicWidth = fonts[l] < 0 ? system.labels[l].label.intrinsicWidth(of: detail) : Self.shapedWidth(detail, textMeasurer!, font: fonts[l])
                empty = detail.isEmpty
            }
            let height = empty ? 0 : system.labels[l].label.lineHeight
            try set(4 * l, row: system.labels[l].widthMin, intrinsicWidth, width: width, update: update)
            try set(4 * l + 1, row: system.labels[l].widthMax, intrinsicWidth, width: width, update: update)
            try set(4 * l + 2, row: system.labels[l].heightMin, height, width: width, update: update)
            try set(4 * l + 3, row: system.labels[l].heightMax, height, width: width, update: update)
        }
    }

    /// Pass 2: each label's lines at the width pass 1 gave it.
    private mutating func passTwo<Text: Collection<UInt8>, Detail: Collection<UInt8>, Update: ConstantUpdate>(text: Text, detail: Detail, width: Double, update: Update.Type) throws(TemplateMeasurementError) {
        // Read every width first: the pass-2 heights all come from pass 1's solution.
        for l in system.labels.indices {
            let labelWidth = solver.value(of: SolverVariable(index: system.labels[l].widthVariable))
            let lines: Int
            if fonts[l] >= 0 {
                lines = system.labels[l].label.source == .text
                    ? Self.shapedLines(text, textMeasurer!, font: fonts[l], width: labelWidth, maxLines: system.labels[l].label.maxLines)
                    : Self.shapedLines(detail, textMeasurer!, font: fonts[l], width: labelWidth, maxLines: system.labels[l].label.maxLines)
            } else {
                lines = system.labels[l].label.source == .text ? system.labels[l].label.lines(of: text, width: labelWidth) : system.labels[l].label.lines(of: detail, width: labelWidth)
            }
            passTwoHeights[l] = Double(lines) * system.labels[l].label.lineHeight
        }
        try setPassTwoHeights(width: width, update: update)
    }

    /// Pass 2's constants: the heights `passTwo` read.
    @inline(__always)
    private mutating func setPassTwoHeights<Update: ConstantUpdate>(width: Double, update: Update.Type) throws(TemplateMeasurementError) {
        for l in system.labels.indices {
            try set(4 * l + 2, row: system.labels[l].heightMin, passTwoHeights[l], width: width, update: update)
            try set(4 * l + 3, row: system.labels[l].heightMax, passTwoHeights[l], width: width, update: update)
        }
    }

    /// A font label's intrinsic width (the text measurer reads the bytes in place when they are
    /// contiguous, as an `ArraySlice` and a native `String`'s are).
    private static func shapedWidth<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ measurer: any LabelTextMeasuring, font: Int) -> Double {
        if let width = bytes.withContiguousStorageIfAvailable({ measurer.intrinsicWidth(of: $0, font: font) }) { return width }
        return Array(bytes).withUnsafeBufferPointer { measurer.intrinsicWidth(of: $0, font: font) }
    }

    /// A font label's lines at `width`.
    private static func shapedLines<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ measurer: any LabelTextMeasuring, font: Int, width: Double, maxLines: Int) -> Int {
        if let layout = bytes.withContiguousStorageIfAvailable({ measurer.layout(of: $0, font: font, width: width, maxLines: maxLines) }) {
            return layout.lines
        }
        return Array(bytes).withUnsafeBufferPointer { measurer.layout(of: $0, font: font, width: width, maxLines: maxLines).lines }
    }

    /// Gives label row `row` (slot `slot` of `labelConstants`) the value `value`, if it changed:
    /// re-optimised at once (`ReoptimizeEach`) or staged for `reoptimize` (`Staged`).
    private mutating func set<Update: ConstantUpdate>(_ slot: Int, row: Int, _ value: Double, width: Double, update: Update.Type) throws(TemplateMeasurementError) {
        guard labelConstants[slot] != value else { return }
        do {
            try Update.apply(&solver, handles[row], -value)
        } catch { throw Self.wrap(error, width: width, source: system.rows[row].source) }
        labelConstants[slot] = value
    }
}

// A cell measurement under a name of its own, never inlined, so that callgrind's profile
// (`--instructions`) counts it exactly: the harness splits its inclusive instructions into
// shaping, breaking and the solve, and what lies outside it is the height cache's and the
// table's (docs/csv.md, `solve_instructions`, `cache_instructions`).

@_silgen_name("layoutbench_cell_measurement") @inline(never)
func layoutbenchCellMeasurement(
    _ measurer: inout TemplateMeasurer, _ text: ArraySlice<UInt8>, _ detail: ArraySlice<UInt8>, _ width: Double
) throws(TemplateMeasurementError) -> Double {
    try measurer.measure(text: text, detail: detail, width: width)
}

@_silgen_name("layoutbench_cell_measurement_of_content") @inline(never)
func layoutbenchCellMeasurementOfContent(
    _ measurer: inout TemplateMeasurer, _ content: RowContent, _ width: Double
) throws(TemplateMeasurementError) -> Double {
    try measurer.measure(text: content.text.utf8, detail: content.detail.utf8, width: width)
}

/// How `TemplateMeasurer.set` changes a label row's constant. A type parameter rather than a
/// flag, so that each strategy's passes are compiled for it and the per-constant strategies run
/// the code they ran before the batched ones existed.
private protocol ConstantUpdate {
    static func apply(_ solver: inout ConstraintSolver, _ handle: ConstraintHandle, _ constant: Double) throws(ConstraintSolverError)
}

/// The constant changed and the solver re-optimised at once (one dual simplex per change).
private enum ReoptimizeEach: ConstantUpdate {
    @inline(__always)
    static func apply(_ solver: inout ConstraintSolver, _ handle: ConstraintHandle, _ constant: Double) throws(ConstraintSolverError) {
        try solver.updateConstant(handle, constant)
    }
}

/// The constant staged; `ConstraintSolver.reoptimize` re-optimises once for the batch.
private enum Staged: ConstantUpdate {
    @inline(__always)
    static func apply(_ solver: inout ConstraintSolver, _ handle: ConstraintHandle, _ constant: Double) throws(ConstraintSolverError) {
        try solver.stageConstant(handle, constant)
    }
}
