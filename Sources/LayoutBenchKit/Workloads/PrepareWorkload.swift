import LayoutEngine

/// `prepare`: a layout of the whole content (frames plus the query index). `default` prepares a
/// new layout object — its arrays come fresh from the allocator, and for large layouts from the
/// kernel, page faults included; its `alloc_bytes` divided by the item count is the memory a layout
/// costs per item. `relayout` invalidates everything on a prepared layout and prepares it again,
/// reusing its storage, as after `reloadData` or a width change.
public struct PrepareWorkload: Workload {
    public static let kind = "prepare"
    public static let modes: [(name: String, summary: String)] = [
        ("default", "a new layout object: lay out every section and build the binary query index (fresh memory)"),
        ("relayout", "invalidate everything and prepare the same layout again, reusing its storage (reloadData)"),
    ]
    public static let summary = "initial layout of the whole content (first prepare after reloadData)"

    public init(spec: JSONReader) throws(ScenarioError) {
        try spec.finish()
    }

    public var operations: [String] { ["prepare"] }

    public func makeFixture(scenario: Scenario, items: Int) throws -> any WorkloadFixture {
        try PrepareFixture(scenario: scenario, items: items)
    }
}

final class PrepareFixture: WorkloadFixture {
    let scenario: Scenario
    let items: Int
    let styles: [SectionStyle]
    let data: LayoutData

    init(scenario: Scenario, items: Int) throws {
        self.scenario = scenario
        self.items = items
        styles = scenario.makeStyles()
        data = try scenario.makeData(items: items)
    }

    func makeMeasurement(mode: String, verify: Bool) throws -> ModeMeasurement {
        guard mode == "default" || mode == "relayout" else {
            throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: "not a prepare mode")
        }
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: styles, data: data)
        try layout.prepare()
        let reference = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: styles, data: data)
        if verify, let problem = layout.frames.firstDifference(from: reference) {
            throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: problem)
        }
        return ModeMeasurement(cases: [
            PrepareOperation(bounds: scenario.viewport, styles: styles, data: data, reusesStorage: mode == "relayout")
        ])
    }
}

/// Prepares a layout: a fresh one (created, and the previous one freed, outside the timing), or
/// the same one after invalidating everything.
final class PrepareOperation: MeasuredOperation {
    let operation = "prepare"
    let maximumBatch = 1
    private let bounds: Rect
    private let styles: [SectionStyle]
    private let data: LayoutData
    private let reusesStorage: Bool
    private var layout: SectionedLayout?

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData, reusesStorage: Bool) {
        self.bounds = bounds
        self.styles = styles
        self.data = data
        self.reusesStorage = reusesStorage
    }

    func prepareForRun(count: Int) throws {
        if reusesStorage, layout != nil {
            layout!.invalidate(with: .everything)
            return
        }
        layout = nil
        layout = try SectionedLayout(bounds: bounds, styles: styles, data: data)
        if reusesStorage {
            try layout!.prepare()
            layout!.invalidate(with: .everything)
        }
    }

    func run(count: Int) -> Int {
        do {
            try layout!.prepare()
        } catch {
            fatalError("prepare failed after verification: \(error)")
        }
        return Int(layout!.contentSize.height)
    }
}
