import BenchResults
import BenchScenarios

/// A scenario checked against its workload: the workload's own keys parsed, the modes known,
/// the item counts chosen. Everything that can be wrong with a scenario file is found here,
/// before anything is measured or written.
package struct BenchmarkPlan {
    package var scenario: Scenario
    package var workload: any Workload
    /// The modes to measure, parsed into the workload's `Mode` type (the only place mode names
    /// become values).
    package var modes: [any WorkloadMode]
    package var itemCounts: [Int]
    /// True when the user named the counts (`--items`): the callgrind pass then runs every one of
    /// them, as the timed pass does; only the scenario's own sweep is capped (`instructionCounts`).
    package var countsNamed = false
    /// How long loading the scenario file took, when the caller timed it (see `ScenarioCatalog.loadTimed`).
    package var loadSeconds: Double?

    /// The names of `modes`, as scenario files and the CSV write them.
    package var modeNames: [String] { modes.map { $0.rawValue } }

    /// Validates `scenario`. `modeFilter` keeps only those modes (each must exist for the
    /// workload); `itemsFilter` keeps only those counts (each must be in the sweep; with explicit
    /// data, each takes the first N items and must be at most the count given). `quick` keeps only
    /// the smallest count, capped at `quickItemLimit` (explicit data: its first 2,000 items).
    package init(
        scenario: Scenario, modeFilter: [String] = [], itemsFilter: [Int] = [], quick: Bool = false
    ) throws(ScenarioError) {
        guard let workloadType = WorkloadCatalog.type(named: scenario.workload.kind) else {
            throw scenario.workload.error(
                at: "kind",
                "unknown workload \(JSONValue.quoted(scenario.workload.kind)); expected one of "
                    + WorkloadCatalog.all.map { JSONValue.quoted($0.kind) }.joined(separator: ", "))
        }
        if scenario.isRegisteredLayout, !(workloadType is any GenericLayoutWorkload.Type) {
            let kind = LayoutCatalog.kind(named: scenario.layoutKind)
            throw ScenarioError(
                file: scenario.file, path: "layout.kind",
                message: "layout kind \(JSONValue.quoted(scenario.layoutKind)) runs under its generic workloads only ("
                    + (kind?.workloads ?? []).map { JSONValue.quoted($0.rawValue) }.joined(separator: ", ")
                    + "); workload \(JSONValue.quoted(scenario.workload.kind)) runs the built-in kinds "
                    + ScenarioLayout.kindNames.map { JSONValue.quoted($0) }.joined(separator: ", "))
        }
        let allowed = workloadType.allowedModes(for: scenario)
        try scenario.checkModes(allowed: allowed)
        self.scenario = scenario
        self.workload = try workloadType.init(spec: scenario.workload.reader())

        var modes = scenario.modes
        if !modeFilter.isEmpty {
            for mode in modeFilter where !allowed.contains(mode) {
                throw ScenarioError(
                    file: scenario.file, path: "modes",
                    message: "--mode \(mode) is not a mode of workload \(JSONValue.quoted(scenario.workload.kind)); expected one of "
                        + allowed.joined(separator: ", "))
            }
            modes = modes.filter { modeFilter.contains($0) }
            if modes.isEmpty {
                throw ScenarioError(
                    file: scenario.file, path: "modes",
                    message: "none of --mode \(modeFilter.joined(separator: ", ")) is among the scenario's modes \(scenario.modes.joined(separator: ", "))")
            }
        }
        self.modes = try Self.parse(modes, of: workloadType, scenario: scenario)

        var counts = scenario.itemCounts
        if !itemsFilter.isEmpty {
            if case .explicit(let explicitItems) = scenario.data {
                for count in itemsFilter where count > explicitItems.count || (count < 1 && count != explicitItems.count) {
                    throw ScenarioError(file: scenario.file, path: "data",
                                        message: "--items \(count): " + Scenario.explicitCountMessage(given: explicitItems.count, asked: count))
                }
                counts = itemsFilter.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
            }
            for count in itemsFilter where !counts.contains(count) {
                throw ScenarioError(
                    file: scenario.file, path: "items",
                    message: "--items \(count) is not in the scenario's sweep \(counts.map(String.init).joined(separator: ", "))")
            }
            counts = counts.filter { itemsFilter.contains($0) }
        }
        self.itemCounts = quick ? Self.quickCounts(counts) : counts
        self.countsNamed = !itemsFilter.isEmpty
        try checkFeasible()
    }

    /// Refuses, at load time, what would fail or exhaust the machine later: what the workload
    /// cannot run (`Workload.validate`), geometry past `ScenarioLimits.maxContentHeight` and an
    /// implausible memory need (`ScenarioFootprint`), and templates whose height passes the limits
    /// (`Scenario.checkTemplateHeights`). Sets the limit templated rows are measured against.
    mutating func checkFeasible() throws(ScenarioError) {
        let footprint = ScenarioFootprint(plan: self)
        scenario.templateHeightLimit = footprint.templateHeightLimit
        try workload.validate(scenario)
        try footprint.check(file: scenario.file)
        try scenario.checkTemplateHeights()
    }

    /// `names` (already checked against the workload's modes) as the workload's `Mode` values.
    private static func parse(_ names: [String], of workloadType: any Workload.Type, scenario: Scenario) throws(ScenarioError) -> [any WorkloadMode] {
        switch workloadType.parseModes(names) {
        case .success(let modes): return modes
        case .failure(let unknown): throw scenario.modeError(unknown.index, "unknown mode \(JSONValue.quoted(unknown.name))")
        }
    }

    /// The largest item count a `--quick` run uses.
    package static let quickItemLimit = 2_000

    /// The largest item count the callgrind pass (`run --instructions`) runs of a scenario's own
    /// sweep: under callgrind a process runs some 50–100 times slower, and the faithful
    /// O(n)-per-operation modes at 100,000 items (a height cache that measures every row each
    /// pass) took a third of the whole suite's pass, while an operation's instructions grow with n
    /// only where its algorithm says so, which 30,000 items (the suite's reference count) already
    /// show. Counts the user names with `--items` are all counted (`countsNamed`).
    package static let instructionItemLimit = 30_000

    /// The counts the callgrind pass runs: every count when the user named them (`--items`),
    /// else those of the sweep up to `instructionItemLimit`, or its smallest when the whole sweep
    /// lies above it.
    package var instructionCounts: [Int] {
        countsNamed ? itemCounts : Self.counts(itemCounts, upTo: Self.instructionItemLimit)
    }

    /// The counts the timed pass runs and the callgrind pass leaves out (see `instructionCounts`),
    /// so that a run can say which and why.
    package var instructionCountsLeftOut: [Int] {
        let counted = Set(instructionCounts)
        return itemCounts.filter { !counted.contains($0) }
    }

    /// The counts of `counts` up to `limit`, or the smallest when all lie above it.
    package static func counts(_ counts: [Int], upTo limit: Int) -> [Int] {
        let kept = counts.filter { $0 <= limit }
        if !kept.isEmpty { return kept }
        return counts.min().map { [$0] } ?? []
    }

    /// What `--quick` keeps of a sweep: the smallest count, capped at `quickItemLimit`.
    static func quickCounts(_ counts: [Int]) -> [Int] {
        counts.min().map { [Swift.min($0, quickItemLimit)] } ?? []
    }
}

