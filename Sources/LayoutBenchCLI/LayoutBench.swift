import ArgumentParser
import Foundation
// A user's executable imports LayoutBenchCLI only, and gets the public surface with it
// (docs/your-layout.md, "The public surface"; scripts/check-public): the registration API of
// BenchScenarios, type by type, and the engine, whole.
@_exported import struct BenchScenarios.LayoutKind
@_exported import struct BenchScenarios.LayoutStrategy
@_exported import struct BenchScenarios.SameGeometry
@_exported import enum BenchScenarios.GenericWorkload
@_exported import struct BenchScenarios.LayoutKey
@_exported import enum BenchScenarios.LayoutKeyValue
@_exported import struct BenchScenarios.LayoutInput
@_exported import struct BenchScenarios.LayoutInputError
import BenchScenarios
import BenchPlatform
import BenchResults
import BenchWorkloads
import BenchRunner
@_exported import LayoutEngine

struct LayoutBenchCommand: ParsableCommand {
    /// Computed, not stored: it names the executable that was run (`layout-bench`, or a user's
    /// `custom-layout-bench`) and lists the layout kinds `main(layouts:)` registered before the
    /// command line is parsed.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: commandName,
            abstract: "Measure list and collection layout strategies side by side, verified, as CSV.",
            discussion: """
                Each scenario in Scenarios/ names a layout, a data set, a workload (prepare, query, append, \
                edit, or a generic layout-* workload for any layout kind), the modes to compare and the \
                item counts to sweep. `run` verifies every mode against the exact reference, then measures \
                time and allocations (and instructions under callgrind with --instructions) and writes \
                samples.csv.gz, summary.csv and run.json.

                Layout kinds: \(LayoutCatalog.all.map(\.name).joined(separator: ", "))
                Generic workloads (any layout kind): \(GenericWorkload.allCases.map(\.rawValue).joined(separator: ", "))

                Examples:
                  \(commandName) list
                  \(commandName) run --quick
                  \(commandName) run list-query --items 30000 --mode binary --mode linear
                  \(commandName) dump probe-miss-explicit --mode binary-probe \\
                      --rect 0,2000,390,844
                  \(commandName) render mixed-sections-query --mode binary \\
                      --offset 1200 --out layout.svg
                  \(commandName) compare results/base results/head --out diff.csv
                  \(commandName) compare-builds base-binary .build/release/\(commandName)

                Exit status:
                  0   success
                  1   bad scenario or data, failed verification, or an
                      unwritable output: one line naming the file and JSON
                      path (or the option and path)
                  2   compare: a regression
                  3   compare: too noisy to decide
                  4   compare: improvements only
                  64  malformed command line (unknown option, bad value)
                  An interrupted run (SIGINT, SIGTERM) removes its partial
                  results and ends by the signal.
                """,
            version: LayoutBench.version,
            subcommands: [
                ListScenarios.self, Run.self, Dump.self, Render.self, Compare.self, CompareBuildsCommand.self, CompareCommitsCommand.self,
                HistoryCommand.self, Export.self, ChildCommand.self, MergeRoundsCommand.self, MachineLoadCommand.self,
            ]
        )
    }

    static func main() {
        StandardOutput.secureStandardDescriptors()
        StandardError.ignoreBrokenPipes()
        main(nil)
    }
}

/// The `layout-bench` command line as a library: `layout-bench` itself is a one-line executable
/// calling `main(layouts: [])`, and a layout author's executable calls it with their layout kinds
/// (README, "Bring your own layout"; docs/your-layout.md):
///
///     import LayoutBenchCLI
///     LayoutBenchCLI.main(layouts: [LayoutKind(name: "square-grid", …) { input in SquareGrid(input) }])
///
/// The kinds are registered in `LayoutCatalog` before the command line is parsed, so every
/// subcommand sees them, and so do the child processes `run` starts: they run this same
/// executable, whose `main` registers the same kinds.
public enum LayoutBenchCLI {
    /// Whether `main(layouts:)` registered layouts of its own: a layout author's executable, whose
    /// `run` draws its report itself (there is no scripts/bench in the author's package).
    nonisolated(unsafe) static var registersLayouts = false

