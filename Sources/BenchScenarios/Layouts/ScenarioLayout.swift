import LayoutEngine

/// How a header or footer behaves when scrolling (`header.pin`, `footer.pin`; docs/engine-semantics.md).
package enum PinBehavior: String, Hashable, Sendable, Codable, CaseIterable {
    case none
    case normal
    case stacked

    /// Footers cannot stack.
    package static let footerCases: [PinBehavior] = [.none, .normal]

    /// The engine's pin for a header that behaves so. A switch, not the raw value, so a case
    /// added to either enum fails to compile here instead of failing at run time.
    package var headerPin: HeaderPin {
        switch self {
        case .none: return .none
        case .normal: return .normal
        case .stacked: return .stacked
        }
    }
}

/// One resolved section style of a scenario: the engine style (pins included), the pins as
/// written, and the JSON path it came from (`layout` or `layout.sections[i]`).
package struct ScenarioSection: Hashable, Sendable, Codable {
    package var style: SectionStyle
    package var headerPin: PinBehavior = .none
    package var footerPin: PinBehavior = .none
    package var path = "layout"
}

/// The `layout` object of a scenario (docs/scenario-format.md).
///
/// Keys: `kind` (required: list, flow, waterfall), `columns` (waterfall, >= 1, default 2),
/// `weights` (waterfall: one positive number per column), `direction` (waterfall:
/// shortest-first, left-to-right, right-to-left; default shortest-first — an added key),
/// `placement` (waterfall, how shortest-first breaks ties: leftmost, last-index, grid-lanes;
/// default leftmost), `tolerance` (grid-lanes placement only: >= 0 points, default 16),
/// `itemSpacing`, `lineSpacing` (>= 0, default 0), `insets` {top, left, bottom, right} (each
/// >= 0, default 0), `header` {height, pin}, `footer` {height, pin} (height >= 0, default 0 =
/// none; pin default none), `background` (bool, default false), `justify`, `align` (flow,
/// default start), `pinOffset` (>= 0, default 0), `selfSizingAnchor` (the built-in layout's rule
/// for the content offset when a self-sizing item changes size: none, exact, tanstack, flutter;
/// default none), `sections`.
///
/// `sections` is a non-empty array of per-section overrides with the same keys except
/// `pinOffset`, `selfSizingAnchor` and `sections`; section `s` uses entry `s % count`. An override replaces the
/// layout-level value; inside `insets`, `header` and `footer` each key is overridden on its own
/// (`{"insets": {"left": 0}}` keeps the layout's other insets).
///
/// Kind-specific keys: `justify` and `align` apply to flow sections, `columns`, `weights`,
/// `direction`, `placement` and `tolerance` to waterfall sections. In a section entry, such a key is an error unless that
/// section is of its kind. At layout level it is a default for the sections, and is an error
/// only when no section of the layout is of its kind. Spacing, insets, header, footer and
/// background apply to every kind (`itemSpacing` has no effect on a list).
///
/// Pinning: `pin` is `none`, `normal` or `stacked` for headers, `none` or `normal` for footers
/// (docs/engine-semantics.md); `pinOffset` is the layout's T - offset.
package struct ScenarioLayout: Hashable, Sendable, Codable {
    /// The resolved styles; the layout cycles through them.
    package var sections: [ScenarioSection]
    package var pinOffset: Double
    /// The built-in layout's `SectionedLayout.selfSizingAnchor`.
    package var selfSizingAnchor: ScrollAnchorMode

    package init(sections: [ScenarioSection], pinOffset: Double = 0, selfSizingAnchor: ScrollAnchorMode = .none) {
        self.sections = sections
        self.pinOffset = pinOffset
        self.selfSizingAnchor = selfSizingAnchor
    }

    package var styles: [SectionStyle] { sections.map(\.style) }

    /// The resolved section that section `s` of the data uses.
    package func section(_ s: Int) -> ScenarioSection { sections[s % sections.count] }

    package static let kindNames = ["list", "flow", "waterfall"]

    /// Parses and validates `layout` for content width `contentWidth`.
    package static func parse(_ node: JSONNode, contentWidth: Double) throws(ScenarioError) -> ScenarioLayout {
        let r = try node.object()
        let top = try Layer.parse(r, isTop: true)
        let pinOffset = try r.optionalDouble("pinOffset", default: 0, .size)
        let selfSizingAnchor = try r.optionalEnum("selfSizingAnchor", default: ScrollAnchorMode.none)
        let entries: [Layer]
        if let sectionsNode = r.optional("sections") {
            let sectionNodes = try sectionsNode.array(minCount: 1)
            guard sectionNodes.count <= ScenarioLimits.maxSectionStyles else {
                throw sectionsNode.error("expected at most \(ScenarioLimits.maxSectionStyles) section styles, got \(sectionNodes.count)")
            }
            var list: [Layer] = []
            for entry in sectionNodes { list.append(try Layer.parse(try entry.object(), isTop: false)) }
            entries = list
        } else {
            entries = []
        }
        try r.finish()

        var sections: [ScenarioSection] = []
        if entries.isEmpty {
            sections.append(try resolve(top: top, entry: nil, contentWidth: contentWidth))
        } else {
            for entry in entries { sections.append(try resolve(top: top, entry: entry, contentWidth: contentWidth)) }
        }
        // Kind-specific keys at layout level must serve at least one section.
        let kinds = Set(sections.map(\.style.kind.name))
        for (key, kind) in Layer.kindSpecific {
            guard let path = top.paths[key], !kinds.contains(kind) else { continue }
            let message = entries.isEmpty
                ? "'\(key)' applies to \(kind) sections only; this layout is a \(top.kind!.value)"
                : "'\(key)' applies to \(kind) sections only, and no entry of layout.sections is a \(kind)"
            throw ScenarioError(file: r.file, path: path, message: message)
        }
        if let tolerance = top.tolerance, !sections.contains(where: Self.usesGridLanes) {
            let message = entries.isEmpty
                ? "'tolerance' applies to placement grid-lanes only; this layout's placement is \(top.placement?.value ?? "leftmost")"
                : "'tolerance' applies to placement grid-lanes only, and no entry of layout.sections uses it"
            throw ScenarioError(file: r.file, path: tolerance.path, message: message)
        }
        return ScenarioLayout(sections: sections, pinOffset: pinOffset, selfSizingAnchor: selfSizingAnchor)
    }

    private static func usesGridLanes(_ section: ScenarioSection) -> Bool {
        if case .waterfall(let waterfall) = section.style.kind, case .gridLanes = waterfall.placement { return true }
        return false
    }

    /// Layout-level values, overridden by a section entry, checked against the engine.
    private static func resolve(top: Layer, entry: Layer?, contentWidth: Double) throws(ScenarioError) -> ScenarioSection {
        let file = top.file
        let path = entry?.path ?? top.path
        func pick<T>(_ key: KeyPath<Layer, Tagged<T>?>) -> Tagged<T>? { entry?[keyPath: key] ?? top[keyPath: key] }
        let kind = pick(\.kind)!  // required at layout level
        if let entry {
            for (key, requiredKind) in Layer.kindSpecific where requiredKind != kind.value {
                guard let keyPath = entry.paths[key] else { continue }
                let from = entry.kind == nil ? " (its kind comes from \(kind.path))" : ""
                throw ScenarioError(
                    file: file, path: keyPath,
                    message: "'\(key)' applies to \(requiredKind) sections only; this section is a \(kind.value)\(from)")
            }
        }
        var style = SectionStyle()
        switch kind.value {
        case "list":
            style.kind = .list
        case "flow":
            style.kind = .flow(justify: pick(\.justify)?.value ?? .start, align: pick(\.align)?.value ?? .start)
        default:
            let placementName = pick(\.placement)?.value ?? WaterfallPlacementRule.leftmost.name
            let tolerance = pick(\.tolerance)
            let placement: WaterfallPlacementRule
            switch placementName {
            case WaterfallPlacementRule.lastIndex.name: placement = .lastIndex
            case "grid-lanes": placement = .gridLanes(tolerance: tolerance?.value ?? WaterfallPlacementRule.defaultTolerance)
            default: placement = .leftmost
            }
            // A section's own tolerance needs its placement to be grid-lanes; a layout-level one is a
            // default, checked in `parse` against all the sections.
            if let tolerance = entry?.tolerance, placement.name != "grid-lanes" {
                throw ScenarioError(
                    file: file, path: tolerance.path,
                    message: "'tolerance' applies to placement grid-lanes only; this section's placement is \(placementName)")
            }
            style.kind = .waterfall(WaterfallStyle(
                columns: pick(\.columns)?.value ?? 2, weights: pick(\.weights)?.value,
                direction: pick(\.direction)?.value ?? .shortestFirst, placement: placement))
        }
        style.itemSpacing = pick(\.itemSpacing)?.value ?? 0
        style.lineSpacing = pick(\.lineSpacing)?.value ?? 0
        style.insets = EdgeInsets(
            top: pick(\.insetTop)?.value ?? 0, left: pick(\.insetLeft)?.value ?? 0,
            bottom: pick(\.insetBottom)?.value ?? 0, right: pick(\.insetRight)?.value ?? 0)
        style.headerHeight = pick(\.headerHeight)?.value ?? 0
        style.footerHeight = pick(\.footerHeight)?.value ?? 0
        style.background = pick(\.background)?.value ?? false
        let headerPin = pick(\.headerPin)
        let footerPin = pick(\.footerPin)
        style.headerPin = (headerPin?.value ?? .none).headerPin
        style.footerPin = footerPin?.value == .normal ? .normal : .none

        do {
            try style.validate(contentWidth: contentWidth, field: "@")
        } catch {
            throw mapValidationError(error, top: top, entry: entry, style: style, contentWidth: contentWidth)
        }
        return ScenarioSection(style: style, headerPin: headerPin?.value ?? .none, footerPin: footerPin?.value ?? .none, path: path)
    }

    /// Turns an engine `LayoutError` (field `@.insets.left`, `@.weights[2]`, …) into an error at
    /// the JSON path where the offending value was written.
    private static func mapValidationError(
        _ error: LayoutError, top: Layer, entry: Layer?, style: SectionStyle, contentWidth: Double
    ) -> ScenarioError {
        var field = error.field
        if field.hasPrefix("@.") { field.removeFirst(2) }
        // The key the field names, and any index after it ("weights[2]" → "weights", "[2]").
        let key: String
        var suffix = ""
        if let bracket = field.firstIndex(of: "[") {
            key = String(field[..<bracket])
            suffix = String(field[bracket...])
        } else {
            key = field
        }
        let origin = entry?.paths[key] ?? top.paths[key]
        let entryPath = entry?.path
        var path = origin.map { $0 + suffix } ?? (entryPath ?? top.path)
        let message: String
        switch error.reason {
        case .widthSmallerThanInsets:
            // Either horizontal inset may be the one to change; point at the innermost insets written.
            path = entry?.paths["insets"] ?? top.paths["insets"] ?? top.path
            message = "the viewport width \(format(contentWidth)) must be larger than the horizontal insets "
                + "(left \(format(style.insets.left)) + right \(format(style.insets.right)))"
        case .invalidValue(let v):
            message = "expected a number >= 0, got \(format(v))"
        case .invalidCount(let n):
            message = "expected an integer >= 1, got \(n)"
        case .noSuchElement, .other:
            let text = error.description
            let prefix = error.field + ": "
            message = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        }
        // A layout-level value that only fails together with a section's override: say which section.
        if let entryPath, !path.hasPrefix(entryPath) {
            return ScenarioError(file: top.file, path: path, message: message + " (in the section style \(entryPath))")
        }
        return ScenarioError(file: top.file, path: path, message: message)
    }
}

