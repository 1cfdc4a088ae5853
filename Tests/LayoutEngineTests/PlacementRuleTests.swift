import Testing
@testable import LayoutEngine
import LayoutReference
@testable import LayoutTestSupport

/// The placement rules of a shortest-first waterfall (`WaterfallPlacementRule`,
/// docs/engine-semantics.md §4): every update mode under every rule against the reference after
/// every change, TanStack's lane-equivalence test in our terms, and hand-computed `grid-lanes`
/// cases.
@Suite struct PlacementRuleTests {
    static let bounds = Rect(x: 0, y: 0, width: 390, height: 844)

    /// The rules the random tests run (leftmost too: the default must not move).
    static let rules: [WaterfallPlacementRule] = [
        .leftmost, .lastIndex, .gridLanes(tolerance: 0), .gridLanes(tolerance: 16), .gridLanes(tolerance: 1000),
    ]

    static func withRule(_ styles: [SectionStyle], _ rule: WaterfallPlacementRule) -> [SectionStyle] {
        styles.map { style in
            var style = style
            if case .waterfall(var waterfall) = style.kind {
                waterfall.placement = rule
                style.kind = .waterfall(waterfall)
            }
            return style
        }
    }

    /// What `mode` must show for `data`: `stable-lanes` and `lock-lanes` their lane-keeping references, the others the
    /// reference layout (which, for arbitrary fractions under `incremental`, lets ties within the
    /// frame tolerance break as the updater broke them).
    static func firstDifference(
        _ mode: WaterfallUpdateMode, updater: any LayoutUpdater, stableReference: (any UpdateExpectation)?,
        styles: [SectionStyle], exact: Bool
    ) throws -> String? {
        if let stableReference { return stableReference.firstDifference(of: updater.frames) }
        let reference = mode == .incremental && !exact
            ? try ReferenceLayout(data: updater.data, styles: styles, viewportWidth: bounds.width, breakingNearTiesLike: updater.frames)
            : try ReferenceLayout(data: updater.data, styles: styles, viewportWidth: bounds.width)
        return ReferenceCheck.firstMismatch(of: updater.frames, against: reference)
    }

