import LayoutEngine
import TextShaping

/// The `data` object of a scenario: a generator or explicit items (docs/scenario-format.md). Exactly one of
/// `generate`, `sections` and `file`.
package enum ScenarioData: Hashable, Sendable, Codable {
    case generated(DataGenerator)
    /// `data.sections` or `data.file`: the items as given.
    case explicit(ExplicitItems)

    package var isExplicit: Bool {
        if case .explicit = self { return true }
        return false
    }

    /// Whether the rows' heights come from constraint templates (generated or named by explicit items).
    package var isTemplated: Bool {
        switch self {
        case .generated(let generator):
            if case .template = generator.heights { return true }
            return false
        case .explicit(let items):
            return !items.templateKinds.isEmpty
        }
    }

    /// `deferredSections`: the bytes of `data.sections`, left unparsed by `JSONParser`, for the
    /// fast scanner (see `Scenario.init(parsing:file:)`). Also reads `data.templates` (constraint
    /// templates, docs/scenario-format.md) into `templates`.
    /// `registeredKind`: the layout is a registered kind, whose generated items may all have widths.
    static func parse(
        _ node: JSONNode, layout: ScenarioLayout, deferredSections: DeferredSections? = nil, templates: inout [CellTemplate],
        registeredKind: Bool = false
    ) throws(ScenarioError) -> ScenarioData {
        let r = try node.object()
        if let t = r.optional("templates") { templates = try TemplateParsing.parseTemplates(t) }
        let given = [("generate", r.optional("generate")), ("sections", r.optional("sections")), ("file", r.optional("file"))]
            .filter { $0.1 != nil }
        try r.finish()
        guard let (key, value) = given.first.map({ ($0.0, $0.1!) }) else {
            throw r.error("expected 'generate' (a generator) or 'sections' (explicit items) or 'file' (a data file of items)")
        }
        if given.count > 1 {
            throw given[1].1!.error("'\(key)' and '\(given[1].0)' cannot be used together; give one")
        }
        switch key {
        case "generate":
            return .generated(try DataGenerator.parse(value, layout: layout, registeredKind: registeredKind))
        case "sections":
            if let deferredSections {
                switch ExplicitItemsScanner.scanSections(
                    deferredSections.bytes, range: deferredSections.range, expectedItems: deferredSections.objects, kind: { layout.section($0).style.kind.name }) {
                case .items(let items):
                    return .explicit(items)
                case .tooMany(let section, _):
                    deferredSections.isFinal = true
                    throw tooManyItems(file: node.file, path: JSONPath.appending(value.path, index: section))
                case .giveUp:
                    throw ScenarioError.readAgainStrictly
                }
            }
            return .explicit(try parseExplicit(value, layout: layout))
        default:
            return .explicit(try DataFile.read(value, layout: layout))
        }
    }

    /// The error at the section where explicit items pass `ScenarioLimits.maxItems`.
    static func tooManyItems(file: String, path: String) -> ScenarioError {
        ScenarioError(file: file, path: path, message: "explicit data may have at most \(ScenarioLimits.maxItems) items in all")
    }

    /// `[[{"w": 80, "h": 120, "fullWidth": true, "text": "…"}, …], …]`: `h` required, `w`
    /// required in flow sections (list and waterfall items take the region or column width; `w`
    /// defaults to 0 there), `fullWidth` only in waterfall sections, `text` optional. The strict
    /// reader: every error names its path (the fast scanner reads valid files).
    private static func parseExplicit(_ node: JSONNode, layout: ScenarioLayout) throws(ScenarioError) -> ExplicitItems {
        var result = ExplicitItems()
        let sectionNodes = try node.array(minCount: 1)
        guard sectionNodes.count <= ScenarioLimits.maxSections else {
            throw node.error("expected at most \(ScenarioLimits.maxSections) sections, got \(sectionNodes.count)")
        }
        for (s, sectionNode) in sectionNodes.enumerated() {
            let kind = layout.section(s).style.kind.name
            result.appendSection()
            for itemNode in try sectionNode.array() {
                guard result.count < ScenarioLimits.maxItems else { throw tooManyItems(file: sectionNode.file, path: sectionNode.path) }
                let r = try itemNode.object()
                let item = try readItem(r, kind: kind, section: s)
                try r.finish()
                result.append(width: item.width, height: item.height, spansAllColumns: item.spansAllColumns, text: item.text,
                              template: item.template, detail: item.detail)
            }
        }
        // No items at all is an empty state (headers, footers and insets only), laid out as UIKit does.
        return result
    }

    /// The keys `w`, `h`, `fullWidth` and `text` of one item of section `s`, a `kind`.
    static func readItem(
        _ r: JSONReader, kind: String, section s: Int
    ) throws(ScenarioError) -> (width: Double, height: Double, spansAllColumns: Bool, text: ArraySlice<UInt8>?, template: String?, detail: ArraySlice<UInt8>?) {
        let width: Double
        if kind == "flow" {
            guard let w = r.optional("w") else {
                throw r.error(at: "w", "missing required key 'w' (items of flow sections need a width; section \(s) is a flow)")
            }
            width = try w.double(.size)
        } else {
            width = try r.optionalDouble("w", default: 0, .size)
        }
        // A templated item (`"template"`, docs/scenario-format.md) takes its height from its template's
        // constraints. (Its keys are read after the others, so that "expected one of" lists
        // the keys in their usual order.)
        let templated = r.members.contains { $0.key == "template" }
        let height: Double
        if templated {
            if r.has("h") { throw r.error(at: "h", "a templated item's height comes from its template; leave 'h' out") }
            height = 0
        } else {
            height = try r.requireDouble("h", .size)
        }
        let fullWidth = try r.optionalBool("fullWidth", default: false)
        if fullWidth && kind != "waterfall" {
            throw r.error(at: "fullWidth", "full-width items exist only in waterfall sections; section \(s) is a \(kind)")
        }
        let text = try r.optional("text").map { (node) throws(ScenarioError) in try Self.labelText(node) }
        let template = try r.optional("template").map { (node) throws(ScenarioError) in try node.nonEmptyString() }
        let detail = try r.optional("detail").map { (node) throws(ScenarioError) in try Self.labelText(node) }
        if template == nil, detail != nil {
            throw r.error(at: "detail", "'detail' is shown by a constraint template's labels; give the item a 'template'")
        }
        return (width, height, fullWidth, text, template, detail)
    }

    /// An item's text: a string of at most `TextLimits.maximumBytes` UTF-8 bytes.
    static func labelText(_ node: JSONNode) throws(ScenarioError) -> ArraySlice<UInt8> {
        let bytes = ArraySlice(try node.string().utf8)
        guard bytes.count <= TextLimits.maximumBytes else {
            throw node.error("a text of \(bytes.count) UTF-8 bytes; at most \(TextLimits.maximumBytes) (docs/text.md)")
        }
        if let run = TextLimits.longMarkRun(in: bytes) { throw node.error(TextLimits.markRunMessage(run)) }
        return bytes
    }
}

