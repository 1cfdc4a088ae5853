import LayoutEngine
import BenchScenarios

/// `reuse-scroll`: the visible range of a list follows a scroll trace (`ScrollTrace`: drags,
/// flings, a scrubber pass, a jump to the top), and cells are dequeued and enqueued by reuse
/// identifier as rows appear and disappear (docs/modes.md). Rows draw one of `identifiers` reuse
/// identifiers at random; visible ranges come from the rows' heights (plain prefix sums).
/// Every mode is checked on every frame: each visible row has exactly one cell, created for the
/// row's identifier. Reported with the timing: `cells_created`, `dequeues`, `peak_pool`.
package struct ReuseScrollWorkload: Workload {
    package typealias Mode = ReuseMode
    package static let kind = "reuse-scroll"
    package static let about = "cells dequeued and enqueued by reuse identifier while the visible range follows a scroll trace"

    package var frames: Int
    package var identifiers: Int
    /// Free cells kept per identifier by `stacks` (default: the most rows ever visible at once + 2).
    package var capacity: Int?
    package var seed: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(Self.framesKey)
        identifiers = try spec.int(Self.identifiersKey)
        capacity = try spec.optionalInt(Self.capacityKey)
        seed = try spec.int(Self.seedKey)
        try spec.finish()
    }

    package var operations: [Operation] { [.scrollStep] }

    package func validate(_ scenario: Scenario) throws(ScenarioError) {}

    package var footprint: WorkloadFootprint { .none }

    package func makeFixture(scenario: Scenario, items: Int) throws -> ReuseScrollFixture {
        try ReuseScrollFixture(scenario: scenario, items: items, workload: self)
    }
}
