import Testing
@testable import BenchWorkloads
import LayoutEngine

/// Every harness mode builds the engine strategy it names, and every engine strategy is reachable
/// from exactly the harness mode meant: one test per family of modes. The expected tables are
/// written out here by hand, so a mapping that drifts (a raw-value bridge whose spelling no
/// longer matches, a case mapped to its neighbour) fails here instead of building another
/// strategy — or the unpinned baseline — that the verification would pass.
@Suite struct ModeMappingTests {
    /// Each engine case is the image of exactly one harness mode, and the harness modes without
    /// an engine case are exactly `baselines`.
    static func checkBijection<Harness: RawRepresentable<String>, Engine: CaseIterable & Equatable & RawRepresentable<String>>(
        _ harness: [Harness], engine: Engine.Type, map: (Harness) -> Engine?, baselines: [String]
    ) {
        for engineCase in Engine.allCases {
            let from = harness.filter { map($0) == engineCase }.map(\.rawValue)
            #expect(from.count == 1, "engine case \(engineCase.rawValue) is built by \(from), expected exactly one harness mode")
        }
        let unmapped = harness.filter { map($0) == nil }.map(\.rawValue)
        #expect(unmapped == baselines, "harness modes without an engine case: \(unmapped), expected \(baselines)")
    }

    /// `sticky-scroll`: each pinning mode by its name, `viewport-query` the one unpinned baseline.
    @Test func stickyScrollModesBuildTheirPinningMode() {
        let expected: [String: PinningMode?] = [
            "relayout": .relayout, "scan": .scan, "cached": .cached, "viewport-query": .none,
        ]
        let harness = StickyScrollWorkload.Mode.allCases
        #expect(Set(harness.map(\.rawValue)) == Set(expected.keys))
        for mode in harness {
            guard let wanted = expected[mode.rawValue] else { continue }
            #expect(mode.pinningMode == wanted, "sticky-scroll mode \(mode.rawValue) builds \(String(describing: mode.pinningMode))")
        }
        Self.checkBijection(harness, engine: PinningMode.self, map: \.pinningMode, baselines: ["viewport-query"])
    }

    /// `cell-measure`: each solve strategy from its own name, with and without the text cache;
    /// `frame` is the closed form, no solver.
    @Test func cellMeasureModesBuildTheirSolveStrategy() {
        let expected: [String: (TemplateSolveStrategy?, cachesText: Bool)] = [
            "fresh-engine": (.freshEngine, false),
            "fd-add-remove": (.addRemove, false), "fd-add-remove-text-cache": (.addRemove, true),
            "edit-width": (.editWidth, false), "edit-width-text-cache": (.editWidth, true),
            "fd-add-remove-batched": (.addRemoveBatched, false), "fd-add-remove-batched-text-cache": (.addRemoveBatched, true),
            "edit-width-batched": (.editWidthBatched, false), "edit-width-batched-text-cache": (.editWidthBatched, true),
            "frame": (nil, false),
        ]
        let harness = CellMeasureWorkload.Mode.allCases
        #expect(Set(harness.map(\.rawValue)) == Set(expected.keys))
        for mode in harness {
            guard let wanted = expected[mode.rawValue] else { continue }
            #expect(mode.strategy == wanted.0, "cell-measure mode \(mode.rawValue) builds \(String(describing: mode.strategy))")
            #expect(mode.cachesText == wanted.cachesText, "cell-measure mode \(mode.rawValue): cachesText \(mode.cachesText)")
        }
        // Without the text cache, each strategy is reached from the mode of its own name.
        let plain = harness.filter { !$0.cachesText }
        Self.checkBijection(plain, engine: TemplateSolveStrategy.self, map: \.strategy, baselines: ["frame"])
        for mode in plain { if let strategy = mode.strategy { #expect(strategy.rawValue == mode.rawValue) } }
        // With it, each long-lived strategy from exactly one mode (`fresh-engine` has no variant).
        let cached = harness.filter(\.cachesText)
        for strategy in TemplateSolveStrategy.allCases {
            let from = cached.filter { $0.strategy == strategy }.map(\.rawValue)
            #expect(from == (strategy.isLongLived ? [strategy.rawValue + "-text-cache"] : []), "\(strategy.rawValue) with a text cache: \(from)")
        }
        #expect(!cached.contains { $0.strategy == nil })
    }

    /// The families whose harness mode is the engine's enum itself: no bridge to drift. Each
    /// workload's `Mode` is the engine type, and every engine case parses from its name to itself.
    @Test func engineEnumFamiliesAreTheirOwnModes() throws {
        func check<W: Workload, E: CaseIterable & RawRepresentable<String> & Equatable>(_ workload: W.Type, _ engine: E.Type) throws {
            #expect(W.Mode.self == E.self, "\(W.kind)'s modes are \(W.Mode.self), expected the engine's \(E.self)")
            let names = E.allCases.map(\.rawValue)
            #expect(W.Mode.allCases.map(\.rawValue) == names, "\(W.kind): harness modes differ from \(E.self).allCases")
            let parsed = try W.parseModes(names).get()
            for (mode, engineCase) in zip(parsed, E.allCases) {
                #expect((mode as? E) == engineCase, "\(W.kind): \(engineCase.rawValue) parses to \(mode.rawValue)")
            }
        }
        try check(QueryWorkload.self, RectQueryMode.self)
        try check(AppendWorkload.self, WaterfallUpdateMode.self)
        try check(EditWorkload.self, WaterfallUpdateMode.self)
        try check(OffsetsWorkload.self, RowOffsetsMode.self)
        try check(ReuseScrollWorkload.self, ReuseMode.self)
        try check(HeightPassWorkload.self, HeightCacheMode.self)
    }

    /// `offsets`: each structure mode builds the structure of its name.
    @Test func offsetsModesBuildTheirStructure() throws {
        let expected: [String: any RowOffsets.Type] = [
            "rebuild": RebuildRowOffsets.self, "suffix": SuffixRowOffsets.self,
            "fenwick": FenwickRowOffsets.self, "btree": CountedTreeRowOffsets.self,
        ]
        #expect(Set(RowOffsetsMode.allCases.map(\.rawValue)) == Set(expected.keys))
        for mode in RowOffsetsMode.allCases {
            let built = try mode.make(heights: [10, 20, 30], estimate: 10)
            #expect(expected[mode.rawValue].map { type(of: built) == $0 } == true,
                    "offsets mode \(mode.rawValue) builds \(type(of: built))")
        }
    }
}
