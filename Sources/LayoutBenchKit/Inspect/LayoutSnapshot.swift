import LayoutEngine

/// A laid-out scenario to look at: what `layout-bench dump` prints and `render` draws.
///
/// Each workload's fixture says what its modes look like (`WorkloadFixture.snapshot(mode:)`):
/// for `prepare` and `query` the prepared layout (queried with the chosen query mode), for
/// `append` and `edit` the layout the update mode produced after the workload's whole trace.
public struct LayoutSnapshot {
    public var frames: LayoutFrames
    public var queryMode: RectQueryMode
    public var viewport: Rect

    public init(frames: LayoutFrames, queryMode: RectQueryMode, viewport: Rect) {
        self.frames = frames
        self.queryMode = queryMode
        self.viewport = viewport
    }

    /// The snapshot of one of the plan's modes at `items` items, from its workload.
    public init(plan: BenchmarkPlan, mode: any WorkloadMode, items: Int) throws {
        self = try plan.workload.makeGroup(scenario: plan.scenario, items: items).snapshot(mode: mode)
    }

    /// Elements whose frame intersects `rect` by the snapshot's query mode, or every element.
    public func elements(in rect: Rect?) -> [LayoutAttributes] {
        guard let rect else { return frames.allElements() }
        var results: [LayoutAttributes] = []
        queryMode.makeIndex(frames: frames).elements(in: rect, frames: frames, into: &results)
        return results.sorted { $0.id < $1.id }
    }
}