/// The bytes of `data.sections` that `JSONParser` skipped, for `ExplicitItemsScanner`.
/// `isFinal` is set when the scanner's error stands (too many items) and must not be
/// re-derived by parsing the whole file again.
final class DeferredSections {
    let bytes: [UInt8]
    let range: Range<Int>
    /// How many `{` the range holds (an upper bound on the items).
    let objects: Int
    var isFinal = false

    init(bytes: [UInt8], range: Range<Int>, objects: Int) {
        self.bytes = bytes
        self.range = range
        self.objects = objects
    }
}

extension ScenarioError {
    /// Thrown when the fast reader of explicit items gives up; never shown (the scenario is
    /// then read again with the strict reader, which finds the real error).
    static let readAgainStrictly = ScenarioError(file: "", path: "", message: "read again with the strict reader")
}

/// `data.generate`: how many sections, how sizes are drawn, the seed.
///
/// Keys: `sections` (integer >= 1, default 1: the swept item count is spread evenly, the
/// remainder going to the first sections), `heights` (a `SizeDistribution`, required), `widths`
/// (a `SizeDistribution` except text, flow items only, default fixed 100 — an error when no
/// section is a flow), `seed` (integer >= 0, default 1), `fullWidthEvery` (integer >= 1,
/// optional, an added key: in waterfall sections every k-th item — indices k-1, 2k-1, … of the
/// section — spans all columns; an error when no section is a waterfall), `language` (the
/// generated texts' language, `TextLanguage`: "syllables" (default), "en", "ru", "zh",
/// "mixed"; text and template heights only). For a registered layout kind (docs/your-layout.md),
/// `widths` gives every item a width (`everyItemHasWidth`), drawn as a flow's are.
package struct DataGenerator: Hashable, Sendable, Codable {
    package var sections: Int
    package var heights: SizeDistribution
    package var widths: SizeDistribution
    package var seed: UInt64
    package var fullWidthEvery: Int?
    package var language: TextLanguage = .syllables
    /// Every item draws a width from `widths`, whatever its section's style: a registered kind's
    /// scenario gave `widths` (its items are laid out by the user's layout, not by a flow).
    package var everyItemHasWidth = false

    package static let defaultWidths = SizeDistribution.fixed(100)

    package init(sections: Int = 1, heights: SizeDistribution, widths: SizeDistribution = defaultWidths, seed: UInt64 = 1, fullWidthEvery: Int? = nil) {
        self.sections = sections
        self.heights = heights
        self.widths = widths
        self.seed = seed
        self.fullWidthEvery = fullWidthEvery
    }

    static func parse(_ node: JSONNode, layout: ScenarioLayout, registeredKind: Bool = false) throws(ScenarioError) -> DataGenerator {
        let r = try node.object()
        let sections = try r.optionalInt("sections", default: 1, .between(1, Double(ScenarioLimits.maxSections)))
        let heights = try SizeDistribution.parse(try r.require("heights"), allowText: true)
        let kinds = Set(layout.sections.map(\.style.kind.name))
        var widths = defaultWidths
        if let w = r.optional("widths") {
            widths = try SizeDistribution.parse(w, allowText: false)
            guard kinds.contains("flow") || registeredKind else {
                throw w.error("'widths' applies to flow items only, and no section of the layout is a flow")
            }
        }
        let seed = try r.optionalInt("seed", default: 1, .atLeast(0))
        let fullWidthEvery = try r.optionalInt("fullWidthEvery", .atLeast(1))
        if fullWidthEvery != nil, !kinds.contains("waterfall") {
            throw r.error(at: "fullWidthEvery", "'fullWidthEvery' applies to waterfall items only, and no section of the layout is a waterfall")
        }
        var language = TextLanguage.syllables
        if let node = r.optional("language") {
            language = try node.enumCase(TextLanguage.self)
            switch heights {
            case .text, .template: break
            default: throw node.error("'language' applies to generated text: heights with \"distribution\": \"text\" or \"template\"")
            }
        }
        try r.finish()
        var generator = DataGenerator(sections: sections, heights: heights, widths: widths, seed: UInt64(seed), fullWidthEvery: fullWidthEvery)
        generator.language = language
        generator.everyItemHasWidth = registeredKind && r.has("widths")
        return generator
    }

    /// `items` spread over `sections`: `items / sections` each, one more for the first
    /// `items % sections` sections.
    package func counts(items: Int) -> [Int] {
        let base = items / sections, extra = items % sections
        return (0..<sections).map { base + ($0 < extra ? 1 : 0) }
    }
}
