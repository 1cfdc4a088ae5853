import LayoutEngine

/// The `data` object of a scenario: a generator or explicit items (SPEC §5). Exactly one of
/// `generate` and `sections`.
public enum ScenarioData: Hashable, Sendable {
    case generated(DataGenerator)
    /// `data.sections`: one array per section, items as given.
    case explicit([[ItemSize]])

    public var isExplicit: Bool {
        if case .explicit = self { return true }
        return false
    }

    static func parse(_ node: JSONNode, layout: ScenarioLayout) throws(ScenarioError) -> ScenarioData {
        let r = try node.object()
        let generate = r.optional("generate")
        let sections = r.optional("sections")
        try r.finish()
        switch (generate, sections) {
        case (let g?, nil):
            return .generated(try DataGenerator.parse(g, layout: layout))
        case (nil, let s?):
            return .explicit(try parseExplicit(s, layout: layout))
        case (_?, let s?):
            throw s.error("'generate' and 'sections' cannot be used together; give one")
        case (nil, nil):
            throw r.error("expected 'generate' (a generator) or 'sections' (explicit items)")
        }
    }

    /// `[[{"w": 80, "h": 120, "fullWidth": true}, …], …]`: `h` required, `w` required in flow
    /// sections (list and waterfall items take the region or column width; `w` defaults to 0
    /// there), `fullWidth` only in waterfall sections.
    private static func parseExplicit(_ node: JSONNode, layout: ScenarioLayout) throws(ScenarioError) -> [[ItemSize]] {
        var result: [[ItemSize]] = []
        var total = 0
        let sectionNodes = try node.array(minCount: 1)
        guard sectionNodes.count <= ScenarioLimits.maxSections else {
            throw node.error("expected at most \(ScenarioLimits.maxSections) sections, got \(sectionNodes.count)")
        }
        for (s, sectionNode) in sectionNodes.enumerated() {
            let kind = layout.section(s).style.kind.name
            var items: [ItemSize] = []
            for itemNode in try sectionNode.array() {
                let r = try itemNode.object()
                let width: Double
                if kind == "flow" {
                    guard let w = r.optional("w") else {
                        throw r.error(at: "w", "missing required key 'w' (items of flow sections need a width; section \(s) is a flow)")
                    }
                    width = try w.double(.size)
                } else {
                    width = try r.optionalDouble("w", default: 0, .size)
                }
                let height = try r.requireDouble("h", .size)
                let fullWidth = try r.optionalBool("fullWidth", default: false)
                if fullWidth && kind != "waterfall" {
                    throw r.error(at: "fullWidth", "full-width items exist only in waterfall sections; section \(s) is a \(kind)")
                }
                try r.finish()
                items.append(ItemSize(width: width, height: height, spansAllColumns: fullWidth))
            }
            total += items.count
            guard total <= ScenarioLimits.maxItems else {
                throw sectionNode.error("explicit data may have at most \(ScenarioLimits.maxItems) items in all")
            }
            result.append(items)
        }
        // No items at all is an empty state (headers, footers and insets only), laid out as UIKit does.
        return result
    }
}

/// `data.generate`: how many sections, how sizes are drawn, the seed.
///
/// Keys: `sections` (integer >= 1, default 1: the swept item count is spread evenly, the
/// remainder going to the first sections), `heights` (a `SizeDistribution`, required), `widths`
/// (a `SizeDistribution` except text, flow items only, default fixed 100 — an error when no
/// section is a flow), `seed` (integer >= 0, default 1), `fullWidthEvery` (integer >= 1,
/// optional, an added key: in waterfall sections every k-th item — indices k-1, 2k-1, … of the
/// section — spans all columns; an error when no section is a waterfall).
public struct DataGenerator: Hashable, Sendable {
    public var sections: Int
    public var heights: SizeDistribution
    public var widths: SizeDistribution
    public var seed: UInt64
    public var fullWidthEvery: Int?

    public static let defaultWidths = SizeDistribution.fixed(100)

    public init(sections: Int = 1, heights: SizeDistribution, widths: SizeDistribution = defaultWidths, seed: UInt64 = 1, fullWidthEvery: Int? = nil) {
        self.sections = sections
        self.heights = heights
        self.widths = widths
        self.seed = seed
        self.fullWidthEvery = fullWidthEvery
    }

    static func parse(_ node: JSONNode, layout: ScenarioLayout) throws(ScenarioError) -> DataGenerator {
        let r = try node.object()
        let sections = try r.optionalInt("sections", default: 1, .between(1, Double(ScenarioLimits.maxSections)))
        let heights = try SizeDistribution.parse(try r.require("heights"), allowText: true)
        let kinds = Set(layout.sections.map(\.style.kind.name))
        var widths = defaultWidths
        if let w = r.optional("widths") {
            widths = try SizeDistribution.parse(w, allowText: false)
            guard kinds.contains("flow") else {
                throw w.error("'widths' applies to flow items only, and no section of the layout is a flow")
            }
        }
        let seed = try r.optionalInt("seed", default: 1, .atLeast(0))
        let fullWidthEvery = try r.optionalInt("fullWidthEvery", .atLeast(1))
        if fullWidthEvery != nil, !kinds.contains("waterfall") {
            throw r.error(at: "fullWidthEvery", "'fullWidthEvery' applies to waterfall items only, and no section of the layout is a waterfall")
        }
        try r.finish()
        return DataGenerator(sections: sections, heights: heights, widths: widths, seed: UInt64(seed), fullWidthEvery: fullWidthEvery)
    }

    /// `items` spread over `sections`: `items / sections` each, one more for the first
    /// `items % sections` sections.
    public func counts(items: Int) -> [Int] {
        let base = items / sections, extra = items % sections
        return (0..<sections).map { base + ($0 < extra ? 1 : 0) }
    }
}