    /// Registers `layouts` and runs the command line (`run`, `list`, `dump`, `render`, `compare`,
    /// `export`, and the hidden `child`). A registration that cannot be used (a duplicate name, a
    /// bad key default) is one line on stderr and exit status 1.
    ///
    /// `file` is the caller's source file (leave it out): run.json records the commit and dirty
    /// state of the package above it, the package that built this executable (`BuildPackage`).
    public static func main(layouts: [LayoutKind], file: String = #filePath) -> Never {
        BuildPackage.directory = BuildPackage.root(of: file)
        registersLayouts = !layouts.isEmpty
        do {
            try LayoutCatalog.register(layouts)
        } catch {
            printError("\(error)")
            exit(1)
        }
        // This binary's workloads describe their metrics to every reader of results that carry
        // no description of their own (written before run.json recorded `metrics`).
        WorkloadCatalog.installMetrics()
        LayoutBenchCommand.main()
        exit(0)
    }
}

/// Runs `body`, turning the errors users can cause into one clear line on stderr and exit status 1.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ScenarioError {
        printError("\(error)")
    } catch let error as LayoutError {
        printError("\(error)")
    } catch let error as VerificationError {
        printError("\(error)")
    } catch let error as CompareError {
        printError("\(error)")
    } catch let error as AtomicFileError {
        printError("\(error)")
    } catch let error as CommandFailure {
        printError(error.message)
    } catch let error as OutputError {
        printError("\(error)")
    } catch let error as RunOptionError {
        printError("\(error)")
    }
    throw ExitCode(1)
}

/// `--items`: every count must be at least 1 (a usage error, exit 64, in the harness's words).
func validateItemCounts(_ counts: [Int]) throws {
    if let bad = counts.first(where: { $0 < 1 }) {
        throw ValidationError("--items expects an item count >= 1, got \(bad)")
    }
}

/// A coordinate of `--offset` or `--rect`: a decimal number (`-12`, `2000.5`, `1e3`; not hex,
/// `nan` or `inf`, which Swift's `Double(_:)` also reads) within ±`ScenarioLimits.maxContentHeight`
/// (no content is taller, so nothing lies farther); nil otherwise. Negative values are real (a
/// rubber-band pull past the top, a rect above the content).
func parseCoordinate(_ text: String) -> Double? {
    var bytes = Substring(text).utf8.drop { $0 == 0x20 }
    while bytes.last == 0x20 { bytes = bytes.dropLast() }
    var sawDigit = false, sawExponent = false, previous: UInt8 = 0
    for byte in bytes {
        switch byte {
        case 0x30...0x39: sawDigit = true
        case 0x2B, 0x2D: guard previous == 0 || previous == 0x65 || previous == 0x45 else { return nil }
        case 0x2E: guard !sawExponent else { return nil }
        case 0x65, 0x45: guard sawDigit, !sawExponent else { return nil }; sawExponent = true
        default: return nil
        }
        previous = byte
    }
    guard sawDigit, let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite,
          abs(value) <= ScenarioLimits.maxContentHeight else { return nil }
    return value
}

/// The bound of a coordinate, as the errors write it ("1e+13").
let coordinateBound = String(format: "%g", ScenarioLimits.maxContentHeight)

/// `--offset`: a coordinate (`parseCoordinate`).
func validateOffset(_ text: String) throws {
    guard parseCoordinate(text) != nil else {
        throw ValidationError("--offset expects a finite number from -\(coordinateBound) to \(coordinateBound) (no content is taller), got '\(text)'")
    }
}

/// A failure with a message for the user.
struct CommandFailure: Error {
    var message: String
}

func printError(_ message: String) {
    StandardError.writeLine("\(commandName): error: \(message)")
}

func printWarning(_ message: String) {
    StandardError.writeLine("\(commandName): warning: \(message)")
}

/// The name this executable was run by (`layout-bench`, or a user's `custom-layout-bench`), for
/// the lines it writes to stderr.
let commandName: String = {
    let name = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
    return name.isEmpty ? "layout-bench" : name
}()

/// Loads one scenario (by name or path) and checks it against its workload.
func loadPlan(_ argument: String, modes: [String] = [], items: [Int] = []) throws -> BenchmarkPlan {
    try BenchmarkPlan(scenario: try ScenarioCatalog.load(argument: argument), modeFilter: modes, itemsFilter: items)
}
