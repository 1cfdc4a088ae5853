@testable import BenchStatistics
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
import LayoutEngine

@Suite struct ScenarioDataTests {
    static let small = scenarioJSON(
        layout: #"{"kind": "waterfall", "columns": 3, "itemSpacing": 4, "sections": [{}, {"kind": "flow"}, {"kind": "list"}]}"#,
        data: #"""
        {"generate": {"sections": 3, "seed": 42, "fullWidthEvery": 5,
                      "heights": {"distribution": "normal", "mean": 120, "sd": 40, "min": 44, "max": 240},
                      "widths": {"distribution": "uniform", "min": 40, "max": 160}}}
        """#,
        items: "[50]")

    @Test func splitMix64MatchesTheReference() {
        // Published first outputs of SplitMix64 seeded with 0 (as used to seed xoshiro).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
        var d = SplitMix64(seed: 0)
        #expect(d.nextDouble() == Double(UInt64(0xE220_A839_7B1D_CDAF) >> 11) / 9_007_199_254_740_992)
        var r = SplitMix64(seed: 9)
        for _ in 0..<10_000 {
            let u = r.nextDouble()
            #expect(u >= 0 && u < 1)
            #expect((3...7).contains(r.nextInt(in: 3...7)))
        }
    }

    @Test func sameScenarioSameData() throws {
        let a = try parseScenario(Self.small)
        let b = try parseScenario(Self.small)
        #expect(try a.makeData(items: 50) == b.makeData(items: 50))
        #expect(try a.makeData(items: 50) == a.makeData(items: 50))
        #expect(try a.makeData(items: 50) != a.makeData(items: 49))
    }

    @Test func pinnedChecksum() throws {
        let data = try parseScenario(Self.small).makeData(items: 50)
        #expect(data.sectionCount == 3)
        #expect((0..<3).map { data.itemCount(inSection: $0) } == [17, 17, 16])
        // Waterfall section 0: items 4, 9, 14 span all columns; flow widths drawn; list widths 0.
        #expect(data.spansAllColumns.enumerated().filter(\.element).map(\.offset) == [4, 9, 14])
        #expect(data.widths[17..<34].allSatisfy { $0 >= 40 && $0 <= 160 })
        #expect(data.widths[34...].allSatisfy { $0 == 0 })
        // Computed once from this implementation; a change means the data of every scenario changed.
        #expect(checksum(data.heights) == 9_702_155_148_257_386_532)
        #expect(checksum(data.widths) == 4_685_407_365_147_617_204)
    }

    @Test func pinnedTextHeights() throws {
        let s = try parseScenario(scenarioJSON(
            layout: #"{"kind": "list", "insets": {"left": 20, "right": 20}}"#,
            data: #"{"generate": {"seed": 5, "heights": {"distribution": "text", "minWords": 2, "maxWords": 60}}}"#,
            items: "[200]"))
        let items = try s.makeItems(items: 200)
        let texts = try #require(items.texts)
        let cell = try #require(items.cell)
        #expect(texts.count == 200)
        #expect(texts.string(at: 0).hasPrefix("Warumar gro wawengromi dorstainti o kalejodor"))
        // Heights are what the template cell measures at the list's width (390 - 40).
        for i in 0..<200 { #expect(items.data.heights[i] == cell.height(of: texts[i], width: 350)) }
        #expect(Set(items.data.heights).count > 3)
        #expect(checksum(items.data.heights) == 13_379_857_233_521_945_549)
        #expect(try s.makeItems(items: 200) == items)
    }

    @Test func distributionsRespectTheirBounds() {
        let cases: [SizeDistribution] = [
            .fixed(44),
            .uniform(min: 10, max: 20),
            .normal(mean: 100, sd: 50, min: 30, max: 180),
            .normal(mean: 5, sd: 10, min: 0, max: 65),
            .bimodal(first: 40...60, second: 200...300, share: 0.25),
        ]
        for distribution in cases {
            var rng = SplitMix64(seed: 11)
            let bounds = distribution.bounds!
            var sum = 0.0
            for _ in 0..<20_000 {
                let v = distribution.sample(using: &rng)
                #expect(bounds.contains(v), "\(distribution): \(v)")
                sum += v
            }
            let mean = sum / 20_000
            switch distribution {
            case .normal(let m, _, 30, 180): #expect(abs(mean - m) < 2)
            case .uniform: #expect(abs(mean - 15) < 0.2)
            case .bimodal:
                // 0.75 * 50 + 0.25 * 250 = 100
                #expect(abs(mean - 100) < 3)
            default: break
            }
        }
    }

    @Test func normalIsBellShaped() {
        var rng = SplitMix64(seed: 3)
        let normal = SizeDistribution.normal(mean: 0, sd: 1, min: -6, max: 6)
        var within1 = 0, within2 = 0
        for _ in 0..<50_000 {
            let v = abs(normal.sample(using: &rng))
            if v < 1 { within1 += 1 }
            if v < 2 { within2 += 1 }
        }
        #expect(abs(Double(within1) / 50_000 - 0.683) < 0.01)
        #expect(abs(Double(within2) / 50_000 - 0.954) < 0.01)
    }

    @Test func sectionsSpreadTheCount() {
        let g = DataGenerator(sections: 4, heights: .fixed(1))
        #expect(g.counts(items: 10) == [3, 3, 2, 2])
        #expect(g.counts(items: 2) == [1, 1, 0, 0])
        #expect(g.counts(items: 8) == [2, 2, 2, 2])
    }
}
