import BenchPlatform
import BenchResults
import BenchCompare

/// `layout-bench compare BASE HEAD --out CSV ARGUMENTS` in this process: the driver's
/// judgement of two merged sides. ARGUMENTS are compare's `--threshold` and `--metric` options as
/// the driver records them in shard.json (`compare_args`).
package enum Judge {
    package struct Outcome {
        /// compare's exit status: 0, 2, 3 or 4 (1 is thrown).
        package var status: Int32
        /// The table compare prints (what compare.txt holds).
        package var text: String
        package var report: ComparisonReport
    }

    /// The options `arguments` name; one error for a malformed one.
    package static func options(_ arguments: [String]) throws(DriverError) -> RowComparison.Options {
        var thresholds = ThresholdOverrides()
        var metrics = Set<String>()
        var repetitionsForChange = RowComparison.defaultRepetitionsForChange
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard index + 1 < arguments.count, ["--threshold", "--metric", "--change-repetitions"].contains(argument) else {
                throw DriverError("compare options: unexpected '\(argument)' (expected --threshold T, --metric M or --change-repetitions N)")
            }
            let value = arguments[index + 1]
            switch argument {
            case "--threshold":
                do { try thresholds.add(value) } catch { throw DriverError("--threshold \(value): \(error.message)") }
            case "--change-repetitions":
                guard let pairs = CompareCommitsArguments.wholeNumber(value), pairs >= 2 else {
                    throw DriverError("--change-repetitions expects a whole number >= 2, got '\(value)'")
                }
                repetitionsForChange = pairs
            default:
                metrics.insert(value)
            }
            index += 2
        }
        return RowComparison.Options(thresholds: thresholds, metrics: metrics, repetitionsForChange: repetitionsForChange)
    }

    /// Judges the results directories `base` and `head`, writes the table as CSV to `csv` (and
    /// causes.csv beside it), and returns compare's text and exit status. Bad input: one error.
    /// `unpaired`: the two sides carry a driver's `load.own_processes` but were not measured in
    /// the same rounds (history's commits stored by different sessions), so they are judged as
    /// two plain runs are.
    package static func run(base: String, head: String, csv: String?, arguments: [String], unpaired: Bool = false) throws(DriverError) -> Outcome {
        let sides: (base: ResultSet, head: ResultSet)
        do { sides = try ResultSet.load(base: base, head: head) } catch { throw DriverError(error.description) }
        return try run(base: sides.base, head: sides.head, csv: csv, arguments: arguments, unpaired: unpaired)
    }

    /// The same judgement of two sides already read (history reads each stored commit once,
    /// although it is the head of one step and the base of the next).
    static func run(base baseSet: ResultSet, head headSet: ResultSet, csv: String?, arguments: [String], unpaired: Bool) throws(DriverError) -> Outcome {
        var baseSet = baseSet, headSet = headSet
        let options = try options(arguments)
        do {
            if unpaired {
                baseSet.metadata?.load.ownProcesses = nil
                headSet.metadata?.load.ownProcesses = nil
            }
            for notice in baseSet.notices + headSet.notices { DriverLog.say("warning: \(notice)") }
            let report = try ComparisonReport(base: baseSet, head: headSet, options: options)
            if let csv {
                do { try AtomicFile.write(ComparisonTable.files(report, csvPath: csv), option: "--out") } catch {
                    throw DriverError("\(error)")
                }
            }
            let text = ComparisonTable.text(report, showUnchanged: false)
            return Outcome(status: report.exitStatus, text: text, report: report)
        } catch let error as CompareError {
            var failure = DriverError(error.description)
            failure.isNothingInCommon = error.isNothingInCommon
            throw failure
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError("\(error)")
        }
    }
}