/// A value with the JSON path it was read from.
struct Tagged<T: Hashable & Sendable>: Hashable, Sendable {
    var value: T
    var path: String
}

/// The per-section keys of one object (`layout` or an entry of `layout.sections`), each
/// optional, with their paths.
struct Layer: Sendable {
    var file: String
    var path: String
    /// JSON path of every key present (also `insets`, `header`, `footer` for the objects).
    var paths: [String: String] = [:]
    var kind: Tagged<String>?
    var columns: Tagged<Int>?
    var weights: Tagged<[Double]>?
    var direction: Tagged<RenderDirection>?
    var placement: Tagged<String>?
    var tolerance: Tagged<Double>?
    var itemSpacing: Tagged<Double>?
    var lineSpacing: Tagged<Double>?
    var insetTop: Tagged<Double>?
    var insetLeft: Tagged<Double>?
    var insetBottom: Tagged<Double>?
    var insetRight: Tagged<Double>?
    var headerHeight: Tagged<Double>?
    var headerPin: Tagged<PinBehavior>?
    var footerHeight: Tagged<Double>?
    var footerPin: Tagged<PinBehavior>?
    var background: Tagged<Bool>?
    var justify: Tagged<Justify>?
    var align: Tagged<Align>?

    /// Keys that apply to one kind only.
    static let kindSpecific: [(String, String)] = [
        ("columns", "waterfall"), ("weights", "waterfall"), ("direction", "waterfall"),
        ("placement", "waterfall"), ("tolerance", "waterfall"),
        ("justify", "flow"), ("align", "flow"),
    ]

