import BenchStatistics
import LayoutEngine
import TextShaping
import BenchResults

/// One scenario file (docs/scenario-format.md), parsed strictly: a layout configuration, a data set, a workload,
/// the modes to compare and the item counts to sweep.
///
/// Top-level keys: `name`, `description` (non-empty strings of at most `ScenarioLimits.maxNameBytes`
/// and `maxDescriptionBytes`), `viewport` (optional: `width` > 0,
/// `height` > 0, defaults 390 x 844), `layout` (`ScenarioLayout`), `data` (`ScenarioData`),
/// `workload` (`ScenarioWorkload`: its `kind` is checked here, the rest by the harness), `modes`
/// (non-empty array of unique non-empty strings, checked against the workload by the harness
/// with `checkModes(allowed:)`), `items` (non-empty array of unique integers >= 1; required with
/// `data.generate`, must be left out with `data.sections`). Any other key is an error.
/// Errors come one at a time, the first found, as `ScenarioError`.
package struct Scenario: Hashable, Sendable, Codable {
    package var file: String
    package var name: String
    package var description: String
    package var viewportSize: Size
    package var layout: ScenarioLayout
    package var data: ScenarioData
    package var workload: ScenarioWorkload
    package var modes: [String]
    /// `items` as written (nil with explicit data).
    package var items: [Int]?
    /// `data.templates`: the constraint templates the scenario defines (the built-in row kinds
    /// are available by name without being listed).
    package var templates: [CellTemplate] = []
    /// The most a templated row may measure: the size limit, or less where the content height
    /// limit asks for less (`BenchmarkPlan` sets it from `ScenarioFootprint`).
    package var templateHeightLimit = TemplateHeightLimit()
    /// `layout.kind` and, for a registered kind (`LayoutCatalog`), its keys' values. Optional only
    /// so that scenarios encoded before it decode; the parser always sets it.
    package var layoutSelection: LayoutSelection?

    /// The `layout.kind` this scenario names.
    package var layoutKind: String { layoutSelection?.kind ?? layout.sections[0].style.kind.name }

    /// Whether the layout is a registered kind rather than a built-in one (`list`, `flow`,
    /// `waterfall`): only the generic workloads (`layout-prepare`, `layout-query`) run it.
    package var isRegisteredLayout: Bool { LayoutCatalog.kind(named: layoutKind)?.builtInSchema == false }

    /// The template named `name`: one of `templates`, or a built-in row kind.
    package func template(named name: String) -> CellTemplate? {
        templates.first { $0.name == name } ?? BuiltInRowKind(rawValue: name)?.template
    }

    package static let defaultViewport = Size(width: 390, height: 844)

    /// The viewport at offset zero; its width is the content width.
    package var viewport: Rect { Rect(x: 0, y: 0, width: viewportSize.width, height: viewportSize.height) }

    /// The item counts to sweep: `items`, or for explicit data the number of items given.
    package var itemCounts: [Int] {
        switch data {
        case .generated: return items ?? []
        case .explicit(let items): return [items.count]
        }
    }

    // MARK: Parsing

    /// Parses a scenario from the bytes of a JSON file; `file` names it in errors.
    ///
    /// Explicit items (`data.sections`) are not built as a JSON tree: the parser skips their
    /// bytes and `ExplicitItemsScanner` reads them straight into flat arrays. When that scanner
    /// meets anything it does not accept, or the scenario has any other error, the file is read
    /// again the strict way (`fast: false`), so that errors are found in the same order and
    /// named with the same precision whatever the size of the data.
    package init(parsing bytes: [UInt8], file: String, fast: Bool = true) throws(ScenarioError) {
        guard fast else {
            self = try Scenario(JSONReader(document: try JSONParser.parse(bytes, file: file), file: file), deferredSections: nil)
            return
        }
        var deferred: DeferredSections?
        do {
            let (document, range, objects) = try JSONParser.parse(bytes, file: file, deferring: ["data", "sections"])
            deferred = range.map { DeferredSections(bytes: bytes, range: $0, objects: objects) }
            self = try Scenario(JSONReader(document: document, file: file), deferredSections: deferred)
        } catch {
            // Skipping the deferred bytes only counts brackets, so an error found after them, or
            // by the scanner, is found again (and named) by the strict reading.
            guard deferred?.isFinal != true else { throw error }
            self = try Scenario(parsing: bytes, file: file, fast: false)
        }
    }

    package init(parsing text: String, file: String) throws(ScenarioError) {
        try self.init(parsing: Array(text.utf8), file: file)
    }

    private init(_ root: JSONReader, deferredSections: DeferredSections?) throws(ScenarioError) {
        file = root.file
        name = try Self.boundedText(root, "name", maxBytes: ScenarioLimits.maxNameBytes)
        description = try Self.boundedText(root, "description", maxBytes: ScenarioLimits.maxDescriptionBytes)
        viewportSize = Self.defaultViewport
        if let v = try root.optionalObject("viewport") {
            viewportSize.width = try v.optionalDouble("width", default: Self.defaultViewport.width, .positiveSize)
            viewportSize.height = try v.optionalDouble("height", default: Self.defaultViewport.height, .positiveSize)
            try v.finish()
        }
        let layoutNode = try root.require("layout")
        let layoutReader = try layoutNode.object()
        let kindName = try layoutReader.require("kind").oneOf(LayoutCatalog.names)
        let kind = LayoutCatalog.kind(named: kindName)!
        if kind.builtInSchema {
            layout = try ScenarioLayout.parse(layoutNode, contentWidth: viewportSize.width)
            layoutSelection = LayoutSelection(kind: kindName)
        } else {
            // A registered kind reads its own keys; its data is generated as for a list (heights;
            // widths only when the scenario gives `data.generate.widths`): one default list style.
            layoutSelection = LayoutSelection(kind: kindName, values: try kind.readValues(layoutReader))
            layout = ScenarioLayout(sections: [ScenarioSection(style: SectionStyle())])
        }
        var templates: [CellTemplate] = []
        data = try ScenarioData.parse(
            try root.require("data"), layout: layout, deferredSections: deferredSections, templates: &templates,
            registeredKind: !kind.builtInSchema)
        self.templates = templates
        switch data {
        case .explicit(let explicitItems):
            if root.has("items") {
                throw root.error(at: "items",
                    "must be left out with explicit data.sections or data.file (the count is the number of items given: \(explicitItems.count))")
            }
            items = nil
        case .generated:
            var counts: [Int] = []
            let itemsNode = try root.require("items")
            let nodes = try itemsNode.array(minCount: 1)
            guard nodes.count <= ScenarioLimits.maxItemCounts else {
                throw itemsNode.error("expected at most \(ScenarioLimits.maxItemCounts) item counts, got \(nodes.count)")
            }
            for node in nodes {
                let count = try node.int(.between(1, Double(ScenarioLimits.maxItems)))
                if counts.contains(count) { throw node.error("duplicate item count \(count)") }
                counts.append(count)
            }
            items = counts
        }
        workload = try ScenarioWorkload.parse(try root.require("workload"))
        var modes: [String] = []
        let modesNode = try root.require("modes")
        let modeNodes = try modesNode.array(minCount: 1)
        guard modeNodes.count <= ScenarioLimits.maxModes else {
            throw modesNode.error("expected at most \(ScenarioLimits.maxModes) modes, got \(modeNodes.count)")
        }
        for node in modeNodes {
            let mode = try node.nonEmptyString()
            if modes.contains(mode) { throw node.error("duplicate mode \(JSONValue.quoted(mode))") }
            modes.append(mode)
        }
        self.modes = modes
        if case .generated(let generator) = data, case .template(let weights, _, _) = generator.heights {
            for weight in weights where template(named: weight.name) == nil {
                let known = (templates.map(\.name) + BuiltInRowKind.allCases.map(\.rawValue)).map { JSONValue.quoted($0) }.joined(separator: ", ")
                throw ScenarioError(file: file, path: "data.generate.heights.templates." + weight.name,
                                    message: "unknown template \(JSONValue.quoted(weight.name)); expected one of \(known)")
            }
        }
        if case .explicit(let explicitItems) = data, !explicitItems.templateKinds.isEmpty {
            if let i = explicitItems.templateKinds.firstIndex(of: -1) {
                throw ScenarioError(file: file, path: "data", message: "item \(i) names no template while others do; every item of templated data names one")
            }
            for name in explicitItems.templateNames where template(named: name) == nil {
                let known = (templates.map(\.name) + BuiltInRowKind.allCases.map(\.rawValue)).map { JSONValue.quoted($0) }.joined(separator: ", ")
                let i = explicitItems.templateKinds.firstIndex(of: explicitItems.templateNames.firstIndex(of: name)!)!
                throw ScenarioError(file: file, path: "data", message: "item \(i) names an unknown template \(JSONValue.quoted(name)); expected one of \(known)")
            }
        }
        try root.finish()
    }

    /// A required non-empty string of at most `maxBytes` UTF-8 bytes: the name and description
    /// reach every results file, whose readers refuse a record past 1 MiB, and the name the paths
    /// and command lines built from it, so a longer one is refused here, before anything runs.
    private static func boundedText(_ root: JSONReader, _ key: String, maxBytes: Int) throws(ScenarioError) -> String {
        let text = try root.requireNonEmptyString(key)
        let bytes = text.utf8.count
        guard bytes <= maxBytes else {
            throw root.error(at: key, "expected at most \(maxBytes) bytes of UTF-8, got \(bytes)")
        }
        return text
    }

    // MARK: Modes

    /// An error at `modes[index]`.
    package func modeError(_ index: Int, _ message: String) -> ScenarioError {
        ScenarioError(file: file, path: JSONPath.appending("modes", index: index), message: message)
    }

    /// Fails at the first mode that is not in `allowed` (the modes of the workload).
    package func checkModes(allowed: [String]) throws(ScenarioError) {
        for (i, mode) in modes.enumerated() where !allowed.contains(mode) {
            throw modeError(i, "unknown mode \(JSONValue.quoted(mode)) for workload \(JSONValue.quoted(workload.kind)); expected one of "
                + allowed.map { JSONValue.quoted($0) }.joined(separator: ", "))
        }
    }

    // MARK: Engine inputs

    /// The resolved section styles; the layout cycles through them.
    package func makeStyles() -> [SectionStyle] { layout.styles }

    /// The data for `items` items (explicit data: its first `items` items, see
    /// `ExplicitItems.prefix(_:)`; `items` must be from 1 to the count given).
    /// Same scenario and count, same data, bit for bit, on every platform.
    package func makeData(items: Int) throws(ScenarioError) -> LayoutData {
        try makeItems(items: items).data
    }

    /// The data plus, for text heights, the texts and the template cell.
    package func makeItems(items count: Int) throws(ScenarioError) -> GeneratedItems {
        switch data {
        case .explicit(let explicitItems):
            guard count <= explicitItems.count, count >= 1 || count == explicitItems.count else {
                throw ScenarioError(file: file, path: "data", message: Self.explicitCountMessage(given: explicitItems.count, asked: count))
            }
            let items = explicitItems.prefix(count)
            if !items.templateKinds.isEmpty { return try measureExplicit(items) }
            do {
                return GeneratedItems(data: try items.makeData(), texts: items.texts)
            } catch {
                throw ScenarioError(file: file, path: "data." + error.field, message: error.description)
            }
        case .generated(let generator):
            guard count >= 0 else {
                throw ScenarioError(file: file, path: "items", message: "expected an item count >= 0, got \(count)")
            }
            return try generate(generator, items: count)
        }
    }

    /// Why `asked` items cannot be taken from explicit data of `given` items.
    package static func explicitCountMessage(given: Int, asked: Int) -> String {
        "explicit data has \(given) items; cannot take the first \(asked) (an item count for explicit data must be from 1 to \(given))"
    }

    /// The width a template cell of an item is measured at: the items region for a list, the
    /// equal column width for a waterfall (the region for a full-width item; weighted columns
    /// are measured at the equal width too, since the column is only known after placement),
    /// the item's own width in a flow.
    package static func measurementWidth(style: SectionStyle, contentWidth: Double, itemWidth: Double, spansAllColumns: Bool) -> Double {
        let region = contentWidth - style.insets.horizontal
        switch style.kind {
        case .list:
            return region
        case .flow:
            return itemWidth
        case .waterfall(let waterfall):
            if spansAllColumns { return region }
            return (region - Double(waterfall.columns - 1) * style.itemSpacing) / Double(waterfall.columns)
        }
    }

    /// Draws the items in global order. Heights (and texts) come from one stream of the seed,
    /// flow widths from another, so adding `widths` does not change the heights.
    private func generate(_ g: DataGenerator, items count: Int) throws(ScenarioError) -> GeneratedItems {
        var heightRNG = SplitMix64(seed: g.seed, stream: 1)
        var widthRNG = SplitMix64(seed: g.seed, stream: 2)
        var widths: [Double] = [], heights: [Double] = [], spans: [Bool] = []
        widths.reserveCapacity(count)
        heights.reserveCapacity(count)
        spans.reserveCapacity(count)
        var texts = ItemTexts()
        var textCell: TemplateCell?
        var wordRange = 0...0
        if case .text(let minWords, let maxWords, let cell) = g.heights {
            textCell = cell
            wordRange = minWords...maxWords
            texts.reserveCapacity(items: count, bytes: count * (minWords + maxWords) * 4)
        }
        if case .template(let weights, let minWords, let maxWords) = g.heights {
            return try generateTemplated(g, weights: weights, words: minWords...maxWords, items: count)
        }
        let counts = g.counts(items: count)
        for (s, n) in counts.enumerated() {
            let style = layout.section(s).style
            for i in 0..<n {
                var width = 0.0
                var spansAll = false
                switch style.kind {
                case .list: if g.everyItemHasWidth { width = g.widths.sample(using: &widthRNG) }
                case .flow: width = g.widths.sample(using: &widthRNG)
                case .waterfall: if let k = g.fullWidthEvery, (i + 1) % k == 0 { spansAll = true }
                }
                let height: Double
                if let cell = textCell {
                    texts.appendGenerated(words: heightRNG.nextInt(in: wordRange), language: g.language, using: &heightRNG)
                    let at = Self.measurementWidth(
                        style: style, contentWidth: viewportSize.width, itemWidth: width, spansAllColumns: spansAll)
                    height = cell.height(of: texts[texts.count - 1], width: at)
                } else {
                    height = g.heights.sample(using: &heightRNG)
                }
                widths.append(width)
                heights.append(height)
                spans.append(spansAll)
            }
        }
        do {
            let data = try LayoutData(widths: widths, heights: heights, spansAllColumns: spans, counts: counts)
            return GeneratedItems(data: data, texts: textCell == nil ? nil : texts, cell: textCell)
        } catch {
            throw ScenarioError(file: file, path: "data.generate", message: error.description)
        }
    }

    /// Templated rows: per item, a template drawn by weight, a text and a detail, and the height
    /// the template's constraints give at the width available to the item (one `edit-width`
    /// measurer per template).
    private func generateTemplated(_ g: DataGenerator, weights: [TemplateWeight], words: ClosedRange<Int>, items count: Int) throws(ScenarioError) -> GeneratedItems {
        var rng = SplitMix64(seed: g.seed, stream: 1)
        var widthRNG = SplitMix64(seed: g.seed, stream: 2)
        var resolved: [CellTemplate] = []
        for weight in weights {
            guard let template = template(named: weight.name) else {
                throw ScenarioError(file: file, path: "data.generate.heights.templates." + weight.name, message: "unknown template \(JSONValue.quoted(weight.name))")
            }
            resolved.append(template)
        }
        var measurers: [TemplateMeasurer?] = Array(repeating: nil, count: resolved.count)
        let text = try textMeasurer(for: resolved)
        let textLimit = text == nil ? Int.max : TextLimits.maximumBytes
        let total = weights.reduce(0) { $0 + $1.weight }
        var widths: [Double] = [], heights: [Double] = [], spans: [Bool] = [], kinds: [Int] = []
        widths.reserveCapacity(count)
        heights.reserveCapacity(count)
        kinds.reserveCapacity(count)
        var texts = ItemTexts(), details = ItemTexts()
        texts.reserveCapacity(items: count, bytes: count * words.upperBound * 4)
        details.reserveCapacity(items: count, bytes: count * words.upperBound * 4)
        let counts = g.counts(items: count)
        for (s, n) in counts.enumerated() {
            let style = layout.section(s).style
            for _ in 0..<n {
                var draw = rng.nextDouble() * total
                var kind = 0
                while kind < weights.count - 1, draw >= weights[kind].weight {
                    draw -= weights[kind].weight
                    kind += 1
                }
                texts.appendGenerated(words: rng.nextInt(in: words), language: g.language, using: &rng)
                details.appendGenerated(words: rng.nextInt(in: words), language: g.language, using: &rng)
                if texts[texts.count - 1].count > textLimit || details[details.count - 1].count > textLimit {
                    throw ScenarioError(file: file, path: "data.generate.heights.maxWords",
                                        message: "item \(texts.count - 1): a generated text longer than \(TextLimits.maximumBytes) UTF-8 bytes, the most a label with a font takes (docs/text.md); lower maxWords")
                }
                var width = 0.0
                if case .flow = style.kind { width = g.widths.sample(using: &widthRNG) } else if g.everyItemHasWidth { width = g.widths.sample(using: &widthRNG) }
                let rowWidth = Self.measurementWidth(style: style, contentWidth: viewportSize.width, itemWidth: width, spansAllColumns: false)
                let template = resolved[kind]
                do {
                    if measurers[kind] == nil { measurers[kind] = try TemplateMeasurer(template: template, strategy: .editWidth, text: text) }
                    let fitting = try measurers[kind]!.fittingHeight(
                        text: texts[texts.count - 1], detail: details[details.count - 1], width: rowWidth - template.accessoryWidth)
                    heights.append(CellTemplate.rowHeight(fitting: fitting))
                } catch {
                    throw ScenarioError(file: file, path: "data.templates." + template.name,
                                        message: TemplateErrors.describe(error, template: template))
                }
                if !templateHeightLimit.admits(heights[heights.count - 1]) {
                    throw templateHeightLimit.error(file: file, template: template, rowHeight: heights[heights.count - 1],
                                                    rowWidth: rowWidth, item: heights.count - 1)
                }
                widths.append(width)
                spans.append(false)
                kinds.append(kind)
            }
        }
        do {
            let data = try LayoutData(widths: widths, heights: heights, spansAllColumns: spans, counts: counts)
            return GeneratedItems(data: data, texts: texts, templated: TemplatedRows(templates: resolved, kinds: kinds, details: details))
        } catch {
            throw ScenarioError(file: file, path: "data.generate", message: error.description)
        }
    }

    /// A text measurer for templates whose labels name a font (cached: generation measures each
    /// text twice), nil when none does.
    package func textMeasurer(for templates: [CellTemplate], caching: Bool = true) throws(ScenarioError) -> (any LabelTextMeasuring)? {
        guard templates.contains(where: TemplateMeasurer.needsText) else { return nil }
        do { return try TextEngine.makeMeasurer(caching: caching) } catch {
            throw ScenarioError(file: file, path: "data.templates", message: error.message)
        }
    }

    /// Explicit items that name templates: each measured at the width available to it.
    private func measureExplicit(_ items: ExplicitItems) throws(ScenarioError) -> GeneratedItems {
        let resolved = items.templateNames.compactMap { template(named: $0) }
        guard resolved.count == items.templateNames.count, let texts = items.texts, let details = items.details else {
            throw ScenarioError(file: file, path: "data", message: "templated items without their templates or texts")
        }
        var measurers: [TemplateMeasurer?] = Array(repeating: nil, count: resolved.count)
        let text = try textMeasurer(for: resolved)
        var heights: [Double] = []
        heights.reserveCapacity(items.count)
        var global = 0
        for (s, n) in items.sectionCounts.enumerated() {
            let style = layout.section(s).style
            for _ in 0..<n {
                let kind = items.templateKinds[global]
                let template = resolved[kind]
                let rowWidth = Self.measurementWidth(style: style, contentWidth: viewportSize.width, itemWidth: items.widths[global],
                                                     spansAllColumns: items.spansAllColumns[global])
                do {
                    if measurers[kind] == nil { measurers[kind] = try TemplateMeasurer(template: template, strategy: .editWidth, text: text) }
                    let fitting = try measurers[kind]!.fittingHeight(text: texts[global], detail: details[global], width: rowWidth - template.accessoryWidth)
                    heights.append(CellTemplate.rowHeight(fitting: fitting))
                } catch {
                    throw ScenarioError(file: file, path: "data.templates." + template.name, message: "item \(global): " + TemplateErrors.describe(error, template: template))
                }
                if !templateHeightLimit.admits(heights[global]) {
                    throw templateHeightLimit.error(file: file, template: template, rowHeight: heights[global], rowWidth: rowWidth, item: global)
                }
                global += 1
            }
        }
        do {
            let data = try LayoutData(widths: items.widths, heights: heights, spansAllColumns: items.spansAllColumns, counts: items.sectionCounts)
            return GeneratedItems(data: data, texts: texts, templated: TemplatedRows(templates: resolved, kinds: items.templateKinds, details: details))
        } catch {
            throw ScenarioError(file: file, path: "data", message: error.description)
        }
    }
}
