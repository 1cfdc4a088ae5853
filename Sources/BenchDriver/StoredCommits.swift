import Foundation
import BenchResults
import BenchStatistics

/// The commits a history store holds (results/history/<machine>/<commit>/), read back with
/// `compare`'s readers: the samples streamed with bounded memory (`ResultSet.load`: a gzip bomb,
/// a value that is not a finite number ≥ 0, a row given twice, a missing column, another schema,
/// a truncated or empty file are each one error naming the file), so that nothing `compare`
/// would refuse is judged, and the step detector (scripts/steps.py) is given the medians it
/// looks at, never the samples.
enum StoredCommits {
    /// The stored commits' folders of `store`: every entry that holds samples, but no staging
    /// folder (`*.tmp-PID`) and no hidden entry.
    static func names(in store: String) -> [String] {
        Paths.entries(store).filter { !$0.hasPrefix(".") && !$0.contains(".tmp") && History.isStored("\(store)/\($0)") }
    }

    /// Reads every stored commit of `store`; the first that `compare` would refuse is the error.
    static func check(store: String) throws(DriverError) {
        for name in names(in: store) { _ = try read("\(store)/\(name)") }
    }

    static func read(_ directory: String) throws(DriverError) -> ResultSet {
        do { return try ResultSet.load(directory) } catch { throw DriverError("\(error.description) (a stored commit of history)") }
    }

    /// The median of each time row (scenario × mode × items × operation) of every stored commit
    /// of `store`, as CSV (`commit,scenario,mode,items,operation,median`), written to `path`: the
    /// input of scripts/steps.py --medians.
    static func writeMedians(store: String, to path: String) throws(DriverError) {
        var csv = "commit,scenario,mode,items,operation,median\n"
        for name in names(in: store) {
            let results = try read("\(store)/\(name)")
            for (key, samples) in results.series.sorted(by: { $0.key < $1.key }) where key.metric == Metric.time.rawValue {
                guard !samples.values.isEmpty else { continue }
                let median = Quantile.median(samples.values)
                csv += [name, key.scenario, key.mode, String(key.items), key.operation].map(CSVWriter.escape).joined(separator: ",")
                    + ",\(median)\n"
            }
        }
        try Paths.write(csv, to: path)
    }
}
