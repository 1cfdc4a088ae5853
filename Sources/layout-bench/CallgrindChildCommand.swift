import ArgumentParser
import LayoutBenchKit

/// Internal: what `run --instructions` launches under callgrind for one scenario × mode × items.
struct CallgrindChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "callgrind-child",
        abstract: "Internal: run one mode's operations in labelled callgrind regions.",
        shouldDisplay: false)

    @Argument var scenario: String
    @Option var mode: String
    @Option var items: Int

    func run() throws {
        try reportingErrors {
            let plan = try loadPlan(scenario, modes: [mode])
            try CallgrindChild.run(plan: plan, mode: mode, items: items)
        }
    }
}
