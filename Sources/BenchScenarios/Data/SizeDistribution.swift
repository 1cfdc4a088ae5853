import BenchStatistics
import LayoutEngine
import BenchResults

/// How generated item heights (or flow widths) are drawn — `data.generate.heights` and
/// `data.generate.widths` (docs/scenario-format.md). Every shape is computed from `SplitMix64` with additions
/// and multiplications only (no `log`, `exp`, `sin`…), so values are bit-identical everywhere.
///
/// JSON shapes (`distribution` picks the shape; other keys are errors):
/// - `{"distribution": "fixed", "value": 44}`
/// - `{"distribution": "uniform", "min": 60, "max": 300}` — `min + (max - min) * u`
/// - `{"distribution": "normal", "mean": 120, "sd": 30, "min": 40, "max": 400}` — normal-like:
///   Irwin–Hall, `mean + sd * (u1 + … + u12 - 6)` (12 uniforms in order), then clamped to
///   `[min, max]`. `min` defaults to 0, `max` to `mean + 6 * sd` (the generator's own bound).
/// - `{"distribution": "bimodal", "first": {"min": 40, "max": 60}, "second": {"min": 200, "max": 300}, "share": 0.2}`
///   — with probability `share` from the second range, otherwise from the first (one uniform
///   draw chooses the range, one more the value).
/// - `{"distribution": "text", "minWords": 3, "maxWords": 40}` (heights only) — each item gets
///   `minWords…maxWords` generated words (`WordGenerator`) and its height from `TemplateCell` at
///   the width available to the item. Optional cell keys: `lineHeight` (> 0), `fontScale` (> 0),
///   `padding` {top, left, bottom, right}, `minimumHeight`; defaults are `TemplateCell()`'s.
package enum SizeDistribution: Hashable, Sendable, Codable {
    case fixed(Double)
    case uniform(min: Double, max: Double)
    case normal(mean: Double, sd: Double, min: Double, max: Double)
    case bimodal(first: ClosedRange<Double>, second: ClosedRange<Double>, share: Double)
    case text(minWords: Int, maxWords: Int, cell: TemplateCell)
    /// Each item names a constraint template (`data.templates` or a built-in row kind), drawn by
    /// weight, and gets a generated text and detail of `minWords…maxWords` words; its height is
    /// the template's fitting height at the available width (docs/scenario-format.md, constraint templates).
    case template(weights: [TemplateWeight], minWords: Int, maxWords: Int)

    package static let names = ["fixed", "uniform", "normal", "bimodal", "text", "template"]

    /// The range every drawn value lies in (text: unknown before measuring, nil).
    package var bounds: ClosedRange<Double>? {
        switch self {
        case .fixed(let v): return v...v
        case .uniform(let lo, let hi): return lo...hi
        case .normal(_, _, let lo, let hi): return lo...hi
        case .bimodal(let a, let b, _): return Swift.min(a.lowerBound, b.lowerBound)...Swift.max(a.upperBound, b.upperBound)
        case .text, .template: return nil
        }
    }

    /// Draws one value (not for `.text`, whose value comes from measurement).
    package func sample(using rng: inout SplitMix64) -> Double {
        switch self {
        case .fixed(let v):
            return v
        case .uniform(let lo, let hi):
            return rng.nextDouble(in: lo, hi)
        case .normal(let mean, let sd, let lo, let hi):
            var sum = 0.0
            for _ in 0..<12 { sum += rng.nextDouble() }
            let v = mean + sd * (sum - 6)
            return Swift.min(Swift.max(v, lo), hi)
        case .bimodal(let first, let second, let share):
            let range = rng.nextDouble() < share ? second : first
            return rng.nextDouble(in: range.lowerBound, range.upperBound)
        case .text, .template:
            preconditionFailure("text and template sizes come from measurement")
        }
    }

    /// Parses a distribution object. `allowText` is false for widths.
    package static func parse(_ node: JSONNode, allowText: Bool) throws(ScenarioError) -> SizeDistribution {
        let r = try node.object()
        let allowed = allowText ? names : names.filter { $0 != "text" && $0 != "template" }
        let kindNode = try r.require("distribution")
        if !allowText, let kind = try? kindNode.string(), kind == "text" || kind == "template" {
            throw kindNode.error("the \(kind) distribution is only available for heights; expected one of "
                + allowed.map { JSONValue.quoted($0) }.joined(separator: ", "))
        }
        let kind = try kindNode.oneOf(allowed)
        let result: SizeDistribution
        switch kind {
        case "fixed":
            result = .fixed(try r.requireDouble("value", .size))
        case "uniform":
            let range = try parseRange(r)
            result = .uniform(min: range.lowerBound, max: range.upperBound)
        case "normal":
            let mean = try r.requireDouble("mean", .size)
            let sd = try r.requireDouble("sd", .size)
            let lo = try r.optionalDouble("min", default: 0, .size)
            let hi = try r.optionalDouble("max", default: mean + 6 * sd, .size)
            guard hi.isFinite else { throw r.error(at: "sd", "mean + 6 * sd is too large; give 'max'") }
            guard hi >= lo else { throw r.error(at: "max", "expected max >= min (\(format(lo))), got \(format(hi))") }
            result = .normal(mean: mean, sd: sd, min: lo, max: hi)
        case "bimodal":
            let first = try parseRange(try r.object("first"), finish: true)
            let second = try parseRange(try r.object("second"), finish: true)
            let share = try r.requireDouble("share", .between(0, 1))
            result = .bimodal(first: first, second: second, share: share)
        case "template":
            let minWords = try r.requireInt("minWords", .between(0, Double(ScenarioLimits.maxWords)))
            let maxWords = try r.requireInt("maxWords", .between(Double(minWords), Double(ScenarioLimits.maxWords)))
            let weightsNode = try r.require("templates")
            let w = try weightsNode.object()
            guard w.members.count >= 1 else { throw weightsNode.error("expected at least one template name with its weight") }
            guard w.members.count <= ScenarioLimits.maxTemplates + BuiltInRowKind.allCases.count else {
                throw weightsNode.error("expected at most \(ScenarioLimits.maxTemplates + BuiltInRowKind.allCases.count) templates")
            }
            var weights: [TemplateWeight] = []
            for member in w.members {
                weights.append(TemplateWeight(name: member.key, weight: try w.requireDouble(member.key, .above(0, atMost: ScenarioLimits.maxWeight))))
            }
            try w.finish()
            result = .template(weights: weights, minWords: minWords, maxWords: maxWords)
        default:  // text
            let minWords = try r.requireInt("minWords", .between(0, Double(ScenarioLimits.maxWords)))
            let maxWords = try r.requireInt("maxWords", .between(Double(minWords), Double(ScenarioLimits.maxWords)))
            var cell = TemplateCell()
            cell.lineHeight = try r.optionalDouble("lineHeight", default: cell.lineHeight, .positiveSize)
            cell.fontScale = try r.optionalDouble("fontScale", default: cell.fontScale, .above(0, atMost: ScenarioLimits.maxFontScale))
            if let padding = try r.optionalObject("padding") { cell.padding = try parseInsets(padding, defaults: cell.padding) }
            cell.minimumHeight = try r.optionalDouble("minimumHeight", default: cell.minimumHeight, .size)
            result = .text(minWords: minWords, maxWords: maxWords, cell: cell)
        }
        try r.finish()
        return result
    }

    /// `min` and `max` of `r` with `0 <= min <= max`; with `finish`, no other keys are allowed.
    private static func parseRange(_ r: JSONReader, finish: Bool = false) throws(ScenarioError) -> ClosedRange<Double> {
        let lo = try r.requireDouble("min", .size)
        let hi = try r.requireDouble("max", .size)
        guard hi >= lo else { throw r.error(at: "max", "expected max >= min (\(format(lo))), got \(format(hi))") }
        if finish { try r.finish() }
        return lo...hi
    }
}

/// A template name and its weight in a `template` distribution.
package struct TemplateWeight: Hashable, Sendable, Codable {
    package var name: String
    package var weight: Double
}

/// `{top, left, bottom, right}`, every key optional (missing ones keep `defaults`), sizes >= 0.
func parseInsets(_ r: JSONReader, defaults: EdgeInsets) throws(ScenarioError) -> EdgeInsets {
    var insets = defaults
    insets.top = try r.optionalDouble("top", default: defaults.top, .size)
    insets.left = try r.optionalDouble("left", default: defaults.left, .size)
    insets.bottom = try r.optionalDouble("bottom", default: defaults.bottom, .size)
    insets.right = try r.optionalDouble("right", default: defaults.right, .size)
    try r.finish()
    return insets
}
