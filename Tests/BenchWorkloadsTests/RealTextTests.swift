import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import BenchStatistics
import LayoutEngine
import TextShaping

/// Labels on real fonts (docs/text.md) through the harness: a scenario's font labels, the
/// cell-measure verification against the LP reference, the text cache, the cost split. The rules
/// themselves are held to an independent measurer by Tests/Oracle/test_text_oracle.py.
@Suite("real text")
struct RealTextTests {
    static func scenario(family: String, language: String, modes: String) -> String {
        let card = #"""
        "card": {"views": {"name": {"label": {"text": "text", "font": {"family": "FAMILY", "size": 17}, "lines": 1}},
                           "body": {"label": {"text": "detail", "font": {"family": "FAMILY", "size": 15}, "lines": 4, "lineHeight": 19}},
                           "badge": {"intrinsic": {"width": 24, "height": 24}}},
                 "constraints": ["badge.trailing == contentView.trailing - 12", "badge.top == contentView.top + 10",
                                 "name.leading == contentView.leading + 16", "name.trailing <= badge.leading - 8", "name.top == contentView.top + 10",
                                 "body.leading == name.leading", "body.trailing == contentView.trailing - 16", "body.top == name.bottom + 4",
                                 "contentView.bottom >= badge.bottom + 10", "contentView.bottom == body.bottom + 10 @999"]}
        """#.replacingOccurrences(of: "FAMILY", with: family)
        return scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"templates": {"# + card + #"}, "generate": {"sections": 2, "heights": {"distribution": "template", "templates": {"card": 1}, "#
                + #""minWords": 0, "maxWords": 40}, "seed": 4, "language": ""# + language + #""}}"#,
            workload: #"{"kind": "cell-measure", "widths": [390, 700], "verifyMeasurements": 160}"#, modes: modes, items: "[80]")
    }

    /// Every solving mode, with and without the text cache, equals the LP reference (which measures
    /// with an uncached measurer of its own) in all four languages, and reports the split.
    @Test(arguments: [("DejaVu Sans", "en"), ("DejaVu Sans", "ru"), ("WenQuanYi Micro Hei", "zh"), ("WenQuanYi Micro Hei", "mixed")])
    func cellMeasureVerifiesOnRealText(family: String, language: String) throws {
        let text = Self.scenario(family: family, language: language, modes: #"["fresh-engine", "fd-add-remove", "edit-width", "fd-add-remove-text-cache", "edit-width-text-cache"]"#)
        let scenario = try plan(text).scenario
        let fixture = try CellMeasureWorkload(spec: scenario.workload.reader()).makeFixture(scenario: scenario, items: 80)
        for mode in [CellMeasureWorkload.Mode.fdAddRemove, .editWidth, .editWidthTextCache, .fdAddRemoveTextCache] {
            let m = try fixture.makeMeasurement(mode: mode, verify: true)
            let shaping = m.observations.first { $0.metric == .shapingTime }?.values ?? []
            let solve = m.observations.first { $0.metric == .solveTime }?.values ?? []
            #expect(shaping.count == 1 && solve.count == 1, "\(mode)")
            if mode == .editWidth { #expect(shaping.first ?? 0 > 0, "an uncached measurer shapes on every measurement") }
        }
    }

    /// The text cache answers exactly what shaping again answers, on the generator's paragraphs
    /// at many widths, and once warm it shapes nothing.
    @Test func cacheEqualsNoCache() throws {
        let plain = try ShapedTextMeasurer(caching: false), cached = try ShapedTextMeasurer(caching: true)
        var rng = SplitMix64(seed: 32, stream: 1)
        for language in TextLanguage.allCases {
            let family = language == .chinese || language == .mixed ? "WenQuanYi Micro Hei" : "DejaVu Sans"
            let a = try plain.resolve(LabelFont(family: family, size: 15)), b = try cached.resolve(LabelFont(family: family, size: 15))
            for _ in 0..<40 {
                var bytes: [UInt8] = []
                WordGenerator.appendWords(rng.nextInt(in: 0...60), language: language, to: &bytes, using: &rng)
                bytes.withUnsafeBufferPointer { text in
                    #expect(plain.intrinsicWidth(of: text, font: a) == cached.intrinsicWidth(of: text, font: b))
                    for width in stride(from: 20.0, through: 600, by: 37.5) {
                        for maxLines in [0, 2] {
                            #expect(plain.layout(of: text, font: a, width: width, maxLines: maxLines)
                                        == cached.layout(of: text, font: b, width: width, maxLines: maxLines))
                        }
                    }
                }
            }
        }
        let shapedBefore = cached.counters.shaped
        var bytes = Array("Кэш высоты строки".utf8)
        let font = try cached.resolve(LabelFont(family: "DejaVu Sans", size: 17))
        bytes.withUnsafeMutableBufferPointer { buffer in
            let text = UnsafeBufferPointer(buffer)
            _ = cached.layout(of: text, font: font, width: 100, maxLines: 0)
            _ = cached.layout(of: text, font: font, width: 100, maxLines: 0)
            _ = cached.intrinsicWidth(of: text, font: font)
        }
        #expect(cached.counters.shaped == shapedBefore + 1)
        #expect(cached.counters.layoutHits >= 1)
    }

    /// A label that names a font with no text measurer is an error, never the table model.
    @Test func fontLabelWithoutMeasurerIsAnError() throws {
        let label = TemplateLabel(source: .text, lineHeight: 20, font: LabelFont(family: "DejaVu Sans", size: 17))
        let template = CellTemplate(name: "t", views: [TemplateView(name: "l", content: .label(label))],
                                    constraints: [TemplateConstraint(TemplateAnchor(view: 0, attribute: .top), .equal, nil, constant: 0)])
        #expect(throws: TemplateMeasurementError.text(view: 0, message: "the label names a font and there is no text measurer")) {
            _ = try TemplateMeasurer(template: template, strategy: .editWidth)
        }
        let measurer = try ShapedTextMeasurer(caching: false)
        #expect(throws: LabelTextError.self) { _ = try measurer.resolve(LabelFont(family: "Nope", size: 12)) }
        #expect(throws: LabelTextError.self) { _ = try measurer.resolve(LabelFont(family: "DejaVu Sans", size: 0)) }
        #expect(throws: LabelTextError.self) { _ = try measurer.resolve(LabelFont(family: "DejaVu Sans", size: 1001)) }
    }

    /// The table-model scenarios are untouched: a text-cache mode on one is refused.
    @Test func textCacheModeNeedsFontLabels() throws {
        let text = scenarioJSON(
            layout: #"{"kind": "list"}"#,
            data: #"{"generate": {"heights": {"distribution": "template", "templates": {"title": 1}, "minWords": 1, "maxWords": 5}, "seed": 1}}"#,
            workload: #"{"kind": "cell-measure"}"#, modes: #"["edit-width-text-cache"]"#, items: "[10]")
        expectPlanError({ try plan(text) }, path: "modes[0]", "caches the text of labels with a font")
    }
}