    package static func parse(_ r: JSONReader, isTop: Bool) throws(ScenarioError) -> Layer {
        var layer = Layer(file: r.file, path: r.path)
        func tag<T>(_ key: String, _ read: (JSONNode) throws(ScenarioError) -> T) throws(ScenarioError) -> Tagged<T>? {
            guard let node = r.optional(key) else { return nil }
            let value = try read(node)
            layer.paths[key] = node.path
            return Tagged(value: value, path: node.path)
        }
        if isTop {
            layer.kind = Tagged(value: try r.require("kind").oneOf(ScenarioLayout.kindNames), path: r.path(of: "kind"))
            layer.paths["kind"] = r.path(of: "kind")
        } else {
            layer.kind = try tag("kind") { (n) throws(ScenarioError) in try n.oneOf(ScenarioLayout.kindNames) }
        }
        layer.columns = try tag("columns") { (n) throws(ScenarioError) in try n.int(.between(1, Double(ScenarioLimits.maxColumns))) }
        layer.weights = try tag("weights") { (n) throws(ScenarioError) -> [Double] in
            var weights: [Double] = []
            for element in try n.array(minCount: 1) {
                weights.append(try element.double(.above(0, atMost: ScenarioLimits.maxWeight)))
            }
            return weights
        }
        layer.direction = try tag("direction") { (n) throws(ScenarioError) in try n.enumCase(RenderDirection.self) }
        layer.placement = try tag("placement") { (n) throws(ScenarioError) in try n.oneOf(WaterfallPlacementRule.names) }
        layer.tolerance = try tag("tolerance") { (n) throws(ScenarioError) in try n.double(.size) }
        layer.itemSpacing = try tag("itemSpacing") { (n) throws(ScenarioError) in try n.double(.size) }
        layer.lineSpacing = try tag("lineSpacing") { (n) throws(ScenarioError) in try n.double(.size) }
        if let insets = r.optional("insets") {
            let o = try insets.object()
            layer.paths["insets"] = insets.path
            func edge(_ key: String) throws(ScenarioError) -> Tagged<Double>? {
                guard let node = o.optional(key) else { return nil }
                let value = try node.double(.size)
                layer.paths["insets.\(key)"] = node.path
                return Tagged(value: value, path: node.path)
            }
            layer.insetTop = try edge("top")
            layer.insetLeft = try edge("left")
            layer.insetBottom = try edge("bottom")
            layer.insetRight = try edge("right")
            try o.finish()
        }
        for which in ["header", "footer"] {
            guard let node = r.optional(which) else { continue }
            let o = try node.object()
            layer.paths[which] = node.path
            var height: Tagged<Double>?
            if let h = o.optional("height") {
                height = Tagged(value: try h.double(.size), path: h.path)
                layer.paths["\(which).height"] = h.path
            }
            var pin: Tagged<PinBehavior>?
            if let p = o.optional("pin") {
                let allowed = which == "header" ? PinBehavior.allCases : PinBehavior.footerCases
                let value = PinBehavior(rawValue: try p.oneOf(allowed.map(\.rawValue)))!
                pin = Tagged(value: value, path: p.path)
                layer.paths["\(which).pin"] = p.path
            }
            try o.finish()
            if which == "header" {
                layer.headerHeight = height
                layer.headerPin = pin
            } else {
                layer.footerHeight = height
                layer.footerPin = pin
            }
        }
        layer.background = try tag("background") { (n) throws(ScenarioError) in try n.bool() }
        layer.justify = try tag("justify") { (n) throws(ScenarioError) in try n.enumCase(Justify.self) }
        layer.align = try tag("align") { (n) throws(ScenarioError) in try n.enumCase(Align.self) }
        if !isTop { try r.finish() }
        return layer
    }
}
