import LayoutEngine

/// `prepare`: the initial layout of the whole content, from a new layout object to a prepared
/// one (frames plus the query index), as the first `prepare()` after `reloadData`. Its
/// `alloc_bytes` divided by the item count is the memory a layout costs per item.
public struct PrepareWorkload: Workload {
    public static let kind = "prepare"
    public static let modes: [(name: String, summary: String)] = [
        ("default", "lay out every section with its own algorithm and build the binary query index")
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
        guard mode == "default" else {
            throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: "not a prepare mode")
        }
        var layout = try SectionedLayout(bounds: scenario.viewport, styles: styles, data: data)
        try layout.prepare()
        let reference = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: styles, data: data)
        if verify, let problem = layout.frames.firstDifference(from: reference) {
            throw VerificationError(scenario: scenario.name, mode: mode, items: items, detail: problem)
        }
        return ModeMeasurement(cases: [PrepareOperation(bounds: scenario.viewport, styles: styles, data: data)])
    }
}

/// Prepares a fresh layout; the layout is created (and the previous one freed) outside the timing.
final class PrepareOperation: MeasuredOperation {
    let operation = "prepare"
    let maximumBatch = 1
    private let bounds: Rect
    private let styles: [SectionStyle]
    private let data: LayoutData
    private var layout: SectionedLayout?

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData) {
        self.bounds = bounds
        self.styles = styles
        self.data = data
    }

    func prepareForRun(count: Int) throws {
        layout = nil
        layout = try SectionedLayout(bounds: bounds, styles: styles, data: data)
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
