/// What a comparison runs, decided before anything is verified or measured: the scenarios (only
/// those both commits have, for the whole suite), the timed track's groups (each scenario at each
/// count of its sweep, unless run's options choose the counts), and for `--shard K/N` this share
/// of them. A value of the arguments and the two harnesses' listings, so it is tested without a
/// process.
struct ComparisonPlan: Equatable {
    /// The scenarios the verification and the exact track run.
    var scenarios: [String]
    /// The timed track's groups (none for the exact track, which runs whole scenarios).
    var groups: [ScenarioGroup]
    /// A share's groups (or scenarios, for the exact track), as shard.json lists them.
    var share: [String] = []
    /// The progress lines that say what was left out or shared.
    var notes: [String] = []

    typealias Listing = [(name: String, items: [Int])]

    /// `base` and `head` give each harness's listing (nil when it has none), asked only when needed.
    static func make(_ arguments: CompareCommitsArguments, base: () -> Listing?, head: () -> Listing?) throws(DriverError) -> ComparisonPlan {
        let instructions = arguments.instructions
        var headListing: Listing??
        func headOnce() -> Listing? {
            if let known = headListing { return known }
            headListing = .some(head())
            return headListing!
        }
        var scenarios = arguments.scenarios
        var notes: [String] = []
        if scenarios.isEmpty {
            // The whole suite: only the scenarios both commits have can be compared; running
            // the others would cost time (a new real-text scenario takes minutes under
            // callgrind) and give rows with nothing beside them.
            let common = HarnessListing.common(base: base(), head: headOnce())
            if !common.leftOut.isEmpty && !common.names.isEmpty {
                scenarios = common.names
                notes.append("left out \(common.leftOut.count) scenario(s) only one of the commits has: "
                    + common.leftOut.joined(separator: ", "))
            }
        }
        // The scenario groups a timed round runs: each scenario at each count of its sweep, or
        // one group per scenario when run's options choose the counts (--items, --quick).
        let options = arguments.runOptions
        let expand = !options.contains("--items") && !options.contains("--max-items") && !options.contains("--quick")
        func groups(_ scenarios: [String]) -> [ScenarioGroup] {
            RoundSchedule.groups(listing: headOnce() ?? [], chosen: scenarios, expand: expand)
        }
        var plan = ComparisonPlan(scenarios: scenarios, groups: instructions ? [] : groups(scenarios), notes: notes)
        guard let shard = arguments.shard else { return plan }
        // Dealt in turn, group by group (scenario by scenario for the exact track, whose run
        // takes whole scenarios), so that each share holds scenarios of every size.
        let what = instructions ? "scenarios" : "scenario groups"
        let dealt: [String] = instructions ? groups(scenarios).map(\.scenario).uniqued() : plan.groups.map(\.description)
        plan.share = Shards.share(dealt, index: shard.index, count: shard.count)
        if plan.share.isEmpty {
            throw DriverError("--shard \(shard.index)/\(shard.count): there are only \(dealt.count) \(what) to share; give fewer shares")
        }
        if instructions {
            plan.scenarios = plan.share
        } else {
            plan.groups = plan.share.compactMap(ScenarioGroup.init)
            plan.scenarios = plan.groups.map(\.scenario).uniqued()
        }
        plan.notes.append("shard \(shard.index) of \(shard.count): \(plan.share.count) of \(dealt.count) \(what)")
        return plan
    }
}
