import ArgumentParser
import BenchPlatform
import BenchWorkloads
import LayoutEngine

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every element's frame as CSV (kind,section,index,x,y,width,height,pinned).",
        discussion: """
            For prepare and query scenarios, the prepared layout; for append and edit scenarios, the layout \
            the update mode produced after the workload's whole trace. With --rect, only what the mode's rect \
            query returns, so a heuristic's misses and extras show.

            Example: layout-bench dump waterfall-query --mode binary-probe --items 1000 --rect 0,2000,390,844
            """)

    @Argument(help: "A scenario name from Scenarios/ or a path to a JSON file.")
    var scenario: String

    @Option(help: "The mode (a query mode for query scenarios, an update mode for append/edit).")
    var mode: String

    @Option(parsing: .unconditional, help: "One item count of the scenario's sweep (default: the first); with explicit data, its first N items.")
    var items: Int?

    @Option(name: .customLong("offset"), parsing: .unconditional,
            help: ArgumentHelp("The scroll offset Y for pinned elements (negative: pulled past the top).", valueName: "offset"))
    var offsetText = "0"
    var offset: Double { parseCoordinate(offsetText) ?? 0 }

    @Option(parsing: .unconditional, help: "Only the elements the mode's rect query returns for X,Y,W,H.", transform: parseRect)
    var rect: Rect?

    @Option(help: "Write to FILE (atomically) instead of stdout.")
    var out: String?

    func validate() throws {
        try validateItemCounts(items.map { [$0] } ?? [])
        try validateOffset(offsetText)
    }

    func run() throws {
        try reportingErrors {
            let plan = try loadPlan(scenario, modes: [mode], items: items.map { [$0] } ?? [])
            let snapshot = try LayoutSnapshot(plan: plan, mode: plan.modes[0], items: plan.itemCounts[0])
            let csv = FrameDump.csv(snapshot.elements(in: rect, offset: offset))
            if let out {
                try AtomicFile.write(csv, to: out, option: "--out")
            } else {
                try StandardOutput.write(csv)
            }
        }
    }
}

/// Parses `X,Y,W,H`, each a coordinate as `--offset` takes it (`parseCoordinate`).
func parseRect(_ text: String) throws -> Rect {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { parseCoordinate(String($0)) }
    guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
        throw ValidationError("--rect expects four decimal numbers X,Y,W,H from -\(coordinateBound) to \(coordinateBound) (e.g. 0,2000,390,844), got '\(text)'")
    }
    return Rect(x: x, y: y, width: w, height: h)
}
