import LayoutEngine
import BenchResults
import BenchScenarios

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
package struct CellMeasureWorkload: Workload {
    package static let kind = "cell-measure"
    package static let about = "one fitting-height measurement of a row by its constraint template, row after row, widths rotating"

    /// Row widths the trace rotates through (default: the viewport's width).
    package var widths: [Double]?
    /// Measurements between width changes (default: every row once).
    package var rotateEvery: Int?
    /// Measurements checked against the LP reference (all when the trace is no longer).
    package var verifyMeasurements: Int
    package var operations: [Operation]

    package init(spec: JSONReader) throws(ScenarioError) {
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
    package func validate(_ scenario: Scenario) throws(ScenarioError) {
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
    package func rowWidths(_ scenario: Scenario) -> [Double] {
        let insets = scenario.layout.section(0).style.insets.horizontal
        return (widths ?? [scenario.viewportSize.width]).map { $0 - insets }
    }

    package var footprint: WorkloadFootprint { .none }

    package func makeFixture(scenario: Scenario, items: Int) throws -> CellMeasureFixture {
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
