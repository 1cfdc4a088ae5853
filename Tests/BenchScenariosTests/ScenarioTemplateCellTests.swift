@testable import BenchStatistics
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import LayoutEngine

@Suite struct ScenarioTemplateCellTests {
    let cell = TemplateCell()

    @Test func pinnedHeight() {
        let text = "The quick brown fox jumps over the lazy dog, again and again, until the cell wraps."
        #expect(cell.lineCount(of: text.utf8, width: 200) == 4)
        let fourLines: Double = 11 + 4 * 20.5 + 11
        #expect(cell.height(of: text, width: 200) == fourLines)
        #expect(cell.height(of: text, width: 120) == 186)  // 8 lines
        #expect(cell.height(of: Array(text.utf8), width: 200) == cell.height(of: text, width: 200))
        #expect(cell.height(of: text[...], width: 200) == cell.height(of: text, width: 200))
    }

    @Test func emptyAndSimpleTexts() {
        #expect(cell.height(of: "", width: 300) == 22)
        #expect(cell.lineCount(of: "a".utf8, width: 300) == 1)
        #expect(cell.lineCount(of: "a\nb".utf8, width: 300) == 2)
        #expect(cell.lineCount(of: "a\n\nb".utf8, width: 300) == 3)
        var tall = cell
        tall.minimumHeight = 44
        #expect(tall.height(of: "", width: 300) == 44)
        // A word wider than the line is broken across lines.
        let long = String(repeating: "m", count: 40)  // 540 units
        #expect(cell.lineCount(of: long.utf8, width: 100 + 32) == 6)
    }

    @Test func longerTextNeverGetsShorter() {
        var rng = SplitMix64(seed: 1)
        for width in [60.0, 120, 187.5, 390] {
            var bytes: [UInt8] = []
            var previous = cell.height(of: bytes, width: width)
            for _ in 0..<300 {
                if !bytes.isEmpty { bytes.append(0x20) }
                WordGenerator.appendWords(1, to: &bytes, using: &rng)
                let h = cell.height(of: bytes, width: width)
                #expect(h >= previous, "width \(width), \(bytes.count) bytes")
                previous = h
            }
        }
    }

    @Test func narrowerWidthNeverGetsShorter() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<30 {
            let text = WordGenerator.text(words: rng.nextInt(in: 1...80), using: &rng)
            var previous = 0.0
            var width = 500.0
            while width >= 20 {
                let h = cell.height(of: text, width: width)
                #expect(h >= previous, "\(text) at \(width)")
                previous = h
                width -= 0.5
            }
        }
    }

    @Test func wordGeneratorIsDeterministic() {
        var a = SplitMix64(seed: 8), b = SplitMix64(seed: 8)
        let t = WordGenerator.text(words: 12, using: &a)
        #expect(t == WordGenerator.text(words: 12, using: &b))
        #expect(t.split(separator: " ").count == 12)
        #expect(t.first!.isUppercase && t.hasSuffix("."))
        #expect(t == "Lologro dor fipelruqua groquaha, runeangro oquati andorexmar, rutri, dor waexin lehaode tinefi.")
    }
}
