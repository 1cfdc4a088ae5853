import Testing
@testable import LayoutEngine

/// Random sectioned layouts with random pins, and the offsets where pinning is awkward.
struct RandomPinnedLayout {
    var styles: [SectionStyle]
    var data: LayoutData
    var bounds: Rect
    var pinOffset: Double

    init(generator: inout RandomLayoutGenerator) throws {
        let width = generator.rng.chance(0.5) ? 390 : generator.size(60...1200)
        styles = (0..<generator.rng.int(1...4)).map { _ in
            var style = generator.style(width: width)
            style.headerPin = generator.rng.pick(HeaderPin.allCases)
            style.footerPin = generator.rng.pick(FooterPin.allCases)
            // Headers taller than a short section, and footers taller than the viewport, now and then.
            if generator.rng.chance(0.15) { style.headerHeight = generator.size(100...400) }
            if generator.rng.chance(0.1) { style.footerHeight = generator.size(900...1500) }
            return style
        }
        let sectionCount = generator.rng.chance(0.03) ? 0 : generator.rng.int(1...30)
        var sections: [[ItemSize]] = []
        for s in 0..<sectionCount {
            let style = styles[s % styles.count]
            let regionWidth = width - style.insets.horizontal
            let roll = generator.rng.unit()
            let count = roll < 0.2 ? 0 : roll < 0.35 ? 1 : roll < 0.95 ? generator.rng.int(2...12) : generator.rng.int(13...60)
            sections.append((0..<count).map { _ in generator.item(regionWidth: regionWidth) })
        }
        data = try LayoutData(sections: sections)
        bounds = Rect(x: 0, y: 0, width: width, height: generator.rng.chance(0.8) ? 844 : generator.size(50...600))
        pinOffset = generator.rng.chance(0.5) ? 0 : generator.size(0...120)
    }

    func layout(mode: PinningMode, queryMode: RectQueryMode = .binary) throws -> SectionedLayout {
        var layout = try SectionedLayout(
            bounds: bounds, styles: styles, data: data, queryMode: queryMode, pinOffset: pinOffset, pinningMode: mode)
        try layout.prepare()
        return layout
    }

    /// Offsets anywhere, above the top and past the end, with T exactly on a section top, and with
    /// a normal header exactly on the push boundary (T' = E - h) or a footer exactly on its own.
    static func offsets(frames: LayoutFrames, styles: [SectionStyle], pinOffset: Double, viewportHeight: Double,
                        count: Int, rng: inout SplitMix64) -> [Double] {
        let content = frames.contentHeight
        var offsets: [Double] = []
        var stacked = 0.0
        var stackedAbove: [Double] = []
        for s in 0..<frames.sectionCount {
            stackedAbove.append(stacked)
            if styles[s % styles.count].headerPin == .stacked { stacked += frames.headerHeights[s] }
        }
        for _ in 0..<count {
            let s = frames.sectionCount == 0 ? 0 : rng.int(0...(frames.sectionCount - 1))
            switch rng.int(0...7) {
            case 0: offsets.append(rng.double(-300...0))
            case 1: offsets.append(content - viewportHeight + rng.double(0...300))
            case 2 where frames.sectionCount > 0:  // T exactly on a section top
                offsets.append(frames.sectionTops[s] - pinOffset - (rng.chance(0.5) ? stackedAbove[s] : 0))
            case 3 where frames.sectionCount > 0:  // a normal header on its push boundary
                let pushedOut = frames.sectionTops[s] + frames.itemsRegionBottoms[s] - frames.headerHeights[s]
                offsets.append(pushedOut - stackedAbove[s] - pinOffset + rng.pick([0, 0, 0.5, -0.5]))
            case 4 where frames.sectionCount > 0:  // B exactly on a section bottom or items top
                let y = rng.chance(0.5) ? frames.sectionTops[s + 1] : frames.sectionTops[s] + frames.itemsRegionTops[s] + frames.footerHeights[s]
                offsets.append(y - viewportHeight)
            default: offsets.append(rng.double(-100...(content + 100)))
            }
        }
        return offsets
    }
}

/// Whether a frame lies within 1e-6 of the rect's edge, where two exact computations that round
/// differently may disagree about intersection.
private func isBorderline(_ frame: Rect, _ rect: Rect) -> Bool {
    let grown = Rect(x: rect.minX - 1e-6, y: rect.minY - 1e-6, width: rect.width + 2e-6, height: rect.height + 2e-6)
    let shrunk = Rect(x: rect.minX + 1e-6, y: rect.minY + 1e-6, width: rect.width - 2e-6, height: rect.height - 2e-6)
    return frame.intersects(grown) != frame.intersects(shrunk)
}

