import ArgumentParser
import Foundation
import BenchPlatform
import BenchScenarios
import BenchWorkloads
import BenchRunner

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify and measure scenarios; write samples.csv.gz, summary.csv and run.json.",
        discussion: """
            Every mode is first checked against the exact reference (frames within 1e-9, query answers as \
            sets; heuristic modes report their recall). Then the modes of a scenario are sampled in turn \
            until each has enough samples. Progress goes to stderr; the files are written atomically.

            Examples:
              layout-bench run --quick                   # whole suite, small (CI)
              layout-bench run list-query --items 30000  # one scenario, one count
              layout-bench run --mode binary --mode linear
              layout-bench run waterfall-append --instructions
              layout-bench run waterfall-append --mode incremental --items 1000000 --instructions
            """)

    @Argument(help: "Scenario names from Scenarios/ or paths to JSON files (default: all).")
    var scenarios: [String] = []

    @Option(name: .customLong("mode"), help: "Only this mode (repeatable).")
    var modes: [String] = []

    @Option(name: .customLong("items"), parsing: .unconditionalSingleValue, help: "Only this item count of the sweep (repeatable); with explicit data, its first N items.")
    var items: [Int] = []

    @Option(name: .customLong("max-items"), parsing: .unconditional, help: "Only the counts of each sweep up to N (the smallest where the whole sweep is larger).")
    var maxItems: Int?

    @Flag(help: "Smoke run: the smallest count (at most \(BenchmarkPlan.quickItemLimit)) and few samples.")
    var quick = false

    @Option(help: "Results directory (default: results/<UTC time>-<short commit>/).")
    var out: String?

    @Flag(help: ArgumentHelp(
        "Also count instructions per operation under callgrind (valgrind; exact and repeatable): at every count "
            + "named with --items, else at the sweep's counts up to \(BenchmarkPlan.instructionItemLimit) (a note names those left out)."))
    var instructions = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Independent repetitions, each in a fresh process (default: \(RunSession.defaultRepetitions); with --quick \(RunSession.quickRepetitions)). "
            + "Confidence intervals come from the variation between them."))
    var repetitions: Int?

    @Flag(help: "Run the repetitions as rounds in this process (fresh fixtures, same process) instead of fresh processes.")
    var inProcess = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a repetition's child process may go without starting a new step (a fixture, a mode's build and "
            + "verification, a warm-up, the sampling) before it is stopped and the mode it was in fails "
            + "(default \(Int(RunSession.defaultStallSeconds)); a layout that loops forever).", valueName: "seconds"))
    var stallTimeout: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Child processes that verify every mode at once, before the timed repetitions (default: the cores, at most 8; "
            + "\(RunSession.defaultJobs) here); the repetitions always time one process at a time.", valueName: "count"))
    var jobs: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The repetition number of the first repetition in the CSV (for scripts).", visibility: .hidden))
    var repetition = 1

    @Flag(help: ArgumentHelp(
        "An earlier run of this executable verified these scenarios: only time, without verifying or counting "
            + "allocations (the timed rounds of scripts/compare-commits).", visibility: .hidden))
    var verified = false

    @Flag(help: ArgumentHelp(
        "Only build and verify every mode: nothing is timed or counted, and the results hold only what the checks "
            + "observed, such as a heuristic mode's recall (scripts/compare-commits verifies both commits at once before "
            + "timing them).", visibility: .hidden))
    var verifyOnly = false

    @Flag(help: ArgumentHelp(
        "Shorter sampling per operation (at least 20 ms and 3 samples, at most 500 samples; the timed rounds of "
            + "scripts/compare-commits, which gain more from more processes).", visibility: .hidden))
    var brief = false

    @Option(help: ArgumentHelp(
        "Sample in a duet: meet the partner process before sampling each group and take sampling turns with it, "
            + "both pinned to one core (DIRECTORY:SELF:PARTNER, DIRECTORY absolute and shared; the timed rounds of "
            + "layout-bench compare-commits).", valueName: "DIRECTORY:SELF:PARTNER", visibility: .hidden))
    var duet: String?

    @Flag(help: ArgumentHelp(
        "Do not draw the report (report/index.html in the results), which the run of a layout author's executable draws "
            + "with the LayoutBench checkout's scripts/plot (layout-bench's own runs leave it to scripts/bench)."))
    var noPlot = false

    /// Whether this run draws its report: a user's executable (it registered layouts) run by its
    /// author, not a driver's child (which verifies only, or times rounds of a comparison that
    /// draws its own chart), and not told otherwise.
    var drawsReport: Bool {
        LayoutBenchCLI.registersLayouts && !noPlot && !verifyOnly && !verified && !brief && duet == nil
    }

    func validate() throws {
        try validateItemCounts(items)
        if verifyOnly && instructions { throw ValidationError("--verify-only counts nothing; it cannot take --instructions") }
        if let stallTimeout {
            if !(stallTimeout >= 1 && stallTimeout <= 86_400) {
                throw ValidationError("--stall-timeout expects seconds from 1 to 86400, got \(stallTimeout)")
            }
            // The timeout watches a repetition's child process; in process there is none to stop.
            if inProcess { throw ValidationError("--stall-timeout watches the repetitions' child processes; --in-process starts none (give one of the two)") }
        }
        if let jobs {
            if !(1...64).contains(jobs) { throw ValidationError("--jobs expects a count from 1 to 64, got \(jobs)") }
            // Apart from the repetitions, verification runs in child processes; in process it is the first round's.
            if inProcess { throw ValidationError("--jobs counts the child processes that verify; --in-process starts none (give one of the two)") }
            if verified { throw ValidationError("--jobs counts the child processes that verify; --verified verifies nothing") }
        }
        if let maxItems, maxItems < 1 { throw ValidationError("--max-items expects an item count >= 1, got \(maxItems)") }
        // --items names counts to run; one above --max-items would be run all the same, or
        // silently dropped: either way one option is not what it says.
        if let maxItems, let above = items.first(where: { $0 > maxItems }) {
            throw ValidationError("--items \(above) is above --max-items \(maxItems); give counts up to it, or one of the two options")
        }
        if let problem = RunSession.repetitionProblem(first: repetition, count: repetitions) { throw ValidationError(problem.message) }
        if let duet, DuetBarrier(specification: duet) == nil {
            throw ValidationError("--duet expects DIRECTORY:SELF:PARTNER with two different names, got '\(duet)'")
        }
        if duet != nil && (instructions || verifyOnly) { throw ValidationError("--duet samples time; it cannot take --instructions or --verify-only") }
    }

    func run() throws {
        try reportingErrors {
            // Before anything is loaded or measured: without valgrind every count would be
            // `unsupported`, and a run that counted nothing would look complete.
            if instructions, let refusal = PlatformCapabilities.instructionsRefusal { throw CommandFailure(message: refusal) }
            if instructions && !CallgrindRunner.isAvailable {
                throw CommandFailure(message: "--instructions counts under callgrind, and valgrind is not on PATH: install it "
                    + "(apt-get install valgrind), or run without --instructions")
            }
            let loaded = try ScenarioCatalog.loadTimed(arguments: scenarios)
            for load in loaded where load.seconds > 1 {
                let items = load.scenario.data.isExplicit ? " (\(load.scenario.itemCounts[0]) explicit items)" : ""
                StandardError.writeLine("\(commandName): loading \(load.scenario.file) took \(String(format: "%.2f", load.seconds)) s\(items)")
            }
            var plans = try BenchmarkPlan.select(loaded.map(\.scenario), modes: modes, items: items, maxItems: maxItems, quick: quick)
            for i in plans.indices {
                plans[i].loadSeconds = loaded.first { $0.scenario.file == plans[i].scenario.file }?.seconds
            }
            if plans.isEmpty { throw CommandFailure(message: "nothing to run: no scenario has the selected modes and counts") }
            if !items.isEmpty || !modes.isEmpty {
                let selected = Set(plans.map(\.scenario.name))
                for load in loaded where !selected.contains(load.scenario.name) {
                    let sweep = load.scenario.itemCounts.map(String.init).joined(separator: ", ")
                    StandardError.writeLine(
                        "\(commandName): note: skipping \(load.scenario.name): none of the selected modes and counts (its counts: \(sweep))")
                }
            }

            var session = try RunSession(
                plans: plans, quick: quick, instructions: instructions, outDirectory: out,
                repetition: repetition, repetitions: repetitions, isolation: inProcess ? .inProcess : .processes,
                commandLine: CommandLine.arguments,
                executable: CommandLine.arguments[0],
                progress: { StandardError.writeLine($0) })
            session.verifies = !verified || verifyOnly
            session.verifyOnly = verifyOnly
            session.brief = brief
            session.duet = duet.flatMap(DuetBarrier.init(specification:))
            session.stallSeconds = stallTimeout ?? RunSession.defaultStallSeconds
            if let jobs { session.verificationJobs = jobs }
            let result = try session.run()
            if drawsReport { drawReport(of: result.directory) }
            StandardError.writeLine("results: \(result.directory)")
            if !result.failures.isEmpty {
                for failure in result.failures { printError("\(failure)") }
                throw ExitCode(1)
            }
        }
    }
}

