import Foundation
import BenchPlatform
import BenchResults

/// One side of a comparison: a commit (or a build), its harness, and the binary its timed rounds run.
struct ComparedSide {
    var name: String
    var hash: String
    var short: String
    var harness: ChildHarness
    /// The binary the timed rounds run: the round's fresh copy of the harness's (CodePlacement).
    var runBinary: String
}

/// The verification step of `compare-commits`: each side's `run --verify-only` of a batch of
/// scenarios (in the comparison's folder `work`, a log per side and batch), skipped where a
/// verification of the same binary on the same input passed before (`VerifiedMarker`). A mode
/// that fails is recorded in `failures` (per side), for the comparison to end at; a run that
/// fails otherwise is an error.
/// Unchecked: what the two sides' threads share is under a lock (`failures`); the rest is read only.
struct Verification: @unchecked Sendable {
    var arguments: CompareCommitsArguments
    /// The repository's root (nil: the working directory), where .build-commits/ is.
    var root: String?
    var work: String
    /// Per side ("base", "head"), the groups whose mode failed its verification, written by the
    /// verifying threads.
    let failures = Locked<[String: [FailureRow]]>([:])

    /// A verification that passed is remembered beside the build
    /// (.build-commits/<commit>.verified-KEY, KEY a hash of the binary, the options and the content
    /// of the scenarios verified): verifying the same binary on the same input would find the same.
    func marker(_ side: ComparedSide, scenarios: [String], items: Int? = nil) -> String? {
        VerifiedMarker.path(root: root, commit: side.hash, binary: side.harness.binary, scenarios: scenarios,
                            options: arguments.runOptions + (items.map { ["--items", String($0)] } ?? []),
                            directory: side.harness.directory)
    }

    /// Verifies `batch`'s scenarios (at its count, when it names one); `apart`: one of several
    /// batches, each in a folder and a log of its own.
    func verify(_ side: ComparedSide, batch: RoundSchedule.VerificationBatch, apart: Bool) -> DriverError? {
        let marker = marker(side, scenarios: batch.scenarios, items: batch.items)
        let what = batch.items.map { " at \($0) items" } ?? ""
        if let marker, Paths.exists(marker) {
            DriverLog.say("\(side.name) (\(side.short)): verified earlier on these scenarios\(what) (\(marker))")
            return nil
        }
        let suffix = apart ? "-items-\(batch.items.map(String.init) ?? "chosen")" : ""
        let log = "\(work)/\(side.name)-verify\(suffix).log"
        Paths.remove(log)
        let out = "\(work)/\(side.name)/verify" + (apart ? "/\(suffix.dropFirst())" : "")
        let child = ChildRun(
            executable: side.harness.binary,
            arguments: ["run"] + batch.scenarios + arguments.runOptions + (batch.items.map { ["--items", String($0)] } ?? [])
                + ["--verify-only", "--repetitions", "1", "--out", Paths.absolute(out)]
                + (side.harness.countsJobs ? ["--jobs", "1"] : []),
            directory: side.harness.directory)
        if child.run(log: log).status != 0 {
            // A mode that failed is recorded in the run's failures.csv, and judged `failed`; a
            // run that failed otherwise (bad input, a full disk) is an error.
            if let failed = try? FailureRow.load(besideIn: out), !failed.isEmpty {
                for failure in failed { DriverLog.say("\(side.name) (\(side.short)): \(failure.message)") }
                failures.withLock { $0[side.name, default: []] += failed }
                return nil
            }
            return DriverError("\(side.name) (\(side.short)) failed its verification:",
                               details: lastLines(of: log, 5) { $0.contains("FAILED") || $0.contains("error") })
        }
        VerifiedMarker.write(marker)
        return nil
    }
}
