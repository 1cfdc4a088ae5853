import LayoutEngine
import TextShaping
import BenchResults

/// The most a templated row may measure (docs/scenario-format.md, "Limits"). A template's height
/// is known only once it is measured, so the limits the rest of a scenario keeps when it loads
/// are kept for templated rows where they are measured: any size at most
/// `ScenarioLimits.maxSize`, and the content height at the largest count after the workload at
/// most `ScenarioLimits.maxContentHeight`, which `ScenarioFootprint` turns into a height per row
/// (`items`: the count that sets it, when it is below the size limit).
package struct TemplateHeightLimit: Hashable, Sendable, Codable {
    package var height: Double
    package var items: Int?

    package init(height: Double = ScenarioLimits.maxSize, items: Int? = nil) {
        self.height = height
        self.items = items
    }

    /// Whether a measured row height is within the limit (NaN is not).
    package func admits(_ rowHeight: Double) -> Bool { rowHeight <= height }

    /// Why a row height passes the limit, after "… is H pt, ".
    package var exceeded: String {
        guard let items else { return "more than the limit of \(format(height)) pt for any size" }
        return "more than \(format(height)) pt, the most a row may take so that \(items) items (after the workload) "
            + "stay within the content height limit of \(format(ScenarioLimits.maxContentHeight)) pt"
    }

    /// The error for `template` measuring `rowHeight` at `rowWidth` (`item`: which item, if one).
    package func error(file: String, template: CellTemplate, rowHeight: Double, rowWidth: Double, item: Int?, emptyTexts: Bool = false) -> ScenarioError {
        let which = item.map { "item \($0): " } ?? ""
        let texts = emptyTexts ? " with empty texts" : ""
        return ScenarioError(
            file: file, path: "data.templates." + template.name,
            message: which + "the template's height\(texts) at a row width of \(format(rowWidth)) pt is \(format(rowHeight)) pt, "
                + exceeded + "; lower its sizes, line heights, lines or multipliers")
    }
}

extension Scenario {
    /// Measures every template the data names, with empty texts, at the row width of each list
    /// and waterfall section the data fills, and refuses one whose height already passes
    /// `templateHeightLimit` (a template of constant height, the usual way to pass it): found
    /// when the file loads, before anything runs. Heights that only the texts make too large are
    /// found as the rows are measured (`makeItems`). A template that cannot be measured here is
    /// left to the errors of those places.
    package func checkTemplateHeights() throws(ScenarioError) {
        let names: [String]
        let sectionCount: Int
        // Whether some row shows a text (a detail): then each label of that source takes at least
        // one line, which empty texts do not show.
        let showsText: Bool, showsDetail: Bool
        switch data {
        case .generated(let generator):
            guard case .template(let weights, _, let maxWords) = generator.heights else { return }
            names = weights.map(\.name)
            sectionCount = generator.sections
            showsText = maxWords > 0
            showsDetail = maxWords > 0
            // A generated text a label with a font shows is at most `TextLimits.maximumBytes`:
            // refused now when `maxWords` of the language's longest words could pass it.
            let longest = maxWords * WordGenerator.maximumBytesPerWord(generator.language)
            if longest > TextLimits.maximumBytes, names.compactMap({ template(named: $0) }).contains(where: TemplateMeasurer.needsText) {
                throw ScenarioError(file: file, path: "data.generate.heights.maxWords",
                                    message: "\(maxWords) words of \(generator.language.rawValue) text may take \(longest) UTF-8 bytes; a label with a font takes at most \(TextLimits.maximumBytes) (docs/text.md)")
            }
        case .explicit(let items):
            guard !items.templateKinds.isEmpty else { return }
            names = items.templateNames
            sectionCount = items.sectionCount
            showsText = items.texts.map(Self.anyNonEmpty) ?? false
            showsDetail = items.details.map(Self.anyNonEmpty) ?? false
        }
        // The shortest text that takes a line: one letter.
        let oneLetter: ArraySlice<UInt8> = [0x61]
        var widths: [Double] = []
        for s in 0..<Swift.min(sectionCount, layout.sections.count) {
            let style = layout.section(s).style
            if case .flow = style.kind { continue }
            let width = Self.measurementWidth(style: style, contentWidth: viewportSize.width, itemWidth: 0, spansAllColumns: false)
            if !widths.contains(width) { widths.append(width) }
        }
        for template in names.compactMap({ template(named: $0) }) {
            let text = (try? textMeasurer(for: [template], caching: false)) ?? nil
            for width in widths {
                guard var measurer = try? TemplateMeasurer(template: template, strategy: .editWidth, text: text),
                      let fitting = try? measurer.fittingHeight(text: [], detail: [], width: width - template.accessoryWidth)
                else { continue }
                let height = CellTemplate.rowHeight(fitting: fitting)
                if !templateHeightLimit.admits(height) {
                    throw templateHeightLimit.error(file: file, template: template, rowHeight: height, rowWidth: width, item: nil, emptyTexts: true)
                }
                guard showsText || showsDetail,
                      let oneLine = try? measurer.fittingHeight(
                          text: showsText ? oneLetter : [], detail: showsDetail ? oneLetter : [], width: width - template.accessoryWidth)
                else { continue }
                let lineRow = CellTemplate.rowHeight(fitting: oneLine)
                if !templateHeightLimit.admits(lineRow) {
                    throw oneLineError(template: template, rowHeight: lineRow, rowWidth: width, showsText: showsText, showsDetail: showsDetail)
                }
            }
        }
    }

    /// The error for a template whose height with one line in each label that shows text passes
    /// the limit: at the tallest such label's `lineHeight` (what makes the line tall), else at
    /// the template.
    private func oneLineError(template: CellTemplate, rowHeight: Double, rowWidth: Double, showsText: Bool, showsDetail: Bool) -> ScenarioError {
        let shown = template.views.compactMap { view -> (name: String, label: TemplateLabel)? in
            guard case .label(let label) = view.content, label.source == .text ? showsText : showsDetail else { return nil }
            return (view.name, label)
        }
        let path = "data.templates." + template.name
        let tallest = shown.max { $0.label.lineHeight < $1.label.lineHeight }
        let message = "the template's height with one line of text in each label at a row width of \(format(rowWidth)) pt is "
            + "\(format(rowHeight)) pt, " + templateHeightLimit.exceeded
        guard let tallest else {
            return ScenarioError(file: file, path: path, message: message + "; lower its sizes, line heights, lines or multipliers")
        }
        return ScenarioError(
            file: file, path: JSONPath.joining(path, "views." + tallest.name + ".label.lineHeight"),
            message: message + " (label \(JSONValue.quoted(tallest.name)): a line of \(format(tallest.label.lineHeight)) pt); lower its lineHeight")
    }

    private static func anyNonEmpty(_ texts: ItemTexts) -> Bool {
        (0..<texts.count).contains { !texts[$0].isEmpty }
    }
}
