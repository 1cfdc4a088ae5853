import LayoutEngine
import BenchScenarios

/// `offsets`: a self-sizing list whose rows start with estimated heights (one estimate, or one per
/// reuse identifier) and are measured through the template cell as they scroll into view, while
/// rows are inserted and removed (docs/modes.md). Modes are the `RowOffsets` strategies; every mode is
/// checked against `PrefixSumReference` after every step of every trace.
///
/// Operations (each its own trace, from the all-estimated list):
/// - `update`: a measured height replaces an estimate, then the row's offset is read (no anchoring);
/// - `measure-and-update`: the template cell measures the row's text, the height is applied with
///   scroll anchoring (the real per-row work while scrolling);
/// - `row-at-offset`: the row at the top of the viewport, for the offsets of the session's frames;
/// - `insert`, `delete`: one row in the middle half;
/// - `load-older`: a chat's older page of `page` rows inserted at the top, with anchoring;
/// - `jump-back`: a far jump and a drag back up, the rows coming into view measured and anchored;
/// - `rotate`: the rows visible after a rotation measured at the new width, and a drag back up;
/// - `resize-storm`: `n` resizes in reverse row order, or `stormResizes` of row `stormRow`.
///
/// Anchoring is a strategy of its own, the `anchor` key (`ScrollAnchorMode`: `none`, `exact`,
/// `tanstack`, `flutter`), orthogonal to the structure: every structure applies the same rule and
/// must agree with `ScrollAnchorReference` on every correction, so one scenario per rule compares
/// the structures under it, and the `anchor_jump` and `size_churn` metrics compare the rules.
package struct OffsetsWorkload: Workload {
    /// The order of `resize-storm`'s resizes.
    package enum StormOrder: String, CaseIterable, Sendable {
        /// Every row resized once, from the last to the first (TanStack Virtual's measure storm).
        case reverse
        /// Row `stormRow` resized `stormResizes` times.
        case `repeat`
    }

    package typealias Mode = RowOffsetsMode
    package static let kind = "offsets"
    package static let about = "estimated row heights replaced by measured ones while scrolling, with middle edits and older pages loaded at the top"

    /// The operations a scenario that names none times: every one but the storm.
    package static let defaultOperations = Operation.allCases.filter { $0 != .resizeStorm }

    /// Frames of the scroll session.
    package var frames: Int
    /// One estimate per reuse identifier; rows draw their identifier at random.
    package var estimates: [Double]
    /// Changes per insert, delete and load-older trace.
    package var steps: Int
    /// Rows per older page.
    package var page: Int
    package var seed: Int
    package var operations: [Operation]
    /// The anchoring rule.
    package var anchor: ScrollAnchorMode
    package var storm: StormOrder
    package var stormRow: Int
    package var stormResizes: Int

    package init(spec: JSONReader) throws(ScenarioError) {
        frames = try spec.int(Self.framesKey)
        let estimatesKey = Self.estimatesKey, maxEstimates = estimatesKey.maxCount ?? 1
        if let nodes = try spec.optionalArray(estimatesKey.name) {
            guard !nodes.isEmpty, nodes.count <= maxEstimates else {
                throw spec.error(at: estimatesKey.name, "expected 1 to \(maxEstimates) estimates (one per reuse identifier), got \(nodes.count)")
            }
            var values: [Double] = []
            for node in nodes { values.append(try node.double(estimatesKey.bound)) }
            estimates = values
        } else {
            estimates = [44]
        }
        steps = try spec.int(Self.stepsKey)
        page = try spec.int(Self.pageKey)
        seed = try spec.int(Self.seedKey)
        anchor = try spec.choice(Self.anchorKey, default: .exact)
        storm = try spec.choice(Self.stormKey, default: .reverse)
        stormRow = try spec.int(Self.stormRowKey)
        stormResizes = try spec.int(Self.stormResizesKey)
        operations = spec.has(Self.operationsKey.name)
            ? try spec.operationList(Self.operationsKey.name, of: Operation.self) : Self.defaultOperations
        try spec.finish()
    }

    /// Rows are measured from their generated text, in a list of one section kind.
    package func validate(_ scenario: Scenario) throws(ScenarioError) {
        guard case .generated(let generator) = scenario.data, case .text = generator.heights else {
            throw ScenarioError(file: scenario.file, path: scenario.data.isExplicit ? "data" : "data.generate.heights",
                                message: "the offsets workload measures rows from their text; expected \"distribution\": \"text\"")
        }
        guard case .list = scenario.layout.section(0).style.kind, scenario.layout.sections.count == 1 else {
            throw ScenarioError(file: scenario.file, path: "layout.kind",
                                message: "the offsets workload needs a list (one kind of section), got \(scenario.layout.sections.count) section kinds")
        }
        if operations.contains(.resizeStorm), storm == .repeat, let items = scenario.itemCounts.first(where: { $0 <= stormRow }) {
            throw scenario.workload.error(at: Self.stormRowKey.name, "row \(stormRow) does not exist at \(items) items; expected a row below every item count")
        }
        try checkStormWork(scenario)
    }

    /// Refuses a `resize-storm` that cannot finish: each of its resizes re-sums every row in the
    /// reference the trace is recorded against (and in the `rebuild` and `suffix` structures it is
    /// verified on), so a storm costs resizes × rows row sums, which must stay within
    /// `ScenarioLimits.maxStormRowSums` at the largest item count. The error names the operation
    /// and the largest count (or resize count) that can.
    func checkStormWork(_ scenario: Scenario) throws(ScenarioError) {
        guard let index = operations.firstIndex(of: .resizeStorm), let items = scenario.itemCounts.max() else { return }
        let limit = ScenarioLimits.maxStormRowSums
        let resizes = storm == .reverse ? items : stormResizes
        let rowSums = Double(resizes) * Double(items)
        guard rowSums > limit else { return }
        let operation = JSONPath.appending("workload.operations", index: index)
        switch storm {
        case .reverse:
            let largest = Int(limit.squareRoot())
            throw ScenarioError(
                file: scenario.file, path: operation,
                message: "resize-storm (storm \"reverse\") resizes each of \(items) rows once and every resize re-sums all of them: "
                    + "\(format(rowSums)) row sums, more than the limit of \(format(limit)) (docs/scenario-format.md, limits); "
                    + "use at most \(largest) items, or storm \"repeat\"")
        case .repeat:
            let largest = Int(limit / Double(items))
            throw ScenarioError(
                file: scenario.file, path: operation,
                message: "resize-storm (storm \"repeat\") resizes row \(stormRow) \(stormResizes) times and every resize re-sums all "
                    + "\(items) rows: \(format(rowSums)) row sums, more than the limit of \(format(limit)) (docs/scenario-format.md, limits); "
                    + "use at most \(largest) stormResizes at \(items) items, or at most \(Int(limit / Double(stormResizes))) items")
        }
    }

    package var footprint: WorkloadFootprint { .none }

    package func makeFixture(scenario: Scenario, items: Int) throws -> OffsetsFixture {
        try OffsetsFixture(scenario: scenario, items: items, workload: self)
    }
}
