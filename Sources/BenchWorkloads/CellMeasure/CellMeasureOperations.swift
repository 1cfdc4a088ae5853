import LayoutEngine
import BenchResults
import BenchScenarios

extension CellMeasureWorkload {
    package enum Operation: String, WorkloadOperation {
        /// One row's fitting height.
        case measure

        package var timed: String {
            "one row's fitting height by its template at the trace's width, row after row, wrapping at the end of the trace "
                + "(every row at `widths[0]`, then at the next width, or a new width every `rotateEvery` measurements); "
                + "a sample is a batch of consecutive measurements, divided"
        }
        package var untimed: String {
            "the rows, their texts and template index, built once; each mode's measurer per template (the long-lived solver "
                + "of `fd-add-remove` and `edit-width`, the closed form of `frame`), built before the first sample"
        }
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
