import Foundation
import BenchPlatform
import BenchResults

/// The machine's load before a driver starts anything: the three load averages, how many
/// processes of others are running, how much CPU all of them took over one second (in cores),
/// and the busiest of them, leaving out the driver's own process tree. Every load average a run
/// records later includes the driver's own processes, so a warning of a busy machine must speak
/// of this, not of the comparison itself.
/// Recorded in the merged run.json as `load.before` (`RoundMerge.Load`); nil where the platform
/// layer reads no process table (`MachineFacts.processTable()`: Linux only).
package enum MachineLoad {
    /// The 1, 5 and 15 minute load averages, the processes of others running, the cores every
    /// process of others took, and the busiest ("COMMAND P% cpu", the five busiest at 5% or more).
    package static func measure(root: Int32 = getpid(), interval: Double = 1) -> RunMetadata.MachineLoad? {
        guard let average = MachineFacts.loadAverage(), let first = MachineFacts.processTable()?.processes else { return nil }
        usleep(UInt32(interval * 1_000_000))
        guard let table = MachineFacts.processTable() else { return nil }
        let second = table.processes
        var own: Set<Int> = [Int(root)]
        var changed = true
        while changed {
            changed = false
            for (pid, process) in second where own.contains(process.parent) && !own.contains(pid) {
                own.insert(pid)
                changed = true
            }
        }
        let ticks = table.ticksPerSecond
        var busy: [(share: Double, command: String)] = []
        var othersCores = 0.0
        for (pid, process) in second where !own.contains(pid) {
            guard let before = first[pid] else { continue }
            let share = Double(max(process.cpuTicks - before.cpuTicks, 0)) / ticks / interval
            othersCores += share
            if share >= 0.05 { busy.append((share, process.command)) }
        }
        busy.sort { $0.share != $1.share ? $0.share > $1.share : $0.command > $1.command }
        let running = second.filter { !own.contains($0.key) && $0.value.state == "R" }.count
        return RunMetadata.MachineLoad(
            average: average, running: running,
            busiest: busy.prefix(5).map { "\($0.command) \(Int(($0.share * 100).rounded()))% cpu" },
            othersCores: (othersCores * 100).rounded() / 100)
    }

    /// The record as `machine-load` prints it: one line, keys sorted, as in run.json.
    package static func json(_ load: RunMetadata.MachineLoad) -> String {
        (try? CarriedJSON(record: load))?.compact ?? "{}"
    }

    /// A record `json` printed (`merge-rounds --machine-before`); nil for anything else.
    package static func parse(_ text: String) -> RunMetadata.MachineLoad? {
        guard let tree = try? JSONDecoder().decode(CarriedJSON.self, from: Data(text.utf8)), case .object = tree else { return nil }
        return try? tree.record(RunMetadata.MachineLoad.self)
    }

    /// The line compare.txt ends with: "the machine before the comparison started: load average …".
    package static func summary(_ before: RunMetadata.MachineLoad) -> String {
        var line = "the machine before the comparison started: load average " + before.average.map(formatted).joined(separator: " ")
        line += ", \(before.running.map { "\($0)" } ?? "?") processes of others running"
        if let cores = before.othersCores { line += ", using \(formatted(cores)) cores" }
        if let busiest = before.busiest, !busiest.isEmpty {
            line += "; busiest: " + busiest.joined(separator: ", ")
        }
        return line
    }

    /// A load average as Python prints a float (4.97, 2.0).
    static func formatted(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}
