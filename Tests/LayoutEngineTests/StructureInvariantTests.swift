import Testing
@testable import LayoutEngine

/// The invariant checks of the stable-lanes sequences and the incremental updater's checkpoints
/// find each kind of damage, and the updaters keep them through changes (the property tests call
/// them after every step; debug builds at every mutation point).
@Suite struct StructureInvariantTests {
    static let bounds = Rect(x: 0, y: 0, width: 390, height: 800)
    static let waterfall = SectionStyle(kind: .waterfall(WaterfallStyle(columns: 3)), lineSpacing: 4)

    static func data(items: Int) throws -> LayoutData {
        try LayoutData(sections: [(0..<items).map { ItemSize(height: Double(20 + $0 % 7 * 9)) }])
    }

    static func stableLanes(items: Int) throws -> StableLanesUpdater {
        var updater = try StableLanesUpdater(bounds: bounds, styles: [waterfall], data: data(items: items), chunkCapacity: 4)
        for item in stride(from: 1, to: items, by: 5) { try updater.apply(.setHeight(section: 0, item: item, height: 13)) }
        try updater.apply(.insertItems(section: 0, at: 3, items: [ItemSize(height: 50), ItemSize(height: 8)]))
        return updater
    }

    @Test func laneSequenceFindsEachKindOfDamage() throws {
        #expect(try Self.stableLanes(items: 60).invariantViolation() == nil)

        var summary = try Self.stableLanes(items: 60).storage.sections[0]
        summary.summaries[summary.summaryStride * summary.root + 2] += 0.5
        #expect(summary.invariantViolation()?.contains("summary value") == true)

        var counts = try Self.stableLanes(items: 60).storage.sections[0]
        counts.itemCounts[counts.root] += 1
        #expect(counts.invariantViolation()?.contains("counts") == true)

        var levels = try Self.stableLanes(items: 60).storage.sections[0]
        levels.levelCounts[0] += 1
        #expect(levels.invariantViolation()?.contains("levels") == true)
    }

    @Test func checkpointsFindEachKindOfDamage() throws {
        var updater = try IncrementalWaterfallUpdater(bounds: Self.bounds, styles: [Self.waterfall], data: Self.data(items: 300))
        try updater.apply(.setHeight(section: 0, item: 70, height: 3))
        #expect(updater.invariantViolation() == nil)
        #expect(updater.checkpoints[0].count == 300 / 64 + 1)

        var missing = updater
        missing.checkpoints[0].truncate(to: 2)
        #expect(missing.invariantViolation()?.contains("checkpoints for 300 items") == true)

        var risen = updater
        risen.checkpoints[0].shift(fromCheckpoint: 3, by: -5_000)
        #expect(risen.invariantViolation()?.contains("checkpoint 3 column 0") == true)

        var emptied = updater
        emptied.checkpoints[0].occupied[4 * 3 + 1] = false
        #expect(emptied.invariantViolation()?.contains("checkpoint 4 column 1") == true)
    }

    /// Debug builds and the tests compile the checks in; `_checkInvariants()` is what the mutation
    /// points call.
    @Test func checksAreCompiledIntoTestBuilds() {
        #expect(LayoutFrames.checksInvariants)
    }
}
