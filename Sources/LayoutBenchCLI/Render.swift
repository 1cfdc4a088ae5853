import ArgumentParser
import BenchPlatform
import BenchScenarios
import BenchWorkloads

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the layout around a scroll offset as SVG.",
        discussion: """
            Draws section backgrounds, items, headers and footers, and the viewport at --offset as a dashed \
            red outline, from one viewport above the offset to two below.

            Example: layout-bench render mixed-sections-query --mode binary --offset 1200 --out layout.svg
            """)

    @Argument(help: "A scenario name from Scenarios/ or a path to a JSON file.")
    var scenario: String

    @Option(help: "The mode whose layout to draw.")
    var mode: String

    @Option(parsing: .unconditional, help: "One item count of the scenario's sweep (default: the first); with explicit data, its first N items.")
    var items: Int?

    @Option(name: .customLong("offset"), parsing: .unconditional,
            help: ArgumentHelp("The scroll offset Y (the top of the viewport; negative: pulled past the top).", valueName: "offset"))
    var offsetText = "0"
    var offset: Double { parseCoordinate(offsetText) ?? 0 }

    @Option(help: "The SVG file to write.")
    var out: String

    func validate() throws {
        try validateItemCounts(items.map { [$0] } ?? [])
        try validateOffset(offsetText)
    }

    func run() throws {
        try reportingErrors {
            let plan = try loadPlan(scenario, modes: [mode], items: items.map { [$0] } ?? [])
            let snapshot = try LayoutSnapshot(plan: plan, mode: plan.modes[0], items: plan.itemCounts[0])
            let title = "\(plan.scenario.name) — \(mode), \(plan.itemCounts[0]) items, offset \(offset)"
            try AtomicFile.write(SVGRenderer.render(snapshot, offset: offset, title: title), to: out, option: "--out")
        }
    }
}
