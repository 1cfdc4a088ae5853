import BenchResults

/// The metrics of one cell measurement: the solver's size, and where a self-sizing measurement's
/// time goes (docs/text.md), timed as totals over one untimed pass and counted exactly under
/// --instructions (the runner splits the callgrind profile of any operation that measures cells).
extension Metric {
    package static let constraints = Metric(
        "constraints", unit: "count", .lowerIsBetter, .exact,
        about: "constraints in the solver during a cell measurement (the width constraint or edit variable included)")
    package static let pivots = Metric("pivots", unit: "count", .lowerIsBetter, .exact,
                                      about: "simplex pivots of one cell measurement (both passes; a fresh solver's construction included)")
    package static let shapingTime = Metric(
        "shaping_time", unit: "ns", .lowerIsBetter, .statistical,
        about: "time shaping label text (HarfBuzz) per operation, a total over one untimed pass of the trace with the text measurer's clock on")
    package static let breakingTime = Metric(
        "breaking_time", unit: "ns", .lowerIsBetter, .statistical,
        about: "time finding break opportunities (ICU) and filling lines per operation, a total over one untimed pass")
    package static let solveTime = Metric(
        "solve_time", unit: "ns", .lowerIsBetter, .statistical,
        about: "the rest of the cell measurements' time per operation over that pass: the constraint solve (and text-cache look-ups)")
    /// The instruction split takes `instructions`'s threshold (0.5%).
    package static let shapingInstructions = Metric(
        "shaping_instructions", unit: "count", .lowerIsBetter, .exact, threshold: Metric.instructions.defaultThreshold,
        counted: .callgrind,
        about: "instructions shaping label text per operation (--instructions; inclusive of HarfBuzz)")
    package static let breakingInstructions = Metric(
        "breaking_instructions", unit: "count", .lowerIsBetter, .exact, threshold: Metric.instructions.defaultThreshold,
        counted: .callgrind,
        about: "instructions finding break opportunities (ICU) and filling lines per operation (--instructions)")
    package static let solveInstructions = Metric(
        "solve_instructions", unit: "count", .lowerIsBetter, .exact, threshold: Metric.instructions.defaultThreshold,
        counted: .callgrind,
        about: "instructions of cell measurements outside shaping and breaking per operation: the constraint solve (--instructions)")
    package static let cacheInstructions = Metric(
        "cache_instructions", unit: "count", .lowerIsBetter, .exact, threshold: Metric.instructions.defaultThreshold,
        counted: .callgrind,
        about: "instructions outside cell measurements per operation: the height cache and the table's own work (--instructions)")

    /// The runner's split of a cell-measuring operation's instructions (`RunSession.selfSizingSplit`).
    package static let instructionSplit: [Metric] = [.shapingInstructions, .breakingInstructions, .solveInstructions, .cacheInstructions]
}

extension CellMeasureWorkload {
    package static let metrics: [Metric] = [.constraints, .pivots, .shapingTime, .breakingTime, .solveTime] + Metric.instructionSplit
}
