import LayoutEngine

/// A laid-out scenario to look at: what `layout-bench dump` prints and `render` draws.
///
/// For `prepare` and `query` scenarios it is the prepared layout (queried with the chosen query
/// mode); for `append` and `edit` it is the layout the chosen update mode produced after the whole
/// workload trace, so that modes that place items differently (stable-lanes) can be compared.
public struct LayoutSnapshot {
    public var frames: LayoutFrames
    public var queryMode: RectQueryMode
    public var viewport: Rect

    public init(plan: BenchmarkPlan, mode: String, items: Int) throws {
        let scenario = plan.scenario
        viewport = scenario.viewport
        if plan.workload is QueryWorkload || plan.workload is PrepareWorkload {
            // A query scenario's mode is a query mode; a prepare scenario is queried exactly.
            queryMode = RectQueryMode(rawValue: mode) ?? .binary
            frames = SectionedLayout.computeFrames(
                bounds: scenario.viewport, styles: scenario.makeStyles(), data: try scenario.makeData(items: items))
        } else if let updateMode = WaterfallUpdateMode(rawValue: mode) {
            queryMode = .binary
            let fixture = try plan.workload.makeFixture(scenario: scenario, items: items)
            guard let update = fixture as? UpdateFixture else {
                throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: "not an update workload")
            }
            frames = try update.framesAfterTrace(mode: updateMode)
        } else {
            throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: "unknown mode")
        }
    }

    /// Elements whose frame intersects `rect` by the snapshot's query mode, or every element.
    public func elements(in rect: Rect?) -> [LayoutAttributes] {
        guard let rect else { return frames.allElements() }
        var results: [LayoutAttributes] = []
        queryMode.makeIndex(frames: frames).elements(in: rect, frames: frames, into: &results)
        return results.sorted { $0.id < $1.id }
    }
}
