/// The command line of `compare-commits` (and of scripts/compare-commits, which passes its
/// arguments on unchanged): the same options, meanings and refusals as the bash driver had.
/// Parsed by hand, not by ArgumentParser, so that a bad option is one line and exit status 1, as
/// scripts and CI jobs that call it expect (ArgumentParser's usage errors exit 64).
package struct CompareCommitsArguments: Equatable {
    package var quick = false
    package var instructions = false
    /// nil: the default (5, or 1 with --instructions).
    package var rounds: Int?
    package var maxRounds = 10
    package var budgetMinutes = 20
    /// The fewest pairs of processes from which a timed row may be called `regressed` or
    /// `improved` (`--change-repetitions`; compare's `RowComparison.Options.repetitionsForChange`).
    /// Eight, not compare's five: the whole suite is a thousand rows judged at once, and at five
    /// pairs two of four whole-suite A/As here called one of them `regressed`; resampled from an
    /// A/A's pairs, eight make that about one comparison in a thousand. A row that looks changed
    /// at fewer stays `noisy`, and its group runs the rounds that take it to eight, even past the
    /// budget; a group with a row still `noisy` runs to `pairsForNoisy` (`RoundSchedule.confirming`).
    package var repetitionsForChange = 8
    /// The pairs a group with a row still `noisy` runs to, past the budget: twice
    /// `repetitionsForChange`. In the third whole-suite A/A of b24822a one row was left noisy at
    /// eight pairs (exit 3): its processes read one of two speeds, and six of eight base processes
    /// had drawn the fast one. Simulated with the same judgement, such a row is left noisy at eight
    /// pairs one time in 100 and at sixteen one in 10,000; a row whose processes spread normally
    /// by 5%, from 0.6% to 0.01%, while the rows it calls `regressed` falsely go from 0.01% to
    /// 0.04% (30,000 simulated A/As of each; docs/methodology.md).
    package var pairsForNoisy: Int { 2 * repetitionsForChange }
    /// compare's `--threshold` options, in order, as `--threshold VALUE` pairs.
    package var thresholds: [String] = []
    /// run's `--mode` and `--items` options, in order, as pairs.
    package var runArguments: [String] = []
    package var plot = true
    package var duet = true
    package var shard: (index: Int, count: Int)?
    package var merge = false
    package var mergeOut: String?
    /// --tool (with --merge): accepted for the script's interface; the judging is in this process.
    package var tool: String?
    /// BASE HEAD SCENARIO… (or, with --merge, the shares' folders).
    package var positional: [String] = []
    /// Hidden: the binaries of the two commits, already built (else `buildCommand` builds them).
    package var baseBinary: String?
    package var headBinary: String?
    /// Hidden: the program that builds a commit (its full hash as the one argument) and prints the
    /// path of its layout-bench (scripts/build-commit).
    package var buildCommand: String?
    /// Hidden: the program that draws the report (scripts/plot); nil: none.
    package var plotCommand: String?
    /// `compare-builds`: BASE and HEAD are two built executables, not commits (their results
    /// folder is named by each binary's SHA-256); set by `parse(_:builds:)`.
    package var builds = false

    package static func == (a: Self, b: Self) -> Bool {
        a.quick == b.quick && a.instructions == b.instructions && a.rounds == b.rounds && a.maxRounds == b.maxRounds
            && a.budgetMinutes == b.budgetMinutes && a.repetitionsForChange == b.repetitionsForChange && a.thresholds == b.thresholds && a.runArguments == b.runArguments
            && a.plot == b.plot && a.duet == b.duet && a.shard?.index == b.shard?.index && a.shard?.count == b.shard?.count
            && a.merge == b.merge && a.mergeOut == b.mergeOut && a.positional == b.positional
    }

    /// An error, and whether the usage text should follow it.
    package struct Problem: Error, Equatable {
        package var message: String
        package var showsUsage: Bool
    }

    /// With `builds` (`compare-builds`), the first two positional arguments are the two
    /// executables: they become `baseBinary` and `headBinary`.
    package static func parse(_ arguments: [String], builds: Bool = false) throws(Problem) -> CompareCommitsArguments {
        var result = CompareCommitsArguments()
        result.builds = builds
        var rounds: String?, maxRounds = "30", budget = "20", shard: String?, changeRepetitions = "8"
        var index = 0
        func value(_ option: String, _ what: String) throws(Problem) -> String {
            guard index + 1 < arguments.count else { throw Problem(message: "\(option) needs \(what)", showsUsage: false) }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--shard": shard = try value(argument, "K/N")
            case "--merge": result.merge = true
            case "--out": result.mergeOut = try value(argument, "a directory")
            case "--tool": result.tool = try value(argument, "a path")
            case "--quick": result.quick = true
            case "--instructions": result.instructions = true
            case "--rounds": rounds = try value(argument, "a number")
            case "--max-rounds": maxRounds = try value(argument, "a number")
            case "--budget": budget = try value(argument, "minutes")
            case "--change-repetitions": changeRepetitions = try value(argument, "a number")
            case "--threshold": result.thresholds += ["--threshold", try value(argument, "METRIC=PERCENT")]
            case "--mode", "--items": result.runArguments += [argument, try value(argument, "a value")]
            case "--no-plot": result.plot = false
            case "--back-to-back": result.duet = false
            case "--base-binary": result.baseBinary = try value(argument, "a path")
            case "--head-binary": result.headBinary = try value(argument, "a path")
            case "--build-command": result.buildCommand = try value(argument, "a path")
            case "--plot-command": result.plotCommand = try value(argument, "a path")
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw Problem(message: "unknown option '\(argument)'", showsUsage: true)
                }
                result.positional.append(argument)
            }
            index += 1
        }
        if result.merge {
            if result.positional.isEmpty { throw Problem(message: "--merge needs the shares' result folders", showsUsage: true) }
            return result
        }
        if let shard {
            guard let parsed = Shards.parse(shard) else {
                throw Problem(message: "--shard expects K/N with 1 <= K <= N (e.g. 2/4), got '\(shard)'", showsUsage: false)
            }
            result.shard = parsed
        }
        if result.positional.count < 2 {
            throw Problem(message: builds ? "give two built executables, BASE and HEAD" : "give two commits, BASE and HEAD", showsUsage: true)
        }
        if builds {
            if result.baseBinary != nil || result.headBinary != nil {
                throw Problem(message: "compare-builds takes the two executables as BASE and HEAD, not --base-binary or --head-binary", showsUsage: true)
            }
            if result.shard != nil { throw Problem(message: "compare-builds takes no --shard", showsUsage: false) }
            result.baseBinary = result.positional[0]
            result.headBinary = result.positional[1]
        }
        if let rounds {
            guard let number = wholeNumber(rounds), number >= 1 else {
                throw Problem(message: "--rounds expects a whole number >= 1, got '\(rounds)'", showsUsage: false)
            }
            result.rounds = number
        }
        guard let max = wholeNumber(maxRounds), max >= 1 else {
            throw Problem(message: "--max-rounds expects a whole number >= 1, got '\(maxRounds)'", showsUsage: false)
        }
        result.maxRounds = max
        guard let minutes = wholeNumber(budget) else {
            throw Problem(message: "--budget expects whole minutes >= 0, got '\(budget)'", showsUsage: false)
        }
        result.budgetMinutes = minutes
        guard let pairs = wholeNumber(changeRepetitions), pairs >= 2 else {
            throw Problem(message: "--change-repetitions expects a whole number >= 2, got '\(changeRepetitions)'", showsUsage: false)
        }
        result.repetitionsForChange = pairs
        return result
    }

    /// Digits only (at most 9 of them), as the bash's `^[0-9]+$` took them.
    static func wholeNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    package var scenarios: [String] { Array(positional.dropFirst(2)) }

    /// The rounds every group runs, and the most any runs (more only for undecided groups).
    package var roundLimits: (rounds: Int, maxRounds: Int) {
        if instructions {
            let rounds = self.rounds ?? 1
            return (rounds, rounds)
        }
        let rounds = self.rounds ?? 5
        return (rounds, Swift.max(rounds, maxRounds))
    }

    /// What run gets besides the scenario: --quick, --mode/--items, and --instructions.
    package var runOptions: [String] {
        (quick ? ["--quick"] : []) + runArguments + (instructions ? ["--instructions"] : [])
    }

    /// The options shard.json records (the bash's `quick` and `run_args`: --instructions last).
    package var recordedOptions: [String] {
        (quick ? ["--quick"] : []) + runArguments + (instructions ? ["--instructions"] : [])
    }

    /// compare's options: the thresholds, then the metrics each track judges.
    package var compareArguments: [String] {
        // The timed track judges what it measures with noise: time, and each process's peak_rss.
        // The exact track judges what callgrind and the allocation counters count exactly:
        // alloc_bytes is read around timed samples, whose batch follows the timing, so it is left
        // to `run`'s own summary; the cache misses are judged through what they cost, in
        // estimated_cycles (`exactMetrics`).
        let metrics = instructions ? Self.exactMetrics.flatMap { ["--metric", $0] } : Self.timedMetrics
        return thresholds + ["--change-repetitions", String(repetitionsForChange)] + metrics
    }

    /// The metrics the exact track judges. Not `l1_misses` and `ll_misses` on their own: a change
    /// of code moves which functions share cache sets in the simulated 32 KiB L1, so an operation
    /// whose code path is large (a cell measurement: the solver, the template, the text) gains or
    /// loses instruction-cache misses with unrelated changes, while `estimated_cycles` (which
    /// counts each miss at its cost) moves by far less; judged alone they would fail changes that
    /// made the operation cheaper. Their cost is judged in `estimated_cycles`; they stay in each
    /// side's samples, and `layout-bench compare --metric l1_misses` judges them when asked.
    package static let exactMetrics = ["instructions", "estimated_cycles", "allocs", "recall"]

    /// The metrics of the timed track as compare's options (history judges its steps by them too).
    package static let timedMetrics = ["--metric", "time", "--metric", "peak_rss"]

    /// `compare-builds`' usage: compare-commits' options, of two executables already built.
    package static func buildsUsage(command: String) -> String {
        """
        Did the HEAD build make anything slower than the BASE build, by how much, with what confidence?

        Runs two executables already built (two builds of \(command), for example before and after a
        change to your layout) interleaved on the scenarios of the current directory's Scenarios/,
        as compare-commits runs two commits' builds, and judges them as `\(command) compare` does.
        Results: results/compare/<base>..<head>/ (the first 7 hex digits of each binary's SHA-256).
        Exit status: 0 nothing regressed, 2 a regression, 3 too noisy to decide, 4 improvements only,
        1 bad input.

        Usage: \(command) compare-builds [options] BASE HEAD [SCENARIO ...]
          BASE, HEAD         paths of the two executables (copy the first build aside before the second:
                             `cp .build/release/\(command) base-\(command)`)
          options            those of compare-commits (--quick, --rounds, --max-rounds, --budget,
                             --change-repetitions, --threshold, --mode, --items, --back-to-back, --no-plot,
                             --instructions); \(command) compare-commits --help describes them
        """
    }

    package static let usage = """
        Did HEAD make anything slower than BASE, by how much, with what confidence?

        Builds both commits (release) in their own worktrees and build folders, runs the two binaries
        interleaved on the same scenarios (rounds alternate AB, BA, AB, … so that slow drift of the machine
        favours neither), merges each side's rounds as independent repetitions, then judges them as
        `layout-bench compare` does and draws the compare chart. Exit status as `layout-bench compare`:
        0 nothing regressed, 2 a regression, 3 too noisy to decide, 4 improvements only, 1 bad input.

        Usage: scripts/compare-commits [options] BASE HEAD [SCENARIO ...]
          --quick            small counts, few samples (the whole suite in seconds per round)
          --instructions     the exact track: one round each under callgrind (the two commits side by
                             side, counts up to 30,000 items), judged on instructions, estimated_cycles
                             (the cache misses at their cost), allocation counts and recall only (exact
                             and repeatable: the right gate for CI)
          --rounds N         timed rounds over every selected scenario (default 5); a round runs each
                             scenario group (scenario x items) as one fresh process per commit, the two
                             as a duet (see --back-to-back), sampling briefly; before them both commits verify every mode
                             at once, one per core. The timed track judges time and peak_rss.
          --max-rounds M     more rounds, up to M in all (default 30), only for the groups with a row
                             still undecided (`noisy`) or judged at a threshold its processes' spread
                             widened: n processes average their spread down by √n
          --budget MIN       measure no more groups in a round than end by MIN minutes of measuring,
                             those with a row still noisy first, then the cheapest (default 20;
                             a group whose row looks changed, or is noisy, at too few pairs
                             runs regardless;
                             0: no budget); compare.txt then says that the budget left rows
                             unsettled
          --change-repetitions N
                             call a timed row regressed or improved only from N pairs of processes
                             (default 8; compare's own default is 5): a row that looks changed at
                             fewer stays noisy, and its group runs the rounds that take it to N
                             first, even past the budget; a group with a row still noisy runs
                             them up to 2N
          --threshold T      passed to compare (METRIC=PERCENT or PERCENT for time; repeatable)
          --mode M, --items N  passed to run (repeatable)
          --back-to-back     run a group's two processes one after the other (which first alternates)
                             instead of as a duet: both on one core, taking their sampling turns in
                             alternation (the default where both harnesses support it; two groups at a
                             time, one per core; see docs/methodology.md)
          --no-plot          do not draw the compare chart
          --shard K/N        run only the K-th of N shares of the scenario groups (both commits, as
                             duets, on this machine), into results/compare/<base>..<head>-shard-K-of-N
                             with shard.json; a CI matrix of N runners runs one share each
          --merge DIR ...    judge the shares DIR ... (all N of one comparison, from machines alike)
                             together into results/compare/<base>..<head> (or --out DIR): the verdicts
                             one unsharded comparison of the same samples gives. Refuses shares of other
                             commits or options, a share missing or given twice, and machines that differ;
                             --out replaces only an earlier merged comparison (never a share, a file, or
                             a folder holding anything a comparison does not write)
          --tool PATH        with --merge: the layout-bench that judges (default: this checkout's, release)
        Results: results/compare/<base>..<head>/{base,head}/samples.csv.gz, compare.csv, compare.txt,
                 causes.csv (with --instructions: the functions behind each regression), report/
        """
}