/// Checks a query answer against the reference's: same elements (up to borderline touches),
/// each once, same frames within 1e-9, same zIndex, and `isPinned` where the frame is clearly
/// away from its natural place.
func expectPinnedAnswer(
    _ returned: [LayoutAttributes], reference all: [LayoutAttributes], rect: Rect, natural: LayoutFrames,
    context: @autoclosure () -> String
) {
    let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
    let returnedIDs = Set(returned.map(\.id))
    if returnedIDs.count != returned.count { Issue.record("an element was returned twice (\(context()))"); return }
    for element in returned {
        guard let expected = byID[element.id] else { Issue.record("\(element.id) does not exist (\(context()))"); return }
        if !expected.frame.intersects(rect) && !isBorderline(expected.frame, rect) {
            Issue.record("returned \(element.id) at \(element.frame), expected \(expected.frame) outside \(rect) (\(context()))")
            return
        }
        if !CoordinateTolerance.equal(element.frame, expected.frame) || element.zIndex != expected.zIndex {
            Issue.record("\(element.id): \(element.frame) z \(element.zIndex), expected \(expected.frame) z \(expected.zIndex) (\(context()))")
            return
        }
        let naturalFrame = natural.frame(of: element.id)!
        if !CoordinateTolerance.equal(expected.frame, naturalFrame, tolerance: 1e-6), element.isPinned != expected.isPinned {
            Issue.record("\(element.id): isPinned \(element.isPinned), expected \(expected.isPinned) (\(context()))")
            return
        }
    }
    for expected in all where expected.frame.intersects(rect) && !returnedIDs.contains(expected.id) {
        if !isBorderline(expected.frame, rect) {
            Issue.record("missed \(expected.id) at \(expected.frame) in \(rect) (\(context()))")
            return
        }
    }
}

@Suite struct PinningDifferentialTests {
    /// 6 chunks x 60 random layouts x 20 offsets, a sequence of bounds changes for each pinning mode:
    /// the viewport query and a random rect query equal the direct computation of SPEC §3, and
    /// `attributes(for:)` of every pinnable header and footer too.
    @Test(arguments: 0..<6)
    func everyModeMatchesTheReference(chunk: Int) throws {
        var results: [LayoutAttributes] = []
        for index in 0..<60 {
            let seed = UInt64(90_000 + chunk * 1_000 + index)
            var generator = RandomLayoutGenerator(seed: seed)
            let random = try RandomPinnedLayout(generator: &generator)
            var layouts = try PinningMode.allCases.map { try random.layout(mode: $0) }
            let frames = layouts[0].frames
            let offsets = RandomPinnedLayout.offsets(
                frames: frames, styles: random.styles, pinOffset: random.pinOffset,
                viewportHeight: random.bounds.height, count: 20, rng: &generator.rng)
            for offset in offsets {
                let viewport = Rect(x: 0, y: offset, width: random.bounds.width, height: random.bounds.height)
                let all = PinnedReference.elements(
                    frames: frames, styles: random.styles, pinOffset: random.pinOffset, offset: offset,
                    viewportHeight: random.bounds.height)
                let rect = generator.rect(frames: frames, elements: all)
                for m in layouts.indices {
                    if layouts[m].shouldInvalidate(forBoundsChange: viewport) {
                        layouts[m].invalidate(with: layouts[m].invalidationContext(forBoundsChange: viewport))
                    }
                    try layouts[m].prepare()
                    let context = "seed \(seed), mode \(layouts[m].pinningMode), offset \(offset)"
                    for query in [viewport, rect] {
                        layouts[m].elements(in: query, into: &results)
                        expectPinnedAnswer(results, reference: all, rect: query, natural: frames, context: context + ", rect \(query)")
                    }
                    for expected in all where expected.id.kind == .header || expected.id.kind == .footer {
                        let got = try layouts[m].attributes(for: expected.id)
                        #expect(CoordinateTolerance.equal(got.frame, expected.frame), "\(expected.id) (\(context))")
                    }
                }
            }
        }
    }

    /// Pinned elements are added to the answer of every rect-query mode; the heuristic one too.
    @Test func pinningComposesWithEveryQueryMode() throws {
        var results: [LayoutAttributes] = []
        for seed in UInt64(0)..<80 {
            var generator = RandomLayoutGenerator(seed: 55_000 + seed)
            let random = try RandomPinnedLayout(generator: &generator)
            for queryMode in RectQueryMode.allCases {
                var layout = try random.layout(mode: .cached, queryMode: queryMode)
                let frames = layout.frames
                for offset in RandomPinnedLayout.offsets(
                    frames: frames, styles: random.styles, pinOffset: random.pinOffset,
                    viewportHeight: random.bounds.height, count: 6, rng: &generator.rng)
                {
                    let viewport = Rect(x: 0, y: offset, width: random.bounds.width, height: random.bounds.height)
                    layout.invalidate(with: .bounds(viewport))
                    try layout.prepare()
                    let all = PinnedReference.elements(
                        frames: frames, styles: random.styles, pinOffset: random.pinOffset, offset: offset,
                        viewportHeight: random.bounds.height)
                    layout.elements(in: viewport, into: &results)
                    let context = "seed \(seed), query \(queryMode), offset \(offset)"
                    if queryMode.isExact {
                        expectPinnedAnswer(results, reference: all, rect: viewport, natural: frames, context: context)
                    } else {
                        // The heuristic may miss items, never a pinned header or footer.
                        let returned = Set(results.map(\.id))
                        for expected in all where expected.isPinned && expected.frame.intersects(viewport) && !isBorderline(expected.frame, viewport) {
                            #expect(returned.contains(expected.id), "\(expected.id) (\(context))")
                        }
                    }
                }
            }
        }
    }
}