extension BenchmarkPlan {
    /// Plans for several scenarios. With one scenario, `--mode` and `--items` must fit it exactly;
    /// with several, each scenario keeps the modes and counts it has, scenarios left with none are
    /// skipped, and a mode or count that fits no scenario at all is an error.
    /// `maxItems` keeps each sweep's counts up to it (the smallest when all lie above it).
    package static func select(
        _ scenarios: [Scenario], modes: [String], items: [Int], maxItems: Int? = nil, quick: Bool
    ) throws(ScenarioError) -> [BenchmarkPlan] {
        if scenarios.count == 1 {
            var plan = try BenchmarkPlan(scenario: scenarios[0], modeFilter: modes, itemsFilter: items, quick: quick)
            if let maxItems { plan.itemCounts = counts(plan.itemCounts, upTo: maxItems) }
            return [plan]
        }
        var plans: [BenchmarkPlan] = []
        var usedModes = Set<String>(), usedItems = Set<Int>()
        for scenario in scenarios {
            var plan = try BenchmarkPlan(scenario: scenario, quick: false)
            if !modes.isEmpty { plan.modes = plan.modes.filter { modes.contains($0.rawValue) } }
            if !items.isEmpty {
                if case .explicit(let explicitItems) = scenario.data {
                    plan.itemCounts = items.filter { $0 >= 1 && $0 <= explicitItems.count }
                        .reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
                } else {
                    plan.itemCounts = plan.itemCounts.filter { items.contains($0) }
                }
                plan.countsNamed = true
            }
            if let maxItems { plan.itemCounts = counts(plan.itemCounts, upTo: maxItems) }
            if quick { plan.itemCounts = quickCounts(plan.itemCounts) }
            if plan.modes.isEmpty || plan.itemCounts.isEmpty { continue }
            usedModes.formUnion(plan.modeNames)
            usedItems.formUnion(plan.itemCounts)
            plans.append(plan)
        }
        if let unused = modes.first(where: { !usedModes.contains($0) }) {
            throw ScenarioError(file: "Scenarios", path: "modes", message: "--mode \(unused) is not a mode of any selected scenario")
        }
        if !quick, let unused = items.first(where: { !usedItems.contains($0) }) {
            throw ScenarioError(file: "Scenarios", path: "items", message: "--items \(unused) is not in the sweep of any selected scenario")
        }
        return plans
    }
}