extension Run {
    /// Draws `directory/report/index.html` with the scripts/plot of the LayoutBench checkout this
    /// executable was built from, its matplotlib and catalog kept in the user's cache
    /// (`LayoutBenchCheckout.cacheDirectory`), never in the checkout. A report that cannot be
    /// drawn (no checkout, no python3, no network to install matplotlib) is a warning: the run's
    /// CSV files are its results, and its exit status stands.
    func drawReport(of directory: String) {
        guard let plot = LayoutBenchCheckout.script("plot") else {
            printWarning("no report: the LayoutBench checkout this executable was built from (\(LayoutBenchCheckout.root)) has no scripts/plot")
            return
        }
        StandardError.writeLine("\(commandName): drawing the report (\(plot))")
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let environment = ProcessInfo.processInfo.environment.merging(
            ["LAYOUT_BENCH_PLOT_CACHE": LayoutBenchCheckout.cacheDirectory + "/plot", "LAYOUT_BENCH_PLOT_CATALOG_BINARY": executable]
        ) { _, new in new }
        do {
            let result = try runChildProcess(executable: plot, arguments: [directory], environment: environment)
            if result.status != 0 || !FileManager.default.fileExists(atPath: directory + "/report/index.html") {
                StandardError.write(result.output)
                printWarning("no report: \(plot) exited with status \(result.status); the CSV results stand")
            }
        } catch {
            printWarning("no report: cannot run \(plot) (\(error)); the CSV results stand")
        }
    }
}
