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

    @Test func largeLayoutsAreSampled() {
        #expect(Array(ReferenceGeometry.checkedQueryFrames(count: 600, items: 30_000)).count == 600)
        #expect(Array(ReferenceGeometry.checkedQueryFrames(count: 600, items: 1_000_000)).count == 60)
        #expect((0..<50).filter { ReferenceGeometry.checksChange(step: $0, count: 50, items: 1_000_000) } == [0, 25, 49])
        #expect((0..<50).allSatisfy { ReferenceGeometry.checksChange(step: $0, count: 50, items: 300_000) })
    }
}