    /// Every update mode × every rule, on seeded random layouts and change sequences (appends of
    /// up to 100 items, inserts, deletes, height edits, section inserts and removals; frames are
    /// read only every other step so several changes accumulate into one batch), against the
    /// reference after every read.
    @Test(arguments: WaterfallUpdateMode.allCases, rules)
    func everyModeFollowsTheRuleAfterEveryChange(mode: WaterfallUpdateMode, rule: WaterfallPlacementRule) throws {
        var checked = 0, differentFromLeftmost = 0
        for seed in UInt64(0)..<250 {
            var rng = SeededRandom(seed: seed &* 7919 &+ 17)
            var scenario = RandomScenario(rng: &rng, arbitraryFractions: seed % 5 == 4)
            scenario.styles = Self.withRule(scenario.styles, rule)
            var updater = try mode.make(bounds: scenario.bounds, styles: scenario.styles, data: scenario.data)
            // The modes with a placement of their own follow their own reference.
            var stable = mode == .stableLanes || mode == .lockLanes
                ? try mode.makeExpectation(bounds: scenario.bounds, styles: scenario.styles, data: scenario.data) : nil
            var data = scenario.data
            for step in 0..<20 {
                let change = scenario.change(for: data, &rng)
                guard (try? change.apply(to: &data)) != nil else { continue }
                try updater.apply(change)
                try stable?.apply(change)
                guard rng.chance(0.5) || step == 19 else { continue }
                checked += 1
                if let violation = (updater as? any InvariantChecking)?.invariantViolation() {
                    Issue.record("\(mode) \(rule.name) seed \(seed) step \(step) \(change): \(violation)")
                    break
                }
                if let difference = try Self.firstDifference(
                    mode, updater: updater, stableReference: stable, styles: scenario.styles, exact: !scenario.arbitraryFractions)
                {
                    Issue.record("\(mode) \(rule.name) seed \(seed) step \(step) \(change): \(difference)")
                    break
                }
                if rule != .leftmost, mode == .full {
                    let leftmost = try ReferenceLayout(
                        data: data, styles: Self.withRule(scenario.styles, .leftmost), viewportWidth: Self.bounds.width)
                    if ReferenceCheck.firstMismatch(of: updater.frames, against: leftmost) != nil { differentFromLeftmost += 1 }
                }
            }
        }
        #expect(checked > 2_000)
        // The rules are not all the same rule: the random cases reach their differences.
        if rule != .leftmost, mode == .full { #expect(differentFromLeftmost > 100, "\(rule)") }
    }

    // MARK: TanStack's lane-equivalence test, in our terms

    /// TanStack Virtual's placement as its `lane-equivalence.test.ts` ports it from commit
    /// 850947a4 (`getFurthestMeasurement`, the backward scan): until every lane holds an item,
    /// item i goes to lane `i % lanes` at the start; afterwards, to the lane of the furthest
    /// measurement that sorts first by (end, index), at its end plus the gap.
    static func tanStackPlacement(sizes: [Double], lanes: Int, gap: Double, start: Double) -> [(lane: Int, start: Double)] {
        struct Measurement { var index: Int; var end: Double; var lane: Int }
        var measurements: [Measurement] = []
        var placed: [(lane: Int, start: Double)] = []
        for i in 0..<sizes.count {
            var furthest: [Int: Measurement] = [:]
            var found = Set<Int>()
            var m = i - 1
            while m >= 0 {
                let measurement = measurements[m]
                m -= 1
                if found.contains(measurement.lane) { continue }
                if let previous = furthest[measurement.lane] {
                    if measurement.end > previous.end {
                        furthest[measurement.lane] = measurement
                    } else if measurement.end < previous.end {
                        found.insert(measurement.lane)
                    }
                } else {
                    furthest[measurement.lane] = measurement
                }
                if found.count == lanes { break }
            }
            let first = furthest.count == lanes
                ? furthest.values.sorted { $0.end == $1.end ? $0.index < $1.index : $0.end < $1.end }.first : nil
            let top = first.map { $0.end + gap } ?? start
            let lane = first?.lane ?? i % lanes
            measurements.append(Measurement(index: i, end: top + sizes[i], lane: lane))
            placed.append((lane, top))
        }
        return placed
    }

    /// The column and top of every item of one waterfall section laid out by `mode`, built in
    /// `batches` appends after an empty start (one batch: the initial layout).
    static func placement(
        _ mode: WaterfallUpdateMode, rule: WaterfallPlacementRule, sizes: [Double], lanes: Int, gap: Double, top: Double,
        batches: Int
    ) throws -> [(lane: Int, start: Double)] {
        let style = SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: lanes, placement: rule)), insets: EdgeInsets(top: top), lineSpacing: gap)
        let items = sizes.map { ItemSize(width: 10, height: $0) }
        var updater: any LayoutUpdater
        if batches <= 1 {
            updater = try mode.make(bounds: bounds, styles: [style], data: try LayoutData(sections: [items]))
        } else {
            updater = try mode.make(bounds: bounds, styles: [style], data: try LayoutData(sections: [[]]))
            let size = (items.count + batches - 1) / batches
            for start in stride(from: 0, to: items.count, by: size) {
                try updater.apply(.appendItems(section: 0, items: Array(items[start..<min(start + size, items.count)])))
            }
        }
        let frames = updater.frames
        let columns = WaterfallColumns(
            style: WaterfallStyle(columns: lanes), regionLeft: 0, regionWidth: bounds.width, spacing: 0)
        return (0..<frames.itemCount).map { i in
            let frame = frames.itemFrame(global: i, section: 0)
            return (columns.minX.firstIndex(of: frame.x) ?? -1, frame.y)
        }
    }

    /// Lanes 2–8 × 20 seeds, 200–1,000 items of random sizes (a quarter of them 30, to force
    /// ties), gaps 0–11 and a start offset, as TanStack's test draws them: `last-index` places
    /// every item in TanStack's lane at TanStack's start, in every mode, whole or appended in
    /// batches.
    @Test(arguments: WaterfallUpdateMode.allCases)
    func lastIndexIsTanStacksPlacement(mode: WaterfallUpdateMode) throws {
        for lanes in 2...8 {
            for seed in 1...20 {
                var rng = SeededRandom(seed: UInt64(seed * 7919 + lanes))
                let count = rng.int(200...999)
                let gap = Double(rng.int(0...11))
                let start = Double(rng.int(0...79))
                let sizes = (0..<count).map { _ in rng.chance(0.25) ? 30 : Double(rng.int(10...109)) }
                let expected = Self.tanStackPlacement(sizes: sizes, lanes: lanes, gap: gap, start: start)
                for batches in [1, 7] {
                    let actual = try Self.placement(mode, rule: .lastIndex, sizes: sizes, lanes: lanes, gap: gap, top: start, batches: batches)
                    for i in 0..<count where actual[i].lane != expected[i].lane || actual[i].start != expected[i].start {
                        Issue.record("\(mode) lanes \(lanes) seed \(seed) batches \(batches) item \(i): \(actual[i]), TanStack \(expected[i])")
                        return
                    }
                }
            }
        }
    }

    /// TanStack's all-ties case: equal sizes make every lane end equal at each row, so every pick
    /// is decided by the tie rule. All three rules then fill the lanes round-robin (TanStack by
    /// last index, CSS by the cursor, leftmost by position), in every mode.
    @Test(arguments: WaterfallUpdateMode.allCases)
    func equalSizesFillTheLanesRoundRobinUnderEveryRule(mode: WaterfallUpdateMode) throws {
        for lanes in 2...8 {
            for gap in [0.0, 4, 10] {
                let sizes = [Double](repeating: 42, count: 500)
                let tanStack = Self.tanStackPlacement(sizes: sizes, lanes: lanes, gap: gap, start: 0)
                for rule in Self.rules {
                    let actual = try Self.placement(mode, rule: rule, sizes: sizes, lanes: lanes, gap: gap, top: 0, batches: 3)
                    for i in 0..<sizes.count {
                        let row = Double(i / lanes)
                        guard actual[i].lane == i % lanes, actual[i].start == row * (42 + gap),
                              tanStack[i].lane == i % lanes, tanStack[i].start == actual[i].start
                        else {
                            Issue.record("\(mode) \(rule.name) lanes \(lanes) gap \(gap) item \(i): \(actual[i]), TanStack \(tanStack[i])")
                            return
                        }
                    }
                }
            }
        }
    }

    // MARK: Hand-computed cases

    /// The columns of one waterfall section under `rule`, in every mode (they must agree).
    static func columns(
        _ heights: [Double], columns: Int, rule: WaterfallPlacementRule, lineSpacing: Double = 0,
        spans: Set<Int> = []
    ) throws -> [Int] {
        let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: columns, placement: rule)), lineSpacing: lineSpacing)
        let items = heights.enumerated().map { ItemSize(width: 10, height: $1, spansAllColumns: spans.contains($0)) }
        let geometry = WaterfallColumns(style: WaterfallStyle(columns: columns), regionLeft: 0, regionWidth: bounds.width, spacing: 0)
        var answers: [[Int]] = []
        for mode in WaterfallUpdateMode.allCases {
            let updater = try mode.make(bounds: bounds, styles: [style], data: try LayoutData(sections: [items]))
            answers.append((0..<items.count).map { i in
                spans.contains(i) ? -1 : geometry.minX.firstIndex(of: updater.frames.itemFrame(global: i, section: 0).x)!
            })
        }
        #expect(Set(answers).count == 1, "the modes disagree: \(answers)")
        return answers[0]
    }

    /// css-grid-3's `masonry-auto-flow` example (3 columns; items 1 and 3 are 4em tall, 2 and 4
    /// one line, here 64 and 20 pt): "Without `masonry-auto-flow: next`, item 4 would be placed
    /// below item 2." Running positions after items 1–3 are [64, 20, 64]; the smallest is 20 and
    /// 1em = 16 leaves only column 1 within it: item 4 goes below item 2.
    @Test func theSpecificationsExampleItemFourGoesBelowItemTwo() throws {
        #expect(try Self.columns([64, 20, 64, 20], columns: 3, rule: .gridLanes(tolerance: 16)) == [0, 1, 2, 1])
    }

    /// Chromium's `GetFirstEligibleLine` case, running positions [2, 3, 3.5, 2.5] with a tie
    /// threshold of 0.5 and the cursor at line 1, built from items: heights 2, 3, 3.5, 2.5 go to
    /// columns 0–3 (each time the empty columns sit at 0, within the tolerance, and the cursor
    /// moves one column on); then an item of height 1 in column 0 (cursor 4, past the end: wrap
    /// to the first possible, column 0, running position 2 ≤ 2 + 0.5) makes the positions
    /// [3, 3, 3.5, 2.5] and the cursor 1. The next item: the smallest is 2.5, the limit 3;
    /// from the cursor, column 1 (3 ≤ 3) is possible: column 1, where leftmost would take column 3.
    @Test func chromiumsEligibleLineCase() throws {
        let heights = [2, 3, 3.5, 2.5, 1, 1]
        #expect(try Self.columns(heights, columns: 4, rule: .gridLanes(tolerance: 0.5)) == [0, 1, 2, 3, 0, 1])
        #expect(try Self.columns(heights, columns: 4, rule: .leftmost) == [0, 1, 2, 3, 0, 3])
    }

    /// A tolerance lets an item stay in order: heights 100, 110, 105 fill columns 0–2 (cursor 3,
    /// past the end). Item 3 (50): the smallest position is 100, limit 116, columns 0, 1 and 2 are
    /// possible; none at or after the cursor, so the first, column 0 → [150, 110, 105], cursor 1.
    /// Item 4 (50): smallest 105, limit 121, columns 1 (110) and 2 (105); the first at or after
    /// the cursor is column 1, where leftmost takes column 2 (the shortest). → [150, 160, 105],
    /// cursor 2. Item 5 (50): smallest 105, limit 121: only column 2.
    /// With tolerance 0 only the shortest is ever possible here, so the columns are leftmost's:
    /// item 4 to column 2 (105) → [150, 110, 155], item 5 to column 1 (110).
    @Test func aToleranceKeepsItemsInOrder() throws {
        let heights: [Double] = [100, 110, 105, 50, 50, 50]
        #expect(try Self.columns(heights, columns: 3, rule: .gridLanes(tolerance: 16)) == [0, 1, 2, 0, 1, 2])
        #expect(try Self.columns(heights, columns: 3, rule: .gridLanes(tolerance: 0)) == [0, 1, 2, 0, 2, 1])
        #expect(try Self.columns(heights, columns: 3, rule: .leftmost) == [0, 1, 2, 0, 2, 1])
    }

    /// With tolerance 0 the cursor still decides exact ties: heights 100, 60, 100 fill columns
    /// 0–2; item 3 (60) goes to the shortest, column 1 → [100, 120, 100], cursor 2. Item 4 ties
    /// columns 0 and 2 at 100: grid-lanes takes column 2 (at or after the cursor), leftmost and
    /// last-index column 0 (column 0's last item, 0, is older than column 2's, 2).
    @Test func theCursorBreaksExactTies() throws {
        let heights: [Double] = [100, 60, 100, 60, 10]
        #expect(try Self.columns(heights, columns: 3, rule: .gridLanes(tolerance: 0)) == [0, 1, 2, 1, 2])
        #expect(try Self.columns(heights, columns: 3, rule: .leftmost) == [0, 1, 2, 1, 0])
        #expect(try Self.columns(heights, columns: 3, rule: .lastIndex) == [0, 1, 2, 1, 0])
    }

    /// last-index against leftmost: heights 50, 100, 50 in 2 columns give [100, 100] with
    /// column 0's last item 2 and column 1's 1: the tie goes to column 1 under last-index (and
    /// under grid-lanes, whose cursor is at 1), to column 0 under leftmost.
    @Test func lastIndexTakesTheOlderColumn() throws {
        let heights: [Double] = [50, 100, 50, 10]
        #expect(try Self.columns(heights, columns: 2, rule: .lastIndex) == [0, 1, 0, 1])
        #expect(try Self.columns(heights, columns: 2, rule: .gridLanes(tolerance: 0)) == [0, 1, 0, 1])
        #expect(try Self.columns(heights, columns: 2, rule: .leftmost) == [0, 1, 0, 0])
    }

    /// A full-width item spans every track (css-grid-3: the only line where it fits is the first;
    /// its position is the largest running position; afterwards every track's running position is
    /// its end plus the gap and the cursor is past the last line). 3 columns, lineSpacing 10:
    /// items 100, 50 in columns 0, 1; the full-width item (20) starts at max(110, 60, 0) = 110;
    /// every position is then 140 and the next item wraps to column 0; the one after finds
    /// columns 1 and 2 at 140 (column 0 at 180) and the cursor at 1: column 1.
    @Test func aFullWidthItemSpansEveryTrack() throws {
        let heights: [Double] = [100, 50, 20, 30, 30]
        let style = SectionStyle(
            kind: .waterfall(WaterfallStyle(columns: 3, placement: .gridLanes(tolerance: 16))), lineSpacing: 10)
        let items = heights.enumerated().map { ItemSize(width: 10, height: $1, spansAllColumns: $0 == 2) }
        let layout = try FullRecomputeUpdater(bounds: Self.bounds, styles: [style], data: try LayoutData(sections: [items]))
        #expect(layout.frames.itemFrame(global: 2, section: 0).y == 110)
        #expect(layout.frames.itemFrame(global: 3, section: 0).y == 140)
        #expect(layout.frames.itemFrame(global: 4, section: 0).y == 140)
        #expect(try Self.columns(heights, columns: 3, rule: .gridLanes(tolerance: 16), lineSpacing: 10, spans: [2]) == [0, 1, -1, 0, 1])
    }

    /// The fixed render directions ignore the rule.
    @Test func fixedDirectionsIgnoreTheRule() throws {
        let items = [100.0, 60, 100, 60, 10, 5, 80].map { ItemSize(width: 10, height: $0) }
        let data = try LayoutData(sections: [items])
        for direction in [RenderDirection.leftToRight, .rightToLeft] {
            var frames: [LayoutFrames] = []
            for rule in Self.rules {
                let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3, direction: direction, placement: rule)))
                frames.append(try FullRecomputeUpdater(bounds: Self.bounds, styles: [style], data: data).frames)
            }
            #expect(frames.allSatisfy { $0 == frames[0] })
        }
    }

    @Test func toleranceIsValidated() {
        for bad in [-1, Double.nan, .infinity] {
            let style = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 2, placement: .gridLanes(tolerance: bad))))
            #expect(throws: LayoutError.self) { try style.validate(contentWidth: 390) }
        }
    }
}
