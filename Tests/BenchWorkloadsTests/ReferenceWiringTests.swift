import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
import LayoutEngine
import LayoutReference

/// The harness checks the engine against the independent reference geometry, so that a bug shared
/// by a fast path and the engine's own recompute (the check of code against itself) is caught.
@Suite struct ReferenceWiringTests {
    /// Styles that lay out like `styles` but forget the line spacing (the audit's flow bug).
    func withoutLineSpacing(_ styles: [SectionStyle]) -> [SectionStyle] {
        styles.map { var style = $0; style.lineSpacing = 0; return style }
    }

    @Test func prepareModesAreVerifiedAgainstTheReference() throws {
        let scenario = try parseScenario(mixedScenario)
        let fixture = try PrepareFixture(scenario: scenario, items: 300)
        for mode in PrepareWorkload.Mode.allCases {
            _ = try fixture.makeMeasurement(mode: mode, verify: true)
        }
        // Frames laid out without line spacing are caught, though they agree with themselves.
        let styles = scenario.makeStyles(), data = try scenario.makeData(items: 300)
        let wrong = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: withoutLineSpacing(styles), data: data)
        let problem = try ReferenceGeometry.firstMismatch(of: wrong, bounds: scenario.viewport, styles: styles, data: data)
        #expect(problem?.contains("against the reference layout") == true, "\(problem ?? "no difference found")")
        let right = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: styles, data: data)
        #expect(try ReferenceGeometry.firstMismatch(of: right, bounds: scenario.viewport, styles: styles, data: data) == nil)
    }

    /// An update mode whose reference shares its bug: the engine comparison passes, the
    /// reference geometry does not.
    @Test func updateModesAreVerifiedAgainstTheReference() throws {
        let scenario = try parseScenario(scenarioJSON(
            layout: #"{"kind": "waterfall", "columns": 2, "itemSpacing": 8, "lineSpacing": 6}"#,
            workload: #"{"kind": "append", "batch": 5, "steps": 3}"#, modes: #"["full"]"#))
        let initial = try scenario.makeData(items: 100)
        let styles = scenario.makeStyles()
        let trace = UpdateTrace(initial: initial, changes: [.appendItems(section: 0, items: [ItemSize(height: 10), ItemSize(height: 20)])])
        let wrongStyles = withoutLineSpacing(styles)
        let updater = try WaterfallUpdateMode.full.make(bounds: scenario.viewport, styles: wrongStyles, data: initial)
        let reference = try WaterfallUpdateMode.full.makeExpectation(bounds: scenario.viewport, styles: wrongStyles, data: initial)
        #expect(try UpdateOperation.verify(updater: updater, reference: reference, trace: trace) == nil)
        let problem = try UpdateOperation.verify(
            updater: updater, reference: reference, trace: trace, geometry: (scenario.viewport, styles, true))
        #expect(problem?.hasPrefix("before any change: against the reference layout") == true, "\(problem ?? "no difference found")")
        for mode in WaterfallUpdateMode.allCases {
            #expect(try UpdateOperation.verify(mode: mode, bounds: scenario.viewport, styles: styles, trace: trace) == nil)
        }
    }

    /// `full` is verified without replaying its own full recompute as the expectation (that
    /// compares the code with itself): the reference geometry alone catches a wrong `full`, before
    /// any change and after one, and a right one passes — also with the group's kept layout of
    /// the initial data (`ReferenceGeometry.Kept`) as the check before any change.
    @Test(arguments: [false, true])
    func fullIsVerifiedByTheReferenceGeometryAlone(keepsInitial: Bool) throws {
        let scenario = try parseScenario(scenarioJSON(
            layout: #"{"kind": "waterfall", "columns": 3, "itemSpacing": 8, "lineSpacing": 6}"#,
            workload: #"{"kind": "edit", "steps": 3, "operations": ["height-change"]}"#, modes: #"["full"]"#))
        let initial = try scenario.makeData(items: 100)
        let styles = scenario.makeStyles()
        let geometry: (bounds: Rect, styles: [SectionStyle], keepsShortestFirstPlacement: Bool) = (scenario.viewport, styles, true)
        let kept = keepsInitial ? ReferenceGeometry.Kept(bounds: scenario.viewport, styles: styles, data: initial) : nil
        let trace = UpdateTrace(initial: initial, changes: [.setHeight(section: 0, item: 40, height: 333)])
        let wrong = try WaterfallUpdateMode.full.make(bounds: scenario.viewport, styles: withoutLineSpacing(styles), data: initial)
        let problem = try UpdateOperation.verify(updater: wrong, reference: nil, trace: trace, geometry: geometry, initial: kept)
        #expect(problem?.hasPrefix("before any change: against the reference layout") == true, "\(problem ?? "no difference found")")
        // A right `full` passes; one whose frames miss a change (its data has it) fails after it.
        let right = try FullRecomputeUpdater(bounds: scenario.viewport, styles: styles, data: initial)
        let passed = try UpdateOperation.verify(updater: right, reference: nil, trace: trace, geometry: geometry, initial: kept)
        #expect(passed == nil, "\(passed ?? "")")
        let late = try UpdateOperation.verify(
            updater: FramesMissingChanges(base: right), reference: nil, trace: trace, geometry: geometry, initial: kept)
        #expect(late?.hasPrefix("after change 0") == true, "\(late ?? "no difference found")")
        #expect(try UpdateOperation.verify(mode: .full, bounds: scenario.viewport, styles: styles, trace: trace) == nil)
    }

    /// The layout a group keeps of its traces' initial data lays out other data afresh.
    @Test func theKeptInitialLayoutLaysOutOtherDataAfresh() throws {
        let scenario = try parseScenario(scenarioJSON(
            layout: #"{"kind": "waterfall", "columns": 3, "itemSpacing": 8, "lineSpacing": 6}"#,
            workload: #"{"kind": "edit", "steps": 3, "operations": ["height-change"]}"#, modes: #"["full"]"#))
        let initial = try scenario.makeData(items: 100)
        let styles = scenario.makeStyles()
        let kept = ReferenceGeometry.Kept(bounds: scenario.viewport, styles: styles, data: initial)
        var other = initial
        try other.setHeight(333, section: 0, item: 40)
        for layoutStyles in [styles, withoutLineSpacing(styles)] {
            let frames = SectionedLayout.computeFrames(bounds: scenario.viewport, styles: layoutStyles, data: other)
            let fresh = try ReferenceGeometry.firstMismatch(of: frames, bounds: scenario.viewport, styles: styles, data: other)
            #expect(try kept.firstMismatch(of: frames, data: other) == fresh)
            #expect((fresh == nil) == (layoutStyles == styles))
        }
    }

    @Test func largeLayoutsAreSampled() {
        #expect(Array(ReferenceGeometry.checkedQueryFrames(count: 600, items: 30_000)).count == 600)
        #expect(Array(ReferenceGeometry.checkedQueryFrames(count: 600, items: 1_000_000)).count == 60)
        #expect((0..<50).filter { ReferenceGeometry.checksChange(step: $0, count: 50, items: 1_000_000) } == [0, 25, 49])
        #expect((0..<50).allSatisfy { ReferenceGeometry.checksChange(step: $0, count: 50, items: 300_000) })
    }
}

/// A `full` whose data follows every change and whose frames follow none.
private struct FramesMissingChanges: LayoutUpdater {
    var base: FullRecomputeUpdater
    var data: LayoutData
    var frames: LayoutFrames { base.frames }

    init(base: FullRecomputeUpdater) {
        self.base = base
        data = base.data
    }

    init(bounds: Rect, styles: [SectionStyle], data: LayoutData) throws(LayoutError) {
        self.init(base: try FullRecomputeUpdater(bounds: bounds, styles: styles, data: data))
    }

    mutating func apply(_ change: LayoutChange) throws(LayoutError) { try change.apply(to: &data) }
}
