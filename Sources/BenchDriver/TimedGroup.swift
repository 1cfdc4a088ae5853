import Foundation
import BenchPlatform

/// One process of a timed round: one commit's run of one scenario group, sampling briefly,
/// in a duet or alone, pinned to a core where given.
struct TimedGroup {
    var binary: String
    var harness: ChildHarness
    var group: ScenarioGroup
    var runOptions: [String]
    /// Whether an earlier run of this binary verified the group (`run --verified`).
    var verified: Bool
    var duet: String?
    var core: Int?

    /// Runs it into `out`; its output is appended to `log` (under `lock`). A failure is an error
    /// starting with `failure`, naming the group, with the child's last lines.
    func run(out: String, log: String, lock: NSLock, failure: String) -> DriverError? {
        var extra = ["--repetitions", "1"]
        if let items = group.items { extra += ["--items", String(items)] }
        if verified { extra.append("--verified") }
        if harness.samplesBriefly { extra.append("--brief") }
        var environment: [String: String] = [:]
        if let duet {
            let (arguments, variables) = harness.duetArguments(duet)
            extra += arguments
            environment = variables
        }
        var command = [binary, "run", group.scenario] + runOptions + extra + ["--out", out]
        if let core, let pinning = CPUPinning.commandPrefix(core: core) { command = pinning + command }
        let result = ChildRun(executable: command[0], arguments: Array(command.dropFirst()), directory: harness.directory,
                              environment: environment).run(log: nil)
        lock.lock()
        Paths.append(result.output, to: log)
        lock.unlock()
        guard result.status != 0 else { return nil }
        let at = group.items.map { " at \($0) items" } ?? ""
        return DriverError("\(failure) \(group.scenario)\(at):", details: Array(result.output.split(separator: "\n").map(String.init).suffix(5)))
    }
}
