import Foundation
import BenchPlatform

/// The report writer of `compare-commits`: the comparison's folder, written as `work`
/// (`<final>.tmp-PID`) and renamed to `final` whole (`publish`), with compare.txt naming `final`
/// throughout, each side's run records kept and its rounds' folders gone, and the chart drawn by
/// `plot` (scripts/plot; nil: none).
struct ComparisonFolder {
    var work: String
    var final: String
    var plot: String?

    /// Writes compare.txt, its paths naming the folder's final place; returns the text.
    func writeText(_ text: String) throws(DriverError) -> String {
        let text = text.replacingOccurrences(of: work, with: final)
        try Paths.write(text, to: work + "/compare.txt")
        return text
    }

    /// The folder renamed into place, compare.txt on stdout, the chart, and where it all is.
    func publish(text: String) throws(DriverError) {
        try Paths.replace(final, with: work)
        try DriverLog.output(text)
        var drawn = false
        if let plot {
            let result = ChildRun(executable: plot, arguments: ["--out", final + "/report", final + "/compare.csv"]).run(log: nil)
            StandardError.write(result.output)
            if result.status != 0 {
                DriverLog.say("warning: the chart could not be drawn (scripts/plot); the comparison above stands")
            }
            drawn = true
        }
        DriverLog.say("results: \(final) (compare.csv, compare.txt\(drawn ? ", report/index.html" : ""))")
    }

    /// Keeps each round's run.json (the first group's stands for a timed round) in
    /// SIDE/rounds/, and the verification's as verify.json; the rounds' folders go.
    func keepRunRecords(_ side: String, rounds: Int) throws(DriverError) {
        let folder = "\(work)/\(side)"
        try Paths.makeDirectory(folder + "/rounds")
        if Paths.isFile(folder + "/verify/run.json") { try Paths.move(folder + "/verify/run.json", to: folder + "/rounds/verify.json") }
        // A shard's verification by item count: verify/items-N/run.json.
        for part in Paths.entries(folder + "/verify") where Paths.isFile("\(folder)/verify/\(part)/run.json") {
            try Paths.move("\(folder)/verify/\(part)/run.json", to: "\(folder)/rounds/verify-\(part).json")
        }
        Paths.remove(folder + "/verify")
        for round in 1...max(rounds, 1) {
            let directory = "\(folder)/round-\(round)"
            let parts = RoundMerge.parts(of: directory).parts
            if let first = parts.first, Paths.isFile(first + "/run.json") {
                try Paths.move(first + "/run.json", to: "\(folder)/rounds/round-\(round).json")
            }
            Paths.remove(directory)
        }
    }
}
