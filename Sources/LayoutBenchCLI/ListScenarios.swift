import ArgumentParser
import Foundation
import BenchPlatform
import BenchScenarios
import BenchWorkloads
import BenchCompare

struct ListScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the scenarios with their workloads, modes and item counts.",
        discussion: "Reads every Scenarios/*.json (or $LAYOUT_BENCH_SCENARIOS) and checks it, as `run` would.")

    @Flag(help: "Also describe every workload and mode.")
    var verbose = false

    @Flag(help: "Print every scenario, workload (operations, modes, keys, timing, exactness) and metric as JSON: the source the docs' tables and the CI check are written from.")
    var json = false

    func run() throws {
        try reportingErrors {
            let catalog = try ScenarioCatalog.locate()
            let plans = try catalog.loadAll().map { scenario throws(ScenarioError) in try BenchmarkPlan(scenario: scenario) }
            if json {
                var listing = CatalogListing(plans: plans, relativeTo: (catalog.directory as NSString).deletingLastPathComponent)
                listing.csv?["compare"] = ComparisonTable.csvHeader
                listing.csv?["causes"] = RegressionCause.csvHeader
                try StandardOutput.write(try listing.json() + "\n")
                return
            }
            var text = ""
            func line(_ string: String) { text += string + "\n" }
            let nameWidth = max(8, plans.map(\.scenario.name.count).max() ?? 0)
            line("scenario".padding(nameWidth) + "  workload  modes; items")
            for plan in plans {
                let counts = plan.itemCounts.map(String.init).joined(separator: ", ")
                line(plan.scenario.name.padding(nameWidth) + "  " + plan.scenario.workload.kind.padding(8)
                      + "  " + plan.modeNames.joined(separator: ", ") + "; " + counts)
                line(String(repeating: " ", count: nameWidth + 2) + plan.scenario.description)
            }
            if verbose {
                for workload in WorkloadCatalog.all {
                    line("\nworkload \(workload.kind): \(workload.about)")
                    for mode in workload.modes { line("  \(mode.name.padding(14)) \(mode.about)") }
                }
            }
            // Names and descriptions are the scenario files' text: no escape sequence or
            // bidirectional override reaches the terminal.
            try StandardOutput.write(DisplayText.escaped(text))
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
